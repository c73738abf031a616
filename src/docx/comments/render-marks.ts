import { commentRangeBookmarks } from '../../contract/comments';
import type { PartScan } from '../revisions/sites';
import type { XmlOverlay } from '../xml/overlay';
import { XmlElement } from '../xml/tree';

/** Bookmark ids of the comment marks: far above any a document uses, so they never meet the change bookmarks. */
const FIRST_ID = 900_000_000;

/**
 * Adds to the render variant a bookmark at each comment range's start and one at its end (see
 * commentRangeBookmarks), so the app can highlight a comment's range in the rendered draft.
 */
export function addCommentRangeMarks(overlay: XmlOverlay, scans: readonly PartScan[]): void {
  let next = FIRST_ID;
  const mark = (name: string): XmlElement[] => {
    const id = String(next++);
    return [XmlElement.create('w:bookmarkStart', { 'w:id': id, 'w:name': name }), XmlElement.create('w:bookmarkEnd', { 'w:id': id })];
  };
  for (const scan of scans) {
    for (const el of scan.ranges) {
      const id = el.attr('w:id');
      if (id === null || !inParagraph(el)) continue;
      if (el.name === 'w:commentRangeStart') overlay.insertAfter(el, mark(commentRangeBookmarks(id).start));
      else if (el.name === 'w:commentRangeEnd') overlay.insertBefore(el, mark(commentRangeBookmarks(id).end));
    }
  }
}

/** docx-preview shows bookmarks only inside paragraphs; a marker between blocks gets none. */
function inParagraph(el: XmlElement): boolean {
  for (let p = el.parent; p; p = p.parent) if (p.name === 'w:p') return true;
  return false;
}
