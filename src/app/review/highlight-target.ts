import { isMarkerOnly, MARKER_GLYPHS, marksOf } from './change-marks';

/**
 * What the draft highlights for a change, so a jump never lands on nothing.
 *
 * A change of text is its inserted or deleted run. A change of structure is the structure:
 * a table's, row's or cell's property change (a row inserted or deleted is one) its table, row or
 * cell; a paragraph mark its paragraph, or the cell when the paragraph shows no text of its own
 * (an empty paragraph, the last mark of a cell). And whatever was chosen, if it shows nothing
 * (a run hidden in "No markup" or once decided), the nearest
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

const HOLDER_SELECTOR: Record<ChangeHolder, string> = { paragraph: 'p', cell: 'td, th', row: 'tr', table: 'table' };

/** What to highlight as the current change: `holder` from holderOfKind of its kind. */
export function highlightTarget(anchor: HTMLElement, holder: ChangeHolder | null): HTMLElement {
  const run = markAfter(anchor);
  // A marker alone (a glyph standing for a structure change) says less than its paragraph.
  const chosen = holder ? structureOf(anchor, holder) : run && !isMarkerOnly(run) ? run : holding(anchor);
  return visible(chosen) ? chosen : (visibleAncestor(chosen) ?? anchor);
}

/** The inserted or deleted run (or proposal) right after the bookmark, if any. */
function markAfter(anchor: HTMLElement): HTMLElement | null {
  let next = anchor.nextElementSibling;
  while (next && next.tagName === 'SPAN' && next.id && next.textContent === '') next = next.nextElementSibling;
  return next instanceof HTMLElement && (next.tagName === 'INS' || next.tagName === 'DEL' || next.classList.contains('rl-proposal')) ? next : null;
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
  return (p.textContent ?? '').replace(MARKER_GLYPHS, '').trim();
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

/** A change of an entry: its id and kind (the interface's revision kinds). */
export interface EntryMember {
  id: string;
  kind: string | null | undefined;
}

/** Finds a change's bookmark in the rendered draft: its own, or with `moveOtherHalfBookmarkName` a move's other half. */
export type FindAnchor = (changeId: string, otherHalf?: boolean) => HTMLElement | null;

/**
 * What the draft highlights for an entry: every member's marks and the structure it is about (the
 * rows of a row inserted, both halves of a replacement, a paragraph mark's pilcrow), at both
 * places of a move. `here` is in document order, so its first element is where the entry starts;
 * `elsewhere` is a move's other place. A lone change keeps its own target (highlightTarget: a
 * paragraph mark its paragraph) with the rest of its marks.
 */
export function entryHighlight(members: readonly EntryMember[], find: FindAnchor): { anchor: HTMLElement | null; here: HTMLElement[]; elsewhere: HTMLElement[] } {
  const here: HTMLElement[] = [];
  const elsewhere: HTMLElement[] = [];
  let anchor: HTMLElement | null = null;
  for (const member of members) {
    const own = find(member.id);
    if (own) {
      anchor ??= own;
      here.push(...memberTargets(own, member.kind, members.length === 1));
    }
    const other = find(member.id, true);
    if (other) elsewhere.push(...memberTargets(other, member.kind, members.length === 1));
  }
  return { anchor, here: outermost(here), elsewhere: outermost(elsewhere) };
}

function memberTargets(anchor: HTMLElement, kind: string | null | undefined, alone: boolean): HTMLElement[] {
  const holder = holderOfKind(kind);
  const marks = marksOf(anchor).filter(visible);
  if (alone) return [highlightTarget(anchor, holder), ...marks];
  // In an entry of several, a paragraph mark is its pilcrow: its paragraph's text is another change's, or no change's.
  const structure = holder && holder !== 'paragraph' ? structureOf(anchor, holder) : null;
  const shown = [...(structure && visible(structure) ? [structure] : []), ...marks];
  return shown.length > 0 ? shown : [highlightTarget(anchor, holder)];
}

/** The elements none of the others contains, in document order, each once. */
function outermost(elements: readonly HTMLElement[]): HTMLElement[] {
  const unique = [...new Set(elements)];
  return unique
    .filter((el) => !unique.some((other) => other !== el && other.contains(el)))
    .sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
}
