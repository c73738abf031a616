import { MARK_PREFIX } from '../../../contract/bookmark';

/** What follows a mark's prefix: "<serial>_<rest>". */
const restOf = (id: string, prefix: string) => id.slice(prefix.length).replace(/^\d+_/, '');

/**
 * Shows each mark for what it is, from the bookmarks the render variant puts before it
 * (contract/bookmark.ts MARK_PREFIX): a formatting change on the words it changed (a distinct
 * underline and "Formatted: Bold, not Italic"), on its paragraph or its table; both halves of a
 * move in green, labelled "Moved"; a proposal outlined and labelled. Labels are CSS (attr), so
 * the text of the draft stays the text of the draft. Runs on docx-preview's output before layout.
 */
export function showMarks(root: HTMLElement): void {
  const movesLabelled = new Set<string>();
  for (const span of root.querySelectorAll<HTMLElement>('span[id^="_rl"]')) {
    const id = span.id;
    if (id.startsWith(MARK_PREFIX.run)) {
      const run = span.nextElementSibling;
      if (run instanceof HTMLElement) describe(run, 'rl-formatted', decodeURIComponent(restOf(id, MARK_PREFIX.run)));
    } else if (id.startsWith(MARK_PREFIX.paragraph)) {
      const p = span.closest('p');
      if (p) describe(p, 'rl-para-formatted', decodeURIComponent(restOf(id, MARK_PREFIX.paragraph)));
    } else if (id.startsWith(MARK_PREFIX.table)) {
      const table = span.closest('table');
      if (table) describe(table, 'rl-table-formatted', decodeURIComponent(restOf(id, MARK_PREFIX.table)));
    } else if (id.startsWith(MARK_PREFIX.moveFrom) || id.startsWith(MARK_PREFIX.moveTo)) {
      const from = id.startsWith(MARK_PREFIX.moveFrom);
      const half = span.nextElementSibling;
      if (!(half instanceof HTMLElement) || (half.tagName !== 'DEL' && half.tagName !== 'INS')) continue;
      half.classList.add(from ? 'rl-moved-from' : 'rl-moved-to');
      half.title = from ? 'Moved from here' : 'Moved here';
      // One label for each half of a move, on its first piece.
      const key = `${from ? 'f' : 't'}${restOf(id, from ? MARK_PREFIX.moveFrom : MARK_PREFIX.moveTo)}`;
      if (!movesLabelled.has(key)) {
        movesLabelled.add(key);
        half.dataset.label = 'Moved';
      }
    } else if (id.startsWith(MARK_PREFIX.proposalStart)) {
      // In this render only: while a new render is built off-screen the one on screen holds the same ids.
      const endId = MARK_PREFIX.proposalEnd + id.slice(MARK_PREFIX.proposalStart.length);
      const byId = document.getElementById(endId);
      const end = byId && root.contains(byId) ? byId : root.querySelector<HTMLElement>(`#${CSS.escape(endId)}`);
      outlineProposal(span, end);
    }
  }
}

function describe(el: HTMLElement, cls: string, text: string): void {
  el.classList.add(cls);
  el.title = el.title ? `${el.title}; ${text}` : text;
  el.dataset.formatted = text;
}

/** Inline: the proposal's runs wrapped in one outlined span; across paragraphs: each paragraph outlined. */
function outlineProposal(start: HTMLElement, end: HTMLElement | null): void {
  if (end && end.parentElement === start.parentElement) {
    const box = document.createElement('span');
    box.className = 'rl-proposal';
    box.dataset.label = 'Proposed';
    const nodes: Node[] = [];
    for (let n = start.nextSibling; n && n !== end; n = n.nextSibling) nodes.push(n);
    start.after(box);
    box.append(...nodes);
    return;
  }
  const first = start.closest('p');
  if (!first) return;
  const endParagraph = end?.closest('p');
  // Outline through the end's paragraph when it follows among the same siblings; otherwise (no end
  // found, or it lies in another cell or story) the first paragraph alone, never everything after it.
  let last: Element = first;
  if (endParagraph && endParagraph.parentElement === first.parentElement) {
    for (let el = first.nextElementSibling; el; el = el.nextElementSibling) {
      if (el === endParagraph) {
        last = el;
        break;
      }
    }
  }
  first.dataset.label = 'Proposed';
  for (let el: Element | null = first; el; el = el.nextElementSibling) {
    el.classList.add('rl-proposal-block');
    if (el === last) break;
  }
}
