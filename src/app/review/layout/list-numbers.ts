import { formatNumber } from './number-format';

/**
 * docx-preview numbers list paragraphs with CSS counters (reset on its wrapper, set on the
 * paragraph of the level above, incremented by each item's ::before). The laid-out pages come in
 * groups the browser may skip off-screen (`content-visibility: auto`, styles.css), and that
 * containment scopes counters: every item read "1.". So before the pages are built each list
 * paragraph's label is worked out as the counters would give it, in document order, and kept on
 * the paragraph (`data-rl-number`, shown by styles.css instead of the counter). A format this
 * does not know (a CJK counter style) keeps its counter.
 */
const CSS_FORMATS: Record<string, string> = {
  decimal: 'decimal',
  'decimal-leading-zero': 'decimalZero',
  'lower-alpha': 'lowerLetter',
  'lower-latin': 'lowerLetter',
  'upper-alpha': 'upperLetter',
  'upper-latin': 'upperLetter',
  'lower-roman': 'lowerRoman',
  'upper-roman': 'upperRoman',
};

/** "a 0 b 3" (counter-reset, counter-set) or "a b 2" (counter-increment): each name and its value. */
export function counterPairs(value: string, missing: number): [string, number][] {
  if (!value || value === 'none') return [];
  const out: [string, number][] = [];
  const tokens = value.trim().split(/\s+/);
  for (let i = 0; i < tokens.length; i++) {
    const name = tokens[i]!;
    const next = tokens[i + 1];
    if (next !== undefined && /^[+-]?\d+$/.test(next)) {
      out.push([name, Number(next)]);
      i++;
    } else out.push([name, missing]);
  }
  return out;
}

function unescapeCss(text: string): string {
  return text.replace(/\\([0-9a-fA-F]{1,6})\s?|\\(.)/g, (_, hex: string | undefined, ch: string | undefined) => (hex ? String.fromCodePoint(parseInt(hex, 16)) : (ch ?? '')));
}

/** A ::before's computed `content` with each counter() replaced by its value; null when it has no counter or one of a format not known here. */
export function labelFrom(content: string, counters: ReadonlyMap<string, number>): string | null {
  if (!content.includes('counter(')) return null;
  let out = '';
  const token = /"((?:[^"\\]|\\.)*)"|counter\(\s*([^,)\s]+)\s*(?:,\s*([^)\s]+)\s*)?\)|\s+/gy;
  let m: RegExpExecArray | null;
  let at = 0;
  while (at < content.length && (m = token.exec(content)) !== null) {
    at = token.lastIndex;
    if (m[1] !== undefined) out += unescapeCss(m[1]);
    else if (m[2] !== undefined) {
      const format = CSS_FORMATS[m[3] ?? 'decimal'];
      if (!format) return null;
      out += formatNumber(counters.get(m[2]) ?? 0, format);
    }
  }
  return at === content.length ? out : null;
}

/** Works out and keeps the label of every list paragraph under `root` (in the document, styles applied); answers how many. */
export function freezeListNumbers(root: HTMLElement): number {
  const counters = new Map<string, number>();
  const wrapper = root.classList.contains('docx-wrapper') ? root : root.querySelector<HTMLElement>('.docx-wrapper');
  if (wrapper) for (const [name, value] of counterPairs(getComputedStyle(wrapper).counterReset, 0)) counters.set(name, value);
  // Every style read first, every label written after: a write between reads (the attribute
  // has a style rule) would make each read recompute the styles of the whole draft.
  const labels: [HTMLElement, string][] = [];
  for (const p of root.querySelectorAll<HTMLElement>('p[class*="-num-"]')) {
    // As CSS orders them on one element: reset, increment, set; then the ::before's.
    const own = getComputedStyle(p);
    for (const [name, value] of counterPairs(own.counterReset, 0)) counters.set(name, value);
    for (const [name, value] of counterPairs(own.counterIncrement, 1)) counters.set(name, (counters.get(name) ?? 0) + value);
    for (const [name, value] of counterPairs(own.counterSet, 0)) counters.set(name, value);
    const before = getComputedStyle(p, '::before');
    for (const [name, value] of counterPairs(before.counterIncrement, 1)) counters.set(name, (counters.get(name) ?? 0) + value);
    for (const [name, value] of counterPairs(before.counterSet, 0)) counters.set(name, value);
    const label = labelFrom(before.content, counters);
    if (label !== null) labels.push([p, label]);
  }
  for (const [p, label] of labels) p.dataset.rlNumber = label;
  return labels.length;
}
