/**
 * What the engine writes, checked as Word reads it (issue 22.1-2), over the shared corpus
 * (the shared corpus; skipped with a message when absent): every corpus file's accept-all,
 * reject-all, render variant and seeded selective decisions in three batches (each batch's draft),
 * redline edits and comments as the service writes them, its reject-all compared with its
 * accept-all and the untracked check against itself; and every comparison pair in both orders, and
 * with older marked by PowerTools (the held-out pair of issue 22.1).
 * - Property: every XML part of every output parses with a namespace-aware parser
 *   (namespaces.ts: every prefix declared where it is used, mc:Ignorable's included).
 * - Property: no output has a schema error that none of its inputs had, by the shared
 *   `ooxml-validate.py --new` (markup compatibility, then the ECMA-376 schemas through xmllint),
 *   run over all outputs at once (schema-check.ts); skipped with a message without python3/xmllint.
 * CI runs seeds SEEDS; `npm run bench:validity -- --seeds N` runs the same over more.
 */
import { readFileSync } from 'node:fs';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { namespaceProblems } from './namespaces';
import { SchemaBatch, schemaCheckMissing } from './schema-check';
import { answerOutputs, decisionOutputs, markedPairOutputs, pairOutputs, selfComparisonOutputs, sharedCorpus, type WrittenOutput } from './written-outputs';
import { CORPUS_DIR, lacksShared } from '../support/shared-corpus';

const corpus = lacksShared('written-parts tests', 'files', 'compare/PAIRS.tsv') ? null : sharedCorpus(CORPUS_DIR);
const SEEDS = [1, 2];
const missing = corpus ? schemaCheckMissing(corpus.tool) : null;
if (missing) console.log(`schema property skipped: ${missing}`);

describe.skipIf(!corpus)('what the engine writes, on the shared corpus', () => {
  const batch = new SchemaBatch(corpus?.tool ?? '');
  const counts = { files: 0, pairs: 0 };

  /** Checks each output's namespaces now and queues it for the schema check. */
  const check = (outputs: Iterable<WrittenOutput>) => {
    const problems: string[] = [];
    for (const o of outputs) {
      for (const p of namespaceProblems(o.output)) problems.push(`${o.label}: ${p}`);
      if (!missing) batch.add(o.label, o.output, o.inputs);
    }
    return problems;
  };

  it('decisions: accept-all, reject-all, render variant, selective decisions in batches', () => {
    const problems: string[] = [];
    for (const f of corpus!.files) {
      problems.push(...check(decisionOutputs(f, SEEDS)));
      counts.files++;
    }
    expect(problems).toEqual([]);
  }, 300_000);

  it('redline edits and comments', () => {
    expect(corpus!.files.flatMap((f) => check(answerOutputs(f)))).toEqual([]);
  }, 300_000);

  it("comparisons: each file's reject-all against its accept-all, and the untracked check against itself", () => {
    expect(corpus!.files.flatMap((f) => check(selfComparisonOutputs(f)))).toEqual([]);
  }, 300_000);

  it("comparison pairs, both orders, and with older marked by PowerTools (pt14:Unid, a namespace newer lacks)", () => {
    const problems = corpus!.pairs.flatMap((p) => [...check(pairOutputs(p)), ...check(markedPairOutputs(p))]);
    counts.pairs = corpus!.pairs.length;
    expect(problems).toEqual([]);
  }, 300_000);

  it.skipIf(missing !== null)('no output adds a schema error its inputs did not have (ooxml-validate.py --new)', () => {
    // A control the check must catch: a corpus file with a run whose properties follow its text.
    const file = corpus!.files.find((f) => f.includes('RP003'))!;
    const parts = unzipSync(new Uint8Array(readFileSync(file)));
    parts['word/document.xml'] = strToU8(strFromU8(parts['word/document.xml']!).replace(/<w:p( [^>]*)?>/, (p) => `${p}<w:r><w:t>x</w:t><w:rPr><w:b/></w:rPr></w:r>`));
    const control = 'control: run properties after the text';
    batch.add(control, zipSync(parts), [file]);
    const started = performance.now();
    const found = batch.run();
    expect(found.get(control)?.join()).toMatch(/rPr.*not expected/);
    found.delete(control);
    console.log(
      `schema check: ${batch.size} outputs of ${counts.files} corpus files and ${counts.pairs} pairs (both orders), ` +
        `${found.size} with new errors, in ${Math.round(performance.now() - started)} ms`,
    );
    expect(Object.fromEntries(found)).toEqual({});
  }, 300_000);
});
