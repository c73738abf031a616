/**
 * Issue 32 item 2: deciding an entry decides that entry. A review is played as the service plays
 * it (src/service/review: entries formed on the baseline, batchVerdicts on the baseline's facts,
 * projectTrack, trackEntries), deciding one random open entry after another, on generated drafts
 * (the decision fixtures, and lab-protocol drafts: tables of five inserted and deleted rows, a
 * moved heading between them, runs of inserted and deleted paragraph marks) and on every corpus
 * file. After each decision:
 *   - the open changes outside the decided entry keep their partition into entries, and the
 *     number of entries never changes;
 *   - what the decision took with it (the changes it recorded implied) is exactly what the entry
 *     said it would take (`takes`), before it was decided.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TrackEntry } from '../../src/contract/track';
import { Prng } from '../../src/docx/fixture/prng';
import { ingestDocx, openDocx } from '../../src/docx/index';
import { groupingOf, regrouped, trackEntries } from '../../src/service/review/baseline-entries';
import { factsOf } from '../../src/service/review/decision-facts';
import { batchVerdicts, namedVerdicts, recordOf } from '../../src/service/review/implied-decisions';
import { predecessors, projectTrack, type DecidedChange } from '../../src/service/review/track-projection';
import { generateFixture } from './decision-fixtures';
import { ingestedDrafts } from '../support/corpus-drafts';
import { corpusFileNames, lacksShared } from '../support/shared-corpus';
import { generateLabProtocol } from './entry-fixtures';

const HAS_CORPUS = !lacksShared('entry partition on the corpus', 'files');
const SEED = 3232;

/**
 * The open members of each entry with any, leaving out `without`, in a form that compares as a
 * partition: each entry's members sorted, the entries sorted (a join may change the order of
 * the changes around it, not which entry each is in).
 */
function openPartition(entries: readonly TrackEntry[], open: ReadonlySet<string>, without: ReadonlySet<string>): string {
  const out: string[] = [];
  for (const e of entries) {
    const members = e.members.filter((id) => open.has(id) && !without.has(id));
    if (members.length) out.push(`${e.id}: ${members.sort().join(' ')}`);
  }
  return out.sort().join('; ');
}

/** Plays a review of `bytes`, at most `steps` decisions, each on a random open entry; the failures seen. */
function playReview(bytes: Uint8Array, planSeed: number, steps: number): string[] {
  const rng = new Prng(planSeed);
  const baseline = openDocx(bytes);
  const grouping = groupingOf(baseline);
  const facts = factsOf(baseline);
  const doc = openDocx(bytes);
  const decided = new Map<string, DecidedChange>();
  const failures: string[] = [];
  const trackNow = () => {
    const revisions = doc.revisions();
    const track = projectTrack({ decided, withdrawn: new Map() }, regrouped(revisions, grouping));
    return { revisions, track, entries: trackEntries(track.items, facts, decided) };
  };
  let { revisions, track, entries } = trackNow();
  const total = entries.length;
  for (let step = 0; step < steps; step++) {
    const open = entries.filter((e) => e.state === 'open');
    if (!open.length) break;
    const entry = rng.pick(open);
    const verdict = rng.next() < 0.5 ? 'accept' : 'reject';
    const openIds = new Set(track.items.filter((i) => i.state === 'open').map((i) => i.id));
    const named = entry.members.filter((id) => openIds.has(id));
    const said = entry.takes?.[verdict] ?? [];
    const anchors = predecessors(track);
    const items = new Map(track.items.map((i) => [i.id, i]));
    doc.apply(verdict === 'accept' ? { accept: named, reject: [] } : { accept: [], reject: named });
    const state = verdict === 'accept' ? 'in' : 'back';
    const verdicts = batchVerdicts(revisions, new Map(named.map((id) => [id, state])), new Set(doc.changeIds()), facts, namedVerdicts(decided));
    for (const [id, v] of verdicts) {
      const item = items.get(id)!;
      decided.set(id, {
        ...recordOf(v), kind: item.kind ?? null, textPreview: item.textPreview ?? '', author: item.author ?? null, decidedAt: '', decidedByUserId: null,
        after: anchors.get(id) ?? null, ...(item.group ? { group: item.group, groupSummary: item.groupSummary ?? '' } : {}),
      });
    }
    const taken = [...verdicts].filter(([, v]) => v.implied).map(([id]) => id);
    const label = `step ${step + 1}, ${verdict} entry ${entry.id} (${entry.summary})`;
    if (JSON.stringify([...taken].sort()) !== JSON.stringify([...said].sort())) {
      failures.push(`${label}: said it takes [${said.join(', ')}], took [${taken.join(', ')}]`);
    }
    const before = openPartition(entries, openIds, new Set([...named, ...taken]));
    ({ revisions, track, entries } = trackNow());
    const after = openPartition(entries, new Set(track.items.filter((i) => i.state === 'open').map((i) => i.id)), new Set());
    if (before !== after) failures.push(`${label}: the other entries changed: ${before} became ${after}`);
    if (entries.length !== total) failures.push(`${label}: ${total} entries became ${entries.length}`);
    if (failures.length) break;
  }
  return failures;
}

describe('deciding an entry decides that entry', () => {
  it('on lab-protocol drafts (inserted and deleted tables, a moved heading between them, split and joined paragraphs)', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (fixtureSeed, planSeed) => {
        const bytes = ingestDocx(generateLabProtocol(fixtureSeed)).bytes;
        expect(playReview(bytes, planSeed, 12), `fixture seed ${fixtureSeed}, plan seed ${planSeed}`).toEqual([]);
      }),
      { seed: SEED, numRuns: 60 },
    );
  }, 120_000);

  it('on generated documents combining tables, rows, cells, moves, marks and nested changes', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (fixtureSeed, planSeed) => {
        const bytes = ingestDocx(generateFixture(fixtureSeed).bytes).bytes;
        expect(playReview(bytes, planSeed, 8), `fixture seed ${fixtureSeed}, plan seed ${planSeed}`).toEqual([]);
      }),
      { seed: SEED, numRuns: 150 },
    );
  }, 120_000);

  const files = corpusFileNames();
  it.skipIf(!HAS_CORPUS)(`on every corpus file (${files.length})${HAS_CORPUS ? '' : ': skipped, the shared corpus is absent'}`, () => {
    for (const { file, bytes } of ingestedDrafts(files)) {
      expect(playReview(bytes, 1, 6), file).toEqual([]);
    }
  }, 240_000);
});
