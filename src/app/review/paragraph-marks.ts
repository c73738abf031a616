import { changeBookmarkName } from '../../contract/bookmark';

/** The render variant's marker of a paragraph-mark change: a highlighted "¶" (see src/docx/render/variant.ts). */
const PILCROW = '¶';
const BOOKMARK_PREFIX = changeBookmarkName('');

function isBookmark(node: Node): node is HTMLElement {
  return node instanceof HTMLElement && node.tagName === 'SPAN' && node.id.startsWith(BOOKMARK_PREFIX) && node.textContent === '';
}

/**
 * A paragraph whose only content is the pilcrow of its paragraph-mark change would show as an
 * empty line (an empty numbered item, in a list). The mark belongs at the end of the paragraph
 * before it, as Word's pilcrow sits: move the marker and its bookmark there and fold the empty
 * paragraph away. Works on docx-preview's output before it is in the page (no layout).
 */
export function foldEmptyMarkParagraphs(root: HTMLElement): number {
  let folded = 0;
  for (const p of [...root.querySelectorAll('p')]) {
    const text = p.textContent ?? '';
    if (!text.includes(PILCROW) || text.replaceAll(PILCROW, '').trim() !== '') continue;
    if (p.querySelector('img, svg, table, br')) continue;
    const previous = p.previousElementSibling;
    if (!(previous instanceof HTMLElement) || previous.tagName !== 'P' || previous.classList.contains('rl-mark-only')) continue;
    const moved = [...p.querySelectorAll('del, ins, span')].filter(
      (el) => isBookmark(el) || ((el.tagName === 'DEL' || el.tagName === 'INS') && el.textContent === PILCROW),
    );
    if (moved.length === 0) continue;
    for (const el of moved) {
      // Its paragraph is folded away already: a decision has no paragraph of its own to join (decided-view.ts).
      if (isBookmark(el)) el.dataset.folded = 'true';
      previous.append(el);
    }
    p.classList.add('rl-mark-only');
    folded++;
  }
  return folded;
}
