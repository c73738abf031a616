/**
 * The side-by-side paragraph mapping (issue 34.5) on the shared corpus (skipped with a message
 * when absent), on two kinds of real drafts: the tracked-change files as they are, and the
 * comparison of each file's reject-all with its accept-all. See test/support/paragraph-mapping.ts.
 */
import { describe, expect, it } from 'vitest';
import { compareDocx, ingestDocx } from '../../src/docx/index';
import { decideAll } from '../support/compare-contract';
import { checkMapping } from '../support/paragraph-mapping';
import { corpusFileNames, lacksShared, readCorpusFile } from '../support/shared-corpus';

const HAS_FILES = !lacksShared('the side-by-side mapping on the shared corpus', 'files');

describe.skipIf(!HAS_FILES)('side by side on the corpus', () => {
  it('every file with tracked changes, and its reject-all compared with its accept-all', () => {
    let drafts = 0;
    let paragraphs = 0;
    let inserted = 0;
    for (const file of corpusFileNames()) {
      let bytes: Uint8Array;
      try {
        bytes = ingestDocx(readCorpusFile(file)).bytes;
      } catch {
        continue; // refused at upload: the conformance test says which and why
      }
      const comparison = compareDocx(decideAll(bytes, 'reject'), decideAll(bytes, 'accept'), { date: '2025-06-01T00:00:00Z' });
      for (const [what, draft] of [['as it is', bytes], ['compared', comparison.bytes]] as const) {
        try {
          const seen = checkMapping(draft);
          drafts++;
          paragraphs += seen.paragraphs;
          inserted += seen.inserted;
        } catch (error) {
          throw new Error(`${file} (${what}): ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    }
    console.log(`side by side: ${drafts} drafts, ${paragraphs} redline paragraphs, ${inserted} inserted`);
    expect(drafts).toBeGreaterThan(40);
  }, 300_000);
});
