/**
 * What the draft highlights for a change, so a jump never lands on nothing.
 *
 * A change of text is its inserted or deleted run. A change of structure is the structure:
 * a table's, row's or cell's property change (a row inserted or deleted is one) its table, row or
 * cell; a paragraph mark its paragraph, or the cell when the paragraph shows no text of its own
 * (an empty paragraph, the last mark of a cell). And whatever was chosen, if it shows nothing
 * (a run hidden in "No markup" or once decided, a paragraph folded away), the nearest
 * enclosing paragraph, cell, row or table that does.
 */
export type ChangeHolder = 'paragraph' | 'cell' | 'row' | 'table';

/** The structure a change (or an entry) of this kind is about (the interface's revision kinds); null: its text. */
export function holderOfKind(kind: string | null | undefined): ChangeHolder | null {
  switch (kind) {
    case 'paragraph_mark':
      return 'paragraph';
    case 'tc-prop-change':
      return 'cell';
    // An entry's kind for a row inserted or deleted with its cells' text (entries.ts) too.
    case 'tr-prop-change':
    case 'row-insert':
    case 'row-delete':
      return 'row';
    case 'tbl-prop-change':
      return 'table';
    default:
      return null;
  }
}

/** The render variant's marker glyphs (src/docx/render/variant.ts): not text of the draft. */
const MARKERS = /[¶✎⊕⊖⊞]/g;

const HOLDER_SELECTOR: Record<ChangeHolder, string> = { paragraph: 'p', cell: 'td, th', row: 'tr', table: 'table' };

/** What to highlight as the current change: `holder` from holderOfKind of its kind. */
export function highlightTarget(anchor: HTMLElement, holder: ChangeHolder | null): HTMLElement {
  const run = markAfter(anchor);
  // A marker alone (a glyph standing for a structure change) says less than its paragraph.
  const chosen = holder ? structureOf(anchor, holder) : run && !isMarkerOnly(run) ? run : holding(anchor);
  return visible(chosen) ? chosen : (visibleAncestor(chosen) ?? anchor);
}

/** What shows a change as decided before the draft is rendered again: its mark (marker glyphs too), else its paragraph. */
export function decidedTarget(anchor: HTMLElement): HTMLElement {
  return markAfter(anchor) ?? holding(anchor);
}

/** The inserted or deleted run (or proposal) right after the bookmark, if any. */
function markAfter(anchor: HTMLElement): HTMLElement | null {
  let next = anchor.nextElementSibling;
  while (next && next.tagName === 'SPAN' && next.id && next.textContent === '') next = next.nextElementSibling;
  return next instanceof HTMLElement && (next.tagName === 'INS' || next.tagName === 'DEL' || next.classList.contains('rl-proposal')) ? next : null;
}

function isMarkerOnly(mark: HTMLElement): boolean {
  return !mark.classList.contains('rl-proposal') && (mark.textContent ?? '').replace(MARKERS, '').trim() === '';
}

/** The paragraph (or cell) that holds the bookmark. */
function holding(anchor: HTMLElement): HTMLElement {
  return anchor.closest<HTMLElement>('p, td, th, li') ?? anchor;
}

function structureOf(anchor: HTMLElement, holder: ChangeHolder): HTMLElement {
  const found = anchor.closest<HTMLElement>(HOLDER_SELECTOR[holder]);
  if (!found) return anchor.closest<HTMLElement>('p, td, th') ?? anchor;
  if (holder === 'paragraph' && ownText(found) === '') return found.closest<HTMLElement>('td, th') ?? found;
  return found;
}

/** A paragraph's text without the markers (and, in "All markup", without what a marker stands for). */
function ownText(p: HTMLElement): string {
  return (p.textContent ?? '').replace(MARKERS, '').trim();
}

/** Whether the element shows on the page: rendered, with a box of some size. */
function visible(el: HTMLElement): boolean {
  if (typeof el.checkVisibility === 'function' && !el.checkVisibility()) return false;
  const box = el.getBoundingClientRect();
  return box.width > 2 && box.height > 2;
}

function visibleAncestor(el: HTMLElement): HTMLElement | null {
  for (let up = el.parentElement?.closest<HTMLElement>('p, td, th, tr, table'); up; up = up.parentElement?.closest<HTMLElement>('p, td, th, tr, table')) {
    if (visible(up)) return up;
  }
  return null;
}
