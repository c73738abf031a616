import { OLDER_PARAGRAPH_PREFIX, REDLINE_PARAGRAPH_PREFIX } from '../../../contract/side-by-side';

/**
 * Finding paragraphs in the two rendered views by the bookmarks the service put at each one's
 * start (contract/side-by-side.ts): docx-preview renders each as an empty <span id>.
 */
export type Side = 'older' | 'redline';

const PREFIX: Record<Side, string> = { older: OLDER_PARAGRAPH_PREFIX, redline: REDLINE_PARAGRAPH_PREFIX };

/** The bookmark of paragraph `index` on `side`, inside `container` (getElementById: O(1) on a long draft). */
export function paragraphMark(container: HTMLElement, side: Side, index: number): HTMLElement | null {
  const el = document.getElementById(`${PREFIX[side]}${index}`);
  return el && container.contains(el) ? el : null;
}

/**
 * The redline paragraph an element is in: the last paragraph bookmark at or before it in document
 * order (a paragraph the page layout split over two pages carries its bookmark on the first).
 */
export function redlineParagraphOf(container: HTMLElement, el: Element): number | null {
  const marks = [...container.querySelectorAll<HTMLElement>(`span[id^="${REDLINE_PARAGRAPH_PREFIX}"]`)];
  let found: number | null = null;
  for (let lo = 0, hi = marks.length - 1; lo <= hi; ) {
    const mid = (lo + hi) >> 1;
    const mark = marks[mid]!;
    if (mark === el || (mark.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0) {
      found = Number(mark.id.slice(REDLINE_PARAGRAPH_PREFIX.length));
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The element to mark for an older paragraph: the paragraph its bookmark starts. */
export function olderParagraphElement(container: HTMLElement, index: number): HTMLElement | null {
  const mark = paragraphMark(container, 'older', index);
  return mark?.closest<HTMLElement>('p') ?? mark;
}
