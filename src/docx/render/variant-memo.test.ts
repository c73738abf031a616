/**
 * The render variant written incrementally (variant-memo.ts: the body's blocks no batch touched
 * copied from the last variant) is byte for byte the variant written afresh, after every batch
 * of random decisions, on generated drafts combining the hard constructs and on every corpus file.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateFixture } from '../../../test/conformance/decision-fixtures';
import { commentsPart, ins, minimalDocx, partsOf, r } from '../../../test/support/docx-files';
import { buildDemoContract } from '../fixture';
import { Prng } from '../fixture/prng';
import { ingestDocx, openDocx } from '../index';
import { corpusFileNames, lacksShared, readCorpusFile } from '../../../test/support/shared-corpus';

const HAS_CORPUS = !lacksShared('the render variant memo on the corpus', 'files');

/** Random batches on one open draft; after each, the incremental variant against a fresh write of it. */
function expectIncrementalIsFull(bytes: Uint8Array, seed: number, batches: number): void {
  const rng = new Prng(seed);
  const doc = openDocx(bytes);
  expect(partsOf(doc.renderVariant())).toEqual(partsOf(doc.renderVariant({ reuse: false })));
  for (let b = 0; b < batches; b++) {
    const ids = doc.changeIds().filter(() => rng.next() < 0.3);
    if (!ids.length) break;
    const accept = ids.filter(() => rng.next() < 0.5);
    doc.apply({ accept, reject: ids.filter((id) => !accept.includes(id)) });
    const incremental = partsOf(doc.renderVariant());
    expect(incremental, `seed ${seed}, batch ${b + 1}`).toEqual(partsOf(doc.renderVariant({ reuse: false })));
  }
  // And what a fresh open of the result writes.
  expect(partsOf(doc.renderVariant())).toEqual(partsOf(openDocx(doc.toBytes()).renderVariant()));
}

describe('the incremental render variant', () => {
  it('is the full variant after every batch, on generated drafts', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (fixtureSeed, planSeed) => {
        expectIncrementalIsFull(ingestDocx(generateFixture(fixtureSeed).bytes).bytes, planSeed, 4);
      }),
      { seed: 2204, numRuns: 120 },
    );
  }, 120_000);

  it('writes again a block that did not change when what the variant lays in it did', () => {
    // Rejecting the insertion takes the first comment's range with it: the second comment's
    // marks, in a paragraph the batch did not touch, get other ids.
    const docx = minimalDocx(
      `<w:p>${r('A ')}${ins(1, `<w:commentRangeStart w:id="1"/>${r('new')}<w:commentRangeEnd w:id="1"/>`)}</w:p>` +
        `<w:p>${r('B ')}<w:commentRangeStart w:id="2"/>${r('kept')}<w:commentRangeEnd w:id="2"/><w:r><w:commentReference w:id="2"/></w:r></w:p>`,
      { 'word/comments.xml': commentsPart({ 1: 'One.', 2: 'Two.' }) },
    );
    const doc = openDocx(docx);
    const before = partsOf(doc.renderVariant()).get('word/document.xml')!;
    doc.apply({ accept: [], reject: ['c1'] });
    const after = partsOf(doc.renderVariant()).get('word/document.xml')!;
    expect(after).toBe(partsOf(doc.renderVariant({ reuse: false })).get('word/document.xml'));
    expect(after.slice(after.indexOf('B '))).not.toBe(before.slice(before.indexOf('B ')));
  });

  it('is the full variant after every batch, on the demo contract', () => {
    expectIncrementalIsFull(buildDemoContract(), 7, 6);
  });

  const files = corpusFileNames();
  it.skipIf(!HAS_CORPUS)(`is the full variant after every batch, on every corpus file (${files.length})`, () => {
    for (const [i, file] of files.entries()) {
      let bytes: Uint8Array;
      try {
        bytes = ingestDocx(readCorpusFile(file)).bytes;
      } catch {
        continue; // refused at upload
      }
      expectIncrementalIsFull(bytes, i + 1, 3);
    }
  }, 180_000);
});
