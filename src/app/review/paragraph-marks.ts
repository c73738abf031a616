/** The render variant's marker of a paragraph-mark change: a highlighted "¶" (see src/docx/render/variant.ts). */
const PILCROW = '¶';

/** The class of an empty paragraph that shows only the pilcrow of its paragraph-mark change. */
export const MARK_ONLY = 'rl-mark-only';

/**
 * A paragraph whose only content is the pilcrow of its paragraph-mark change (an empty paragraph
 * inserted or deleted) is an empty line in Word, its pilcrow drawn on that line, where the mark
 * is: it keeps its line and its pilcrow here too (the pages break where Word breaks them) and is
 * classed, so that an empty list item shows no label (a number standing for nothing). Works on
 * docx-preview's output before it is in the page (no layout); answers how many were classed.
 */
export function markEmptyMarkParagraphs(root: HTMLElement): number {
  let marked = 0;
  for (const p of root.querySelectorAll('p')) {
    const text = p.textContent ?? '';
    if (!text.includes(PILCROW) || text.replaceAll(PILCROW, '').trim() !== '') continue;
    if (p.querySelector('img, svg, table, br')) continue;
    if (![...p.querySelectorAll('del, ins')].some((el) => el.textContent === PILCROW)) continue;
    p.classList.add(MARK_ONLY);
    marked++;
  }
  return marked;
}
