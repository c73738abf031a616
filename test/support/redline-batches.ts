import type { Block, ParagraphBlock } from '../../src/contract/reading';
import type { RedlineEdit } from '../../src/contract/review';

/** The body paragraphs of a page of blocks that carry no tracked change and at least 40 characters: what a batch of edits can anchor on plainly. */
export function plainBodyParagraphs(blocks: readonly Block[]): ParagraphBlock[] {
  return blocks.flatMap((b) => (b.type === 'paragraph' && b.story === 'body' && !b.changes?.length && b.text.length >= 40 ? [b] : []));
}

/** `count` anchored replace edits on paragraphs spread evenly through `paragraphs`: twenty characters of each, replaced. */
export function spreadReplaceEdits(paragraphs: readonly ParagraphBlock[], count: number): RedlineEdit[] {
  return Array.from({ length: count }, (_, i) => {
    const p = paragraphs[Math.floor((i * paragraphs.length) / count)]!;
    const find = p.text.slice(10, 30);
    const occurrences = p.text.split(find).length - 1;
    return { op: 'replace', blockId: p.id, blockVersion: p.version, find, ...(occurrences > 1 ? { occurrence: 1 } : {}), text: 'the amended words', justification: `Batch edit ${i + 1}.` };
  });
}
