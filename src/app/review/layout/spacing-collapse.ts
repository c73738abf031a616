/**
 * The space between two paragraphs, as Word sets it: the larger of the first one's space after
 * and the second one's space before, not their sum (LibreOffice sets Word's documents so, and
 * Word's recorded page breaks agree: summed, a page of the docx4j sample ran a line short).
 * paragraph-spacing.ts writes both as padding (inside a border, where Word draws them), which adds
 * up; so a paragraph right after another keeps only what its space before exceeds the space after
 * above it. Contextual spacing has already set both to zero where it applies.
 */

/** The space before a paragraph keeps below one whose space after is `previousAfter` (px). */
export function collapsedBefore(before: number, previousAfter: number): number {
  return Math.max(0, before - previousAfter);
}

const px = (v: string) => {
  const n = parseFloat(v);
  return Number.isFinite(n) ? n : 0;
};

/** The block a batch follows: whether it is a paragraph, and its space after (px). */
export interface BlockEnd {
  paragraph: boolean;
  after: number;
}

/**
 * Collapses the spacing of each paragraph among `blocks` (a batch of a page flow's blocks, joined
 * to the document) and of the paragraphs in their table cells with the paragraph before it;
 * `previous` is how the block before the batch ended. Reads every padding first, then writes, so
 * the batch costs one style computation and no layout of its own. A paragraph is collapsed once (a layout run again leaves
 * it). Answers how the batch's last shown block ends, for the next batch.
 */
export function collapseParagraphSpacing(blocks: readonly HTMLElement[], previous: BlockEnd | null): BlockEnd | null {
  const reads: { p: HTMLElement; before: number; after: number }[] = [];
  // On a bordered side the spacing is the margin, outside the border (paragraph-borders.ts).
  const afterOf = (el: HTMLElement) => px(el.classList.contains('rl-bordered-bottom') ? getComputedStyle(el).marginBottom : getComputedStyle(el).paddingBottom);
  const beforeOf = (el: HTMLElement) => px(el.classList.contains('rl-bordered-top') ? getComputedStyle(el).marginTop : getComputedStyle(el).paddingTop);
  // Hidden (display: none) blocks are skipped: read from the style alone, which forces no layout before the batch is measured.
  const hidden = (el: HTMLElement) => getComputedStyle(el).display === 'none';
  let above = previous;
  for (const block of blocks) {
    if (hidden(block)) continue;
    const paragraph = block.tagName === 'P';
    if (paragraph && above?.paragraph && above.after > 0 && block.dataset.rlCollapsed === undefined) reads.push({ p: block, before: beforeOf(block), after: above.after });
    if (block.tagName === 'TABLE') {
      for (const cell of block.querySelectorAll<HTMLElement>('td')) {
        if (cell.closest('table') !== block) continue;
        let inCell: HTMLElement | null = null;
        for (const child of cell.children) {
          if (!(child instanceof HTMLElement) || hidden(child)) continue;
          if (child.tagName === 'P' && inCell?.tagName === 'P' && child.dataset.rlCollapsed === undefined) reads.push({ p: child, before: beforeOf(child), after: afterOf(inCell) });
          inCell = child;
        }
      }
    }
    above = { paragraph, after: paragraph ? afterOf(block) : 0 };
  }
  for (const { p, before, after } of reads) {
    p.dataset.rlCollapsed = '';
    if (after > 0 && before > 0) p.style[p.classList.contains('rl-bordered-top') ? 'marginTop' : 'paddingTop'] = `${collapsedBefore(before, after)}px`;
  }
  return above;
}
