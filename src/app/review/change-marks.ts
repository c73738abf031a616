import { changeBookmarkName } from '../../contract/bookmark';

/**
 * Where a change shows in the rendered draft. The render variant puts one bookmark at a change's
 * start (an empty <span id="_rl_…">); what the change is follows it: its inserted and deleted runs
 * (<ins>/<del>, docx-preview's rendering of w:ins/w:del, moves included), or for a change
 * docx-preview cannot show a marker glyph in a <del> ("¶" a paragraph mark, "⊕"/"⊖" a row or
 * cell inserted or deleted, "✎" formatting, "⊞" merged cells). A change's marks are the runs from
 * its bookmark up to the next change's bookmark or the first text of the draft that is neither
 * inserted nor deleted, across paragraphs (a change may span several) but never out of its
 * table cell or into a table.
 */

/** The render variant's marker glyphs (src/docx/render/variant.ts): not text of the draft. */
export const MARKER_GLYPHS = /[¶✎⊕⊖⊞]/g;

const CHANGE_BOOKMARK_PREFIX = changeBookmarkName('');

/** A change's bookmark (its own or a move's other half), not a mark's description (MARK_PREFIX) or the document's own. */
function isChangeBookmark(el: Element): boolean {
  return el.tagName === 'SPAN' && el.id.startsWith(CHANGE_BOOKMARK_PREFIX) && el.textContent === '';
}

function isMark(el: Element): el is HTMLElement {
  return el instanceof HTMLElement && (el.tagName === 'INS' || el.tagName === 'DEL');
}

/** A mark that is only a marker glyph (it stands for a structure change; it is no text of the draft). */
export function isMarkerOnly(mark: HTMLElement): boolean {
  return !mark.classList.contains('rl-proposal') && (mark.textContent ?? '').replace(MARKER_GLYPHS, '').trim() === '';
}

/** The glyph of a marker-only mark ("⊕", "⊖", "¶"…), else null. */
export function markerGlyph(mark: HTMLElement): string | null {
  if (!isMarkerOnly(mark)) return null;
  return (mark.textContent ?? '').trim().charAt(0) || null;
}

/** Far more than any change has: a walk that finds no end stops here. */
const MAX_MARKS = 2000;

/** The marks of the change whose bookmark is `anchor`, in document order (see above). */
export function marksOf(anchor: HTMLElement): HTMLElement[] {
  const root = anchor.ownerDocument.body;
  const cell = anchor.closest('td, th');
  const walker = anchor.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  walker.currentNode = anchor;
  const marks: HTMLElement[] = [];
  let node: Node | null = nextSkipping(walker, anchor);
  while (node && marks.length < MAX_MARKS) {
    if (node instanceof Text) {
      if ((node.textContent ?? '').trim() !== '') break;
      node = walker.nextNode();
      continue;
    }
    const el = node as Element;
    if (isChangeBookmark(el)) break;
    if (el.tagName === 'TABLE' || el.closest('td, th') !== cell) break;
    if (isMark(el)) {
      marks.push(el);
      node = nextSkipping(walker, el);
      continue;
    }
    // A proposal's outline wraps its runs, a formatting change's description marks its run (layout/marks.ts).
    if (el instanceof HTMLElement && (el.classList.contains('rl-proposal') || el.classList.contains('rl-formatted'))) {
      marks.push(el);
      node = nextSkipping(walker, el);
      continue;
    }
    node = walker.nextNode();
  }
  return marks;
}

/** The node after `el` and everything inside it. */
function nextSkipping(walker: TreeWalker, el: Node): Node | null {
  walker.currentNode = el;
  const sibling = walker.nextSibling();
  if (sibling) return sibling;
  for (let up = el.parentNode; up; up = up.parentNode) {
    walker.currentNode = up;
    const next = walker.nextSibling();
    if (next) return next;
    if (up === walker.root) return null;
  }
  return null;
}
