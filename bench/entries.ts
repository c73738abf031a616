/**
 * The cost of the review's entries (issue 32 item 2) on the engine's 300-page / 3,000-revision
 * draft, in process: reading the baseline's grouping and decision facts once (cached after), and
 * what every track answer adds to the projection (regrouping, listing entries with what each
 * takes, pages). Prints medians; never fails.
 *
 *   npx tsx bench/entries.ts
 */
import { buildBenchmarkContract } from '../src/docx/fixture';
import { ingestDocx, openDocx } from '../src/docx/index';
import { groupingOf, regrouped, trackEntries, withPages } from '../src/service/review/baseline-entries';
import { factsOf } from '../src/service/review/decision-facts';
import { projectTrack } from '../src/service/review/track-projection';

const RUNS = 15;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
function time<T>(work: () => T): { ms: number; value: T } {
  const start = performance.now();
  const value = work();
  return { ms: performance.now() - start, value };
}

const bytes = ingestDocx(buildBenchmarkContract()).bytes;
const doc = openDocx(bytes);
const revisions = doc.revisions();
const grouping = time(() => groupingOf(openDocx(bytes)));
const facts = time(() => factsOf(openDocx(bytes)));
const opening = time(() => openDocx(bytes));
console.log(`draft: ${revisions.length} revisions; once per baseline: open ${opening.ms.toFixed(0)} ms, grouping ${(grouping.ms - opening.ms).toFixed(0)} ms, facts ${(facts.ms - opening.ms).toFixed(0)} ms (the last two beside the open)`);

const state = { decided: new Map(), withdrawn: new Map() };
const plain: number[] = [];
const withEntries: number[] = [];
for (let i = 0; i < RUNS; i++) {
  plain.push(time(() => projectTrack(state, revisions)).ms);
  withEntries.push(time(() => {
    const track = projectTrack(state, regrouped(revisions, grouping.value));
    return { ...track, items: withPages(track.items, grouping.value), entries: trackEntries(track.items, facts.value, state.decided) };
  }).ms);
}
const track = projectTrack(state, regrouped(revisions, grouping.value));
const entries = trackEntries(track.items, facts.value, state.decided);
console.log(`track answer: projection ${median(plain).toFixed(1)} ms, with entries ${median(withEntries).toFixed(1)} ms (medians of ${RUNS}); ` +
  `${entries.length} entries, JSON ${(JSON.stringify(projectTrack(state, revisions)).length / 1e6).toFixed(2)} -> ${(JSON.stringify({ ...track, entries }).length / 1e6).toFixed(2)} MB`);
