/**
 * Issue 11's four properties of selective decisions, on every file of the corpus and on generated
 * documents combining the hard constructs (decision-fixtures.ts): any random set of decisions,
 * posted as one batch, as several batches in a random order, and as "all accepted, then all
 * rejected" (and the reverse), gives the same document and remaining revisions; no batch makes
 * a change appear; deciding everything leaves nothing; the result reads as the independent
 * simulation (decision-simulation.ts); and the track states the service records (one batch
 * against the random batches) are the same. Seeded and bounded: about a minute on two cores.
 * The long run is `npm run bench:decisions`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Prng } from '../../src/docx/fixture/prng';
import { ingestDocx, openDocx } from '../../src/docx/index';
import { ingestedDrafts } from '../support/corpus-drafts';
import { generateFixture } from './decision-fixtures';
import { planTrial, runTrial, trackStateDifferences } from './decision-trials';
import { corpusFileNames, lacksShared } from '../support/shared-corpus';

const HAS_CORPUS = !lacksShared('decision properties on the corpus', 'files');
const SEED = 1111;

/** One trial from a plan seed: a PRNG drives the verdicts, the split and the order. */
function trial(bytes: Uint8Array, planSeed: number, decideAll: boolean) {
  const rng = new Prng(planSeed);
  const plan = planTrial(openDocx(bytes).changeIds(), (n) => Math.floor(rng.next() * n), { decideAll });
  const result = runTrial(bytes, plan);
  const tracks = trackStateDifferences(bytes, plan);
  return { ...result, failures: [...result.failures, ...(tracks.length ? [`track states differ, one batch against ${plan.batches.length} batches: ${tracks.join(', ')}`] : [])] };
}

const totals = { trials: 0, decisions: 0 };

describe('selective decisions: order, batching, halves and the simulation agree', () => {
  it('on generated documents combining tables, rows, cells, moves, marks and nested changes', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.boolean(), (fixtureSeed, planSeed, decideAll) => {
        const bytes = ingestDocx(generateFixture(fixtureSeed).bytes).bytes;
        const result = trial(bytes, planSeed, decideAll);
        totals.trials++;
        totals.decisions += result.decisions;
        expect(result.failures, `fixture seed ${fixtureSeed}, plan seed ${planSeed}`).toEqual([]);
      }),
      { seed: SEED, numRuns: 250 },
    );
  }, 120_000);

  const files = corpusFileNames();
  it.skipIf(!HAS_CORPUS)(`on every corpus file (${files.length})${HAS_CORPUS ? '' : ': skipped, the shared corpus is absent'}`, () => {
    for (const { file, bytes } of ingestedDrafts(files)) {
      fc.assert(
        fc.property(fc.nat(), fc.boolean(), (planSeed, decideAll) => {
          const result = trial(bytes, planSeed, decideAll);
          totals.trials++;
          totals.decisions += result.decisions;
          expect(result.failures, `${file}, plan seed ${planSeed}`).toEqual([]);
        }),
        { seed: SEED, numRuns: 3 },
      );
    }
    console.log(`decision properties: ${totals.trials} trials, ${totals.decisions} decisions`);
  }, 180_000);
});
