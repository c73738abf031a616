import type { ModelNode } from './annotate';
import { spaceBorderedSides, type BorderSpace } from './paragraph-borders';
import { paragraphStylesXml, resolvedThroughBasedOn, type ParagraphStyleXml } from './paragraph-styles';

/**
 * Paragraph spacing as Word computes it.
 *
 * Lines: Word's "auto" spacing (w:spacing w:lineRule="auto") is a multiple of the line height
 * of the font actually used (ascent + descent + line gap: 1.15 em for Times New Roman, 1.22 em
 * for Calibri), line by line from the tallest run on it; "exact" is that many points whatever
 * the fonts; "atLeast" is the larger of the points and the single line. docx-preview writes
 * `line-height: 1.50` (one and a half em, whatever the font), exact as points and atLeast as
 * `calc(100% + Xpt)` (font size plus X). So each element of a paragraph computes its own line
 * height from three custom properties the paragraph sets (--rl-line: the multiple; --rl-least:
 * the minimum; --rl-exact: exact, else unset) and one its font sets (--rl-natural: the font's
 * own line height per em, measured in the browser for the fonts it actually draws with:
 * font-metrics.ts): a run's inline box is its own font's line times the multiple, and the
 * browser's line box, the union of its runs', is the tallest run's, as in Word. Styles carry the
 * properties in their rules; a paragraph or run with its own spacing or font gets a class that
 * sets them (docx-preview writes inline styles through the style object, which takes no custom
 * properties).
 *
 * Before and after: they become padding, and between two paragraphs the page layout keeps the
 * larger of the space after above and the space before below, as Word does (spacing-collapse.ts);
 * on a side where the paragraph's style has a border they stay margins, outside the border, and
 * the padding is the border's w:space (paragraph-borders.ts). Between two paragraphs of a style with w:contextualSpacing both are dropped
 * (classes set on the model: a `:has()` rule would cost every insertion a style check). The space before of a paragraph at the top of a page after a natural break
 * is dropped by the page layout (paginate.ts).
 */
export interface Spacing {
  /** The multiple of the natural line (auto), 1 for atLeast. */
  line?: number;
  /** atLeast: the minimum, in pt. */
  least?: number;
  /** exact: the height, in pt. */
  exact?: number;
}

/** The spacing docx-preview wrote as a CSS line-height (see parseSpacing in docx-preview), or null when it is none of its forms. */
export function spacingOf(lineHeight: unknown): Spacing | null {
  if (typeof lineHeight !== 'string') return null;
  const value = lineHeight.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return { line: Number(value) };
  const least = /^calc\(100% \+ (-?\d+(?:\.\d+)?)pt\)$/.exec(value);
  if (least) return { line: 1, least: Number(least[1]) };
  const exact = /^(\d+(?:\.\d+)?)pt$/.exec(value);
  if (exact) return { exact: Number(exact[1]) };
  return null;
}

/** The custom properties that say a spacing (all three, so none is inherited from a rule below). */
export function spacingProperties(s: Spacing): Record<string, string> {
  if (s.exact !== undefined) return { '--rl-exact': `${s.exact}pt`, '--rl-line': '1', '--rl-least': '0pt' };
  return { '--rl-exact': 'initial', '--rl-line': String(s.line ?? 1), '--rl-least': `${s.least ?? 0}pt` };
}

/** The CSS class of a spacing (a paragraph's own). */
export function spacingClass(s: Spacing): string {
  // In hundredths (docx-preview's multiples have two decimals, points come from twips): an identifier whatever the number.
  const n = (v: number) => (v < 0 ? 'm' : '') + String(Math.round(Math.abs(v) * 100));
  return s.exact !== undefined ? `rl-ls-x${n(s.exact)}` : s.least !== undefined ? `rl-ls-l${n(s.least)}` : `rl-ls-a${n(s.line ?? 1)}`;
}

/** The first family of a CSS font-family list (docx-preview's: quoted names and theme variables), theme fonts resolved. */
export function firstFamily(fontFamily: string, theme: { minor?: string; major?: string }): string | null {
  const first = fontFamily.split(',')[0]?.trim();
  if (!first) return null;
  if (first.startsWith('var(')) return (first.includes('major') ? theme.major : first.includes('minor') ? theme.minor : undefined) ?? null;
  return first.replace(/^['"]|['"]$/g, '').trim() || null;
}

/**
 * The rule every element of a paragraph follows (and the label before it), from the properties;
 * an empty paragraph is one line high (Word gives it the line of its mark); Word's defaults where a
 * package has no styles part or its defaults name no font or size (ECMA-376 Part 1, 17.7.2: 10 pt,
 * Times New Roman in Word): on the page, below every rule of the document's own.
 */
export function baseRules(timesNatural: number): string {
  const line = 'var(--rl-exact, max(var(--rl-least, 0pt), calc(var(--rl-line, 1) * var(--rl-natural, 1.15) * 1em)))';
  return [
    `.docx-wrapper section.docx { font-family: "Times New Roman"; font-size: 10pt; --rl-natural: ${timesNatural}; }`,
    // The paragraph's own line (its strut) is none: a line is as tall as the runs on it, as in
    // Word; an empty paragraph is one line of its own font (Word's: its mark's), with its space
    // before and after (padding) on top of that line: a content-box minimum, where the app's (Tailwind's
    // preflight) border-box took the padding out of it and an empty paragraph lost its spacing.
    `.docx-wrapper .docx p { line-height: 0; min-height: ${line}; box-sizing: content-box; }`,
    `.docx-wrapper p *, .docx-wrapper p::before, .docx-wrapper p::marker { line-height: ${line}; }`,
    // Word drops the space before a paragraph that opens a page after a natural break (paginate.ts).
    '.docx-wrapper p.rl-page-top:not(.rl-bordered-top), .docx-wrapper p.rl-ctx-before:not(.rl-bordered-top) { padding-top: 0 !important; }',
    '.docx-wrapper p.rl-ctx-after:not(.rl-bordered-bottom) { padding-bottom: 0 !important; }',
    // A bordered side's spacing is a margin, outside the border (paragraph-borders.ts).
    '.docx-wrapper p.rl-page-top, .docx-wrapper p.rl-ctx-before { margin-top: 0 !important; }',
    '.docx-wrapper p.rl-ctx-after { margin-bottom: 0 !important; }',
  ].join('\n');
}

/** Run properties a paragraph's label and its empty line take from its style (the rest stay on the runs). */
const PARAGRAPH_FONT = ['font-family', 'font-size', 'font-weight', 'font-style', 'color', 'letter-spacing', '--rl-natural'];

interface StyleTarget {
  target?: string | null;
  values?: Record<string, string>;
}
interface StyleEntry {
  id?: string | null;
  isDefault?: boolean;
  target?: string | null;
  styles?: StyleTarget[];
}

/**
 * Rewrites docx-preview's parsed styles and model for Word's line spacing and answers the CSS
 * the rewritten model needs; `natural(family)` is a font's line height per em.
 */
export class ParagraphSpacing {
  private readonly classes = new Map<string, string>();
  private readonly naturalClasses = new Map<number, string>();
  private readonly done = new WeakSet<ModelNode>();
  /** The default paragraph style (w:default="1"): the style of a paragraph that names none. */
  private defaultStyle: string | null = null;

  /** `contextual`: the paragraph styles with contextual spacing (contextualStyles); `bordered`: their top and bottom border spaces (borderSpaces). */
  constructor(
    private readonly natural: (family: string | null) => number,
    private readonly theme: { minor?: string; major?: string },
    private readonly contextual: ReadonlySet<string> = new Set(),
    private readonly bordered: ReadonlyMap<string, BorderSpace> = new Map(),
  ) {}

  /**
   * Each style's spacing as properties, its font's natural line beside its font, and a paragraph
   * style's font on the paragraph itself too: the label before it (docx-preview's ::before) and
   * an empty paragraph's line take the paragraph's font, not the page's.
   */
  rewriteStyles(styles: readonly StyleEntry[]): void {
    for (const style of styles) {
      if (style.isDefault && style.target === 'p' && style.id) this.defaultStyle = style.id;
      for (const target of style.styles ?? []) {
        if (!target.values) continue;
        this.rewriteValues(target.values);
        if (target.target !== 'p') continue;
        const space = style.id ? this.bordered.get(style.id) : undefined;
        marginsToPadding(target.values, space ? spaceBorderedSides(target.values, space) : NO_SIDES);
      }
      if (style.target === 'p' || style.target == null) {
        const runs = style.styles?.find((s) => s.target === 'span')?.values;
        if (!runs) continue;
        let own = style.styles!.find((s) => s.target === 'p');
        if (!own) {
          own = { target: 'p', values: {} };
          style.styles!.push(own);
        }
        own.values ??= {};
        for (const key of PARAGRAPH_FONT) if (runs[key] !== undefined && own.values[key] === undefined) own.values[key] = runs[key];
      }
    }
  }

  /** A list level's paragraph properties (spacing) and its label's run properties (w:lvl/w:rPr: the label's font and its line). */
  rewriteNumbering(levels: readonly { pStyle?: Record<string, string>; rStyle?: Record<string, string> }[]): void {
    for (const level of levels) {
      if (level.pStyle) this.rewriteValues(level.pStyle);
      if (level.rStyle) this.rewriteValues(level.rStyle);
    }
  }

  /** Rewrites a part's paragraphs and runs (each part once). */
  rewriteTree(root: ModelNode): void {
    if (this.done.has(root)) return;
    this.done.add(root);
    const visit = (node: ModelNode) => {
      const css = node.cssStyle as Record<string, string> | undefined;
      if (css && node.type === 'paragraph') {
        const style = this.styleOf(node);
        const space = style ? this.bordered.get(style) : undefined;
        const sides = new Set<'top' | 'bottom'>();
        if (space?.top !== undefined) sides.add('top');
        if (space?.bottom !== undefined) sides.add('bottom');
        // The layout reads a bordered side's spacing from its margin (spacing-collapse.ts).
        for (const side of sides) addClass(node, `rl-bordered-${side}`);
        marginsToPadding(css, sides);
      }
      if (css) {
        const s = spacingOf(css['line-height']);
        if (s) {
          delete css['line-height'];
          if (s.exact !== undefined) delete css['min-height'];
          addClass(node, this.classFor(s));
        }
        const family = css['font-family'];
        if (family) addClass(node, this.naturalClass(this.natural(firstFamily(family, this.theme))));
      }
      const children = node.children ?? [];
      for (let i = 1; i < children.length; i++) {
        const [a, b] = [children[i - 1]!, children[i]!];
        const style = a.type === 'paragraph' && b.type === 'paragraph' ? this.styleOf(a) : null;
        if (style && style === this.styleOf(b) && this.contextual.has(style)) {
          addClass(a, 'rl-ctx-after');
          addClass(b, 'rl-ctx-before');
        }
      }
      for (const child of children) visit(child);
    };
    visit(root);
  }

  /** A paragraph's style: the one it names, else the default paragraph style. */
  private styleOf(node: ModelNode): string | null {
    return node.styleName ? String(node.styleName) : this.defaultStyle;
  }

  /** The rules of the classes given so far, and the base rules. */
  css(): string {
    const rules = [baseRules(this.natural('Times New Roman'))];
    for (const [cls, decl] of this.classes) rules.push(`.docx-wrapper p.${cls} { ${decl} }`);
    for (const [value, cls] of this.naturalClasses) rules.push(`.docx-wrapper .${cls} { --rl-natural: ${value}; }`);
    return rules.join('\n');
  }

  private rewriteValues(values: Record<string, string>): void {
    const s = spacingOf(values['line-height']);
    if (s) {
      delete values['line-height'];
      if (s.exact !== undefined) delete values['min-height'];
      Object.assign(values, spacingProperties(s));
    }
    if (values['font-family']) values['--rl-natural'] = String(this.natural(firstFamily(values['font-family'], this.theme)));
  }

  private classFor(s: Spacing): string {
    const cls = spacingClass(s);
    if (!this.classes.has(cls)) this.classes.set(cls, Object.entries(spacingProperties(s)).map(([k, v]) => `${k}: ${v};`).join(' '));
    return cls;
  }

  private naturalClass(value: number): string {
    let cls = this.naturalClasses.get(value);
    if (!cls) {
      cls = `rl-nat-${this.naturalClasses.size}`;
      this.naturalClasses.set(value, cls);
    }
    return cls;
  }
}

const NO_SIDES: ReadonlySet<'top' | 'bottom'> = new Set();

/**
 * Space before and after as padding (inside a border, on the sides `bordered` does not name: there
 * the border's space is the padding and the spacing stays a margin, outside it). Between two
 * paragraphs the layout then keeps the larger of the two (spacing-collapse.ts).
 */
function marginsToPadding(values: Record<string, string>, bordered: ReadonlySet<'top' | 'bottom'>): void {
  for (const side of ['top', 'bottom'] as const) {
    if (bordered.has(side)) continue;
    const v = values[`margin-${side}`];
    if (v === undefined) continue;
    delete values[`margin-${side}`];
    values[`padding-${side}`] = v;
  }
}

/** The paragraph styles whose w:pPr (or a style's they are based on) says w:contextualSpacing, from styles.xml. */
export function contextualStyles(stylesXml: string): string[] {
  const styles = paragraphStylesXml(stylesXml);
  const own = (style: ParagraphStyleXml): boolean | undefined => {
    const flag = /<w:contextualSpacing(?:\s+w:val="([^"]*)")?\s*\/>/.exec(style.pPr);
    return flag ? !['0', 'false', 'off'].includes(flag[1] ?? 'true') : undefined;
  };
  return [...styles.keys()].filter((id) => resolvedThroughBasedOn(styles, id, own) === true);
}

function addClass(node: ModelNode, cls: string): void {
  node.className = node.className ? `${node.className} ${cls}` : cls;
}
