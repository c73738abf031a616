/**
 * The long run of issue 11's decision properties (test/conformance/decision-properties.test.ts
 * runs a short one in CI): generated documents combining the hard constructs, then every corpus
 * file, each with many random plans (one batch vs batches in random order vs halves; no change
 * appears; deciding everything leaves nothing; the independent simulation). Prints trials,
 * decisions, constructs covered and every failure, and how often the track states the service
 * records differ between one batch and several (the first failing seeds and files are printed); never fails.
 *
 *   npm run bench:decisions [-- --seconds 300 --seed 1]
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Prng } from '../src/docx/fixture/prng';
import { ingestDocx, openDocx } from '../src/docx/index';
import { generateFixture, type Construct } from '../test/conformance/decision-fixtures';
import { planTrial, runTrial, trackOverreach, trackStateDifferences, type TrialPlan } from '../test/conformance/decision-trials';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const seconds = arg('seconds', 300);
const seed = arg('seed', 1);
const FILES = path.join(process.env.REDLINE_CORPUS ?? path.resolve(process.cwd(), '../shared/corpus'), 'files');

const totals = { trials: 0, decisions: 0, batches: 0, failed: 0 };
const constructs = new Map<Construct, number>();
/** Track states as the service records them (one batch vs the plan's batches): trials compared, trials differing, differing changes by kind. */
type TrackCount = { trials: number; differing: number; kinds: Map<string, number> };
const trackCount = (): TrackCount => ({ trials: 0, differing: 0, kinds: new Map() });
const tracks = { generated: trackCount(), corpus: trackCount() };
const failures: string[] = [];
/** The first trials whose track states differ (seed or file: the changes). */
const trackDiffers: string[] = [];

/** Every 5th trial: changes the track shows otherwise than decided though nothing else removed them (trackOverreach). */
const overreach = { trials: 0, differing: 0, changes: 0, decided: 0, first: [] as string[] };
let compared = 0;

function compareTrack(track: TrackCount, bytes: Uint8Array, plan: TrialPlan, label: string): void {
  if (compared++ % 5 === 0) {
    const over = trackOverreach(bytes, plan);
    overreach.trials++;
    overreach.decided += plan.verdicts.size;
    overreach.changes += over.length;
    if (over.length) overreach.differing++;
    if (over.length && overreach.first.length < 10) overreach.first.push(`${label}: ${over.join(', ')}`);
  }
  const differences = trackStateDifferences(bytes, plan);
  if (differences.length && trackDiffers.length < 20) trackDiffers.push(`${label}: ${differences.join(', ')}`);
  track.trials++;
  if (differences.length) track.differing++;
  for (const d of differences) {
    const kind = d.slice(0, d.lastIndexOf(':'));
    track.kinds.set(kind, (track.kinds.get(kind) ?? 0) + 1);
  }
}

function record(label: string, result: ReturnType<typeof runTrial>): void {
  totals.trials++;
  totals.decisions += result.decisions;
  totals.batches += result.batches;
  if (result.failures.length) {
    totals.failed++;
    if (failures.length < 20) failures.push(`${label}: ${result.failures[0]!.slice(0, 400)}`);
  }
}

const rng = new Prng(seed);
const pick = (n: number) => Math.floor(rng.next() * n);
const started = Date.now();
const half = (seconds * 1000) / 2;

// Half the time on generated documents...
let fixtureSeed = seed * 100_000;
while (Date.now() - started < half) {
  const fixture = generateFixture(fixtureSeed);
  for (const c of fixture.constructs) constructs.set(c, (constructs.get(c) ?? 0) + 1);
  const bytes = ingestDocx(fixture.bytes).bytes;
  const plan = planTrial(openDocx(bytes).changeIds(), pick, { decideAll: fixtureSeed % 3 === 0 });
  record(`fixture ${fixtureSeed}`, runTrial(bytes, plan));
  compareTrack(tracks.generated, bytes, plan, `fixture ${fixtureSeed}`);
  fixtureSeed++;
}
const generated = { ...totals };

// ...and the other half round the corpus.
const corpus = existsSync(FILES) ? readdirSync(FILES).filter((f) => f.endsWith('.docx')).sort() : [];
const opened = corpus.flatMap((file) => {
  try {
    const bytes = ingestDocx(readFileSync(path.join(FILES, file))).bytes;
    return [{ file, bytes, ids: openDocx(bytes).changeIds() }];
  } catch {
    return [];
  }
});
let rounds = 0;
while (opened.length && Date.now() - started < seconds * 1000) {
  for (const { file, bytes, ids } of opened) {
    const plan = planTrial(ids, pick, { decideAll: rounds % 3 === 0 });
    record(file, runTrial(bytes, plan));
    compareTrack(tracks.corpus, bytes, plan, file);
  }
  rounds++;
}

const fmt = (n: number) => n.toLocaleString('en');
console.log(`decision properties, ${((Date.now() - started) / 1000).toFixed(0)} s, seed ${seed}`);
console.log(`  generated documents: ${fmt(generated.trials)} trials, ${fmt(generated.decisions)} decisions, ${fmt(generated.batches)} batches, ${fmt(generated.failed)} failed`);
console.log(`  corpus (${opened.length} of ${corpus.length} files open${existsSync(FILES) ? '' : '; ../shared/corpus/files is absent'}): ${fmt(totals.trials - generated.trials)} trials in ${rounds} rounds, ${fmt(totals.decisions - generated.decisions)} decisions, ${fmt(totals.failed - generated.failed)} failed`);
for (const [what, track] of Object.entries(tracks)) {
  const byKind = [...track.kinds].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${fmt(n)}`).join(', ');
  console.log(`  track states as the service records them (${what}, one batch vs batches): ${fmt(track.trials)} trials, ${fmt(track.differing)} differ${byKind ? ` (changes by kind: ${byKind})` : ''}`);
}
console.log(`  track shows a verdict other than the lawyer's on a change nothing else removed (every 5th trial): ${fmt(overreach.trials)} trials, ${fmt(overreach.differing)} with any, ${fmt(overreach.changes)} of ${fmt(overreach.decided)} decided changes`);
console.log(`  constructs covered (documents holding each): ${[...constructs].sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c} ${fmt(n)}`).join(', ')}`);
for (const f of failures) console.log(`  FAILED ${f}`);
for (const t of trackDiffers) console.log(`  track states differ in ${t}`);
for (const t of overreach.first) console.log(`  track shows another verdict in ${t}`);
