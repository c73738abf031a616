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
const steps = { projection: [] as number[], regroupAndProject: [] as number[], pages: [] as number[], entries: [] as number[] };
for (let i = 0; i < RUNS; i++) {
  steps.projection.push(time(() => projectTrack(state, revisions)).ms);
  const projected = time(() => projectTrack(state, regrouped(revisions, grouping.value)));
  steps.regroupAndProject.push(projected.ms);
  steps.pages.push(time(() => withPages(projected.value.items, grouping.value)).ms);
  steps.entries.push(time(() => trackEntries(projected.value.items, facts.value, state.decided)).ms);
}
const track = projectTrack(state, regrouped(revisions, grouping.value));
const entries = trackEntries(track.items, facts.value, state.decided);
console.log(`track answer (medians of ${RUNS}): projection ${median(steps.projection).toFixed(1)} ms; with entries: regroup and project ${median(steps.regroupAndProject).toFixed(1)} ms, ` +
  `pages ${median(steps.pages).toFixed(1)} ms, entries with takes ${median(steps.entries).toFixed(1)} ms; ${entries.length} entries, ` +
  `JSON ${(JSON.stringify(projectTrack(state, revisions)).length / 1e6).toFixed(2)} -> ${(JSON.stringify({ ...track, entries }).length / 1e6).toFixed(2)} MB`);
