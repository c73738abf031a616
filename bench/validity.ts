/**
 * The long run of issue 22's output properties (test/conformance/written-parts.test.ts runs seeds
 * 1-2 in CI): every shared corpus file's accept-all, reject-all, render variant, redline edits,
 * comments, comparisons, and selective decisions in three batches for seeds 1..N; every
 * comparison pair in both orders and with older marked by PowerTools (pt14); plus generated decision fixtures (test/conformance/decision-fixtures.ts)
 * decided the same way. Prints how many outputs had namespace problems and new schema errors
 * (ooxml-validate.py --new), each distinct error with examples, and the time; never fails.
 *
 *   npm run bench:validity [-- --seeds 10 --fixtures 100]
 */
import path from 'node:path';
import { ingestDocx, openDocx } from '../src/docx/index';
import { Prng } from '../src/docx/fixture/prng';
import { generateFixture } from '../test/conformance/decision-fixtures';
import { namespaceProblems } from '../test/conformance/namespaces';
import { SchemaBatch, schemaCheckMissing } from '../test/conformance/schema-check';
import { answerOutputs, decisionOutputs, markedPairOutputs, pairOutputs, selfComparisonOutputs, sharedCorpus, type WrittenOutput } from '../test/conformance/written-outputs';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const seeds = Array.from({ length: arg('seeds', 10) }, (_, i) => i + 1);
const fixtures = arg('fixtures', 100);
const root = process.env.REDLINE_CORPUS ?? path.resolve(process.cwd(), '../shared/corpus');
const corpus = sharedCorpus(root);
if (!corpus) {
  console.log(`no shared corpus at ${root}`);
  process.exit(0);
}
const missing = schemaCheckMissing(corpus.tool);
if (missing) console.log(`schema check off: ${missing}`);

const batch = new SchemaBatch(corpus.tool);
const nsProblems: string[] = [];
let outputs = 0;
const take = (items: Iterable<WrittenOutput>) => {
  for (const o of items) {
    outputs++;
    for (const p of namespaceProblems(o.output)) nsProblems.push(`${o.label}: ${p}`);
    if (!missing) batch.add(o.label, o.output, o.inputs);
  }
};

/** A generated fixture decided like a corpus file: accept-all, reject-all and seeded batches. */
function* fixtureOutputs(seed: number): Generator<WrittenOutput> {
  const bytes = ingestDocx(generateFixture(seed).bytes).bytes;
  const ids = openDocx(bytes).changeIds();
  yield { label: `fixture ${seed}: accept-all`, output: openDocx(bytes).apply({ accept: ids, reject: [] }).toBytes(), inputs: [bytes] };
  yield { label: `fixture ${seed}: reject-all`, output: openDocx(bytes).apply({ accept: [], reject: ids }).toBytes(), inputs: [bytes] };
  const prng = new Prng(seed);
  const doc = openDocx(bytes);
  const order = [...ids].sort(() => prng.next() - 0.5);
  for (let b = 0; b < 3; b++) {
    const listed = new Set(doc.changeIds());
    const part = order.slice(Math.floor((b * order.length) / 3), Math.floor(((b + 1) * order.length) / 3)).filter((id) => listed.has(id));
    if (!part.length) continue;
    doc.apply({ accept: part.filter((_, i) => i % 2 === 0), reject: part.filter((_, i) => i % 2 === 1) });
    yield { label: `fixture ${seed}: batch ${b + 1}`, output: doc.toBytes(), inputs: [bytes] };
  }
}

const started = performance.now();
for (const f of corpus.files) {
  take(decisionOutputs(f, seeds));
  take(answerOutputs(f));
  take(selfComparisonOutputs(f));
}
for (const p of corpus.pairs) {
  take(pairOutputs(p));
  take(markedPairOutputs(p));
}
for (let s = 1; s <= fixtures; s++) take(fixtureOutputs(s));
const generated = performance.now();
const found = missing ? new Map<string, string[]>() : batch.run();
const checked = performance.now();

console.log(`${outputs} outputs: ${corpus.files.length} corpus files (seeds 1-${seeds.length}), ${corpus.pairs.length} pairs (both orders, and older marked by PowerTools), ${fixtures} generated fixtures`);
console.log(`made and namespace-checked in ${Math.round(generated - started)} ms; schema-checked in ${Math.round(checked - generated)} ms`);
console.log(`namespace problems: ${nsProblems.length}`);
for (const p of nsProblems.slice(0, 20)) console.log(`  ${p}`);
console.log(`outputs with new schema errors: ${found.size}`);
const byError = new Map<string, string[]>();
for (const [label, errors] of found) for (const e of errors) byError.set(e, [...(byError.get(e) ?? []), label]);
for (const [e, labels] of [...byError].sort((a, b) => b[1].length - a[1].length)) console.log(`  ${labels.length}x ${e}\n     e.g. ${labels.slice(0, 3).join(' | ')}`);
