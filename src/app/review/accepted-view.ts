import { MARK_PREFIX } from '../../contract/bookmark';

/**
 * "No markup" shows the draft as accepting every change would give it. docx-preview, asked not
 * to render changes, leaves out deleted text but keeps the structures a deletion empties: a
 * paragraph whose text and mark were deleted stays as an empty line (an empty "5." in a list),
 * a deleted row as an empty row. The render variant marks both (MARK_PREFIX.markGone at the end
 * of a paragraph whose mark is deleted, MARK_PREFIX.rowGone in a deleted row's first paragraph);
 * here a paragraph whose mark goes joins the paragraph after it, whose mark (and so whose
 * numbering and spacing) remains, and a deleted row is hidden. Works on docx-preview's output
 * before it is laid out in pages; answers how many paragraphs joined and rows went.
 */
export function showAsAccepted(root: HTMLElement): { joined: number; rows: number } {
  let rows = 0;
  for (const mark of root.querySelectorAll<HTMLElement>(`span[id^="${MARK_PREFIX.rowGone}"]`)) {
    const row = mark.closest('tr');
    if (row && !row.classList.contains('rl-gone')) {
      row.classList.add('rl-gone');
      rows++;
    }
  }
  let joined = 0;
  // In document order, so a run of joins ends in the last paragraph, holding all their text.
  for (const mark of root.querySelectorAll<HTMLElement>(`span[id^="${MARK_PREFIX.markGone}"]`)) {
    const p = mark.closest('p');
    const next = p?.nextElementSibling;
    // The last paragraph of a cell or of the document keeps its mark; a paragraph does not join a table.
    if (!p || !(next instanceof HTMLElement) || next.tagName !== 'P') continue;
    next.prepend(...p.childNodes);
    p.classList.add('rl-gone');
    joined++;
  }
  return { joined, rows };
}
