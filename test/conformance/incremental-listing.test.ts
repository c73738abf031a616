/**
 * The revisions' listing after a batch takes over what it read of untouched changes from the
 * listing before (revisions/listing-memo.ts); it must equal the listing of the same content read
 * afresh. Seeded random batches, each listed on the document kept open across them and on a
 * fresh parse of its bytes: on generated documents combining the hard constructs (moves across
 * blocks and content controls, rows, cells, marks, nested changes), on the 100-page bench
 * draft, and on every corpus file.
 */
import { describe, expect, it } from 'vitest';
import { buildBenchmarkContract } from '../../src/docx/fixture';
import { Prng } from '../../src/docx/fixture/prng';
import { ingestDocx, openDocx } from '../../src/docx/index';
import { minimalDocx } from '../support/docx-files';
import { generateFixture } from './decision-fixtures';
import { corpusFileNames, lacksShared, readCorpusFile } from '../support/shared-corpus';

const HAS_CORPUS = !lacksShared('incremental listing on the corpus', 'files');

/**
 * Decides random changes of `bytes` in random batches on one open document (listed before the
 * first, so every later listing has something to take over) and answers, after each batch, the
 * listing kept against the listing afresh.
 */
function compareListings(bytes: Uint8Array, seed: number, batches: number, perBatch: number): { kept: unknown; fresh: unknown; batch: number }[] {
  const rng = new Prng(seed);
  const doc = openDocx(bytes);
  doc.revisions();
  const seen: { kept: unknown; fresh: unknown; batch: number }[] = [];
  for (let b = 1; b <= batches; b++) {
    const ids = doc.changeIds();
    if (ids.length === 0) break;
    const picked = ids.filter(() => rng.next() < perBatch / ids.length);
    const chosen = picked.length ? picked : [ids[Math.floor(rng.next() * ids.length)]!];
    const accept = chosen.filter(() => rng.next() < 0.5);
    doc.apply({ accept, reject: chosen.filter((id) => !accept.includes(id)) });
    seen.push({ kept: doc.revisions(), fresh: openDocx(doc.toBytes()).revisions(), batch: b });
  }
  return seen;
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const A = 'w:author="Ann" w:date="2025-01-01T00:00:00Z"';
const NUMBERING = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:numbering ${W}><w:abstractNum w:abstractNumId="0">` +
  '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/><w:lvlJc w:val="left"/></w:lvl></w:abstractNum>' +
  '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>';
const numbered = (text: string, extra = '') => `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>${extra}</w:pPr><w:r><w:t>${text}</w:t></w:r></w:p>`;

describe('the listing kept across batches equals the listing afresh', () => {
  it('when a decision renumbers the clauses after it', () => {
    // Clause 2 was numbered by a tracked change; rejecting it makes the insertion in the last clause "3." instead of "4.".
    const body = numbered('One') + numbered('Two', `<w:pPrChange w:id="1" ${A}><w:pPr/></w:pPrChange>`) + numbered('Three') +
      `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>Four </w:t></w:r><w:ins w:id="2" ${A}><w:r><w:t>more</w:t></w:r></w:ins></w:p><w:p/>`;
    const doc = openDocx(minimalDocx(body, { 'word/numbering.xml': NUMBERING }));
    expect(doc.revisions().find((r) => r.change_id === 'c2')?.clause).toBe('4.');
    doc.apply({ accept: [], reject: ['c1'] });
    expect(doc.revisions().find((r) => r.change_id === 'c2')?.clause).toBe('3.');
  });

  it('on generated documents', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const bytes = ingestDocx(generateFixture(seed).bytes).bytes;
      for (const { kept, fresh, batch } of compareListings(bytes, seed * 7919, 4, 3)) expect(kept, `fixture ${seed}, batch ${batch}`).toEqual(fresh);
    }
  }, 120_000);

  it('on the 100-page bench draft, 50 decisions a batch', () => {
    const bytes = buildBenchmarkContract({ pages: 100, revisions: 1000 });
    for (const { kept, fresh, batch } of compareListings(bytes, 22, 4, 50)) expect(kept, `batch ${batch}`).toEqual(fresh);
  }, 120_000);

  const files = corpusFileNames();
  it.skipIf(!HAS_CORPUS)(`on every corpus file (${files.length})${HAS_CORPUS ? '' : ': skipped, the shared corpus is absent'}`, () => {
    let compared = 0;
    for (const [i, file] of files.entries()) {
      let bytes: Uint8Array;
      try {
        bytes = ingestDocx(readCorpusFile(file)).bytes;
      } catch {
        continue; // refused at upload (the conformance test covers which and why)
      }
      for (const { kept, fresh, batch } of compareListings(bytes, 1000 + i, 3, 4)) {
        expect(kept, `${file}, batch ${batch}`).toEqual(fresh);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(0);
  }, 180_000);
});
