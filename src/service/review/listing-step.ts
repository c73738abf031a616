import type { DocumentRow } from '../../contract/document';
import type { ListDelta, ReviewDelta } from '../../contract/listing-delta';
import type { ReviewMinimalResponse } from '../../contract/review';
import type { Revision } from '../../contract/revision';
import type { Track, TrackEntry, TrackItem } from '../../contract/track';
import { inBaselineEntry, trackEntries, withPage } from './baseline-entries';
import type { DecisionStep } from './draft-commits';
import { sameFlat } from './listing-delta';
import { decidedItem, effectiveState, openItem, type LogState } from './track-projection';

/** The listing after a batch of decisions, and the delta to it from the listing the batch was planned on. */
export interface SteppedListing {
  listing: ReviewMinimalResponse;
  delta: ReviewDelta;
  /** The positions in the track's lists of the members the delta names as changed (the lists keep their lengths): what storing the track writes. */
  changed: { items: number[]; entries: number[] };
}

/**
 * The listing after a batch of decisions, stepped from the listing it was planned on (issue 36:
 * a decision costs what the batch costs): the batch's changes become decided items where they
 * stood, the decided items whose shown state the batch moved (a taker decided after them) are
 * shown anew, the open ones whose revision the batch changed (a clause renumbered) are made
 * again, and the entries are read again from the items. Everything else is the previous
 * listing's own objects, and the delta names only what changed, found without comparing the
 * whole listing. Null when the step cannot be exact, and the listing is then projected from the
 * whole log: a revision the baseline does not group (written by redline edits: its entry is
 * formed among the new ones), revisions that moved or came, a batch change that was not open in
 * the listing or did not stay where it stood, entries that changed beyond their members' states.
 *
 * `revisions`: the draft's revisions after the batch, with the proposals' justifications; `state`:
 * the log as committed with the batch.
 */
export function stepListing(
  step: DecisionStep, state: Pick<LogState, 'decided'>, document: DocumentRow, revisions: Revision[], version: string,
): SteppedListing | null {
  const { previous, decided: batch, grouping, proposals } = step;
  const track = previous.track;
  if (!track?.entries) return null;

  // The revisions: the previous ones less the batch's, in the same order; changed ones named.
  const revisionsDelta: ListDelta<Revision> = { removed: [], changed: [], added: [] };
  const previousRevision = new Map<string, Revision>();
  let at = 0;
  for (const before of previous.revisions) {
    if (batch[before.change_id]) {
      revisionsDelta.removed.push(before.change_id);
      continue;
    }
    const now = revisions[at++];
    if (now?.change_id !== before.change_id) return null;
    previousRevision.set(now.change_id, before);
    if (!sameFlat(before, now, 'ordinal')) revisionsDelta.changed.push(now);
  }
  if (at !== revisions.length) return null;

  // The items: in place, the batch's decided, the others as they were unless the batch moved them.
  const changedRevision = new Map(revisionsDelta.changed.map((r) => [r.change_id, r]));
  const itemsDelta: ListDelta<TrackItem> = { removed: [], changed: [], added: [] };
  const changed: SteppedListing['changed'] = { items: [], entries: [] };
  const counts = { open: 0, in: 0, back: 0, total: track.items.length };
  let hereId: string | null = null;
  let batchSeen = 0;
  const items = track.items.map((item, i): TrackItem | null => {
    let next = item;
    const decision = batch[item.id];
    if (decision) {
      // Recorded after the item before it: it keeps its place only if that is where it stood.
      if (item.state !== 'open' || decision.after !== (i === 0 ? null : track.items[i - 1]!.id)) return null;
      batchSeen++;
      next = withPage(decidedItem(item.id, state.decided.get(item.id)!, item.label, effectiveState(state.decided, item.id)), grouping);
    } else if (item.state === 'open') {
      const revision = changedRevision.get(item.id);
      if (revision) {
        const grouped = inBaselineEntry(revision, grouping);
        if (!grouped) return null;
        next = withPage(openItem(grouped, item.label, proposals), grouping);
      } else if (!previousRevision.has(item.id)) return null;
    } else {
      const shown = effectiveState(state.decided, item.id);
      if (shown !== item.state) next = { ...item, state: shown };
    }
    if (next.state === 'open') {
      counts.open++;
      hereId ??= next.id;
    } else counts[next.state as 'in' | 'back']++;
    if (next !== item && !sameFlat(item, next)) {
      itemsDelta.changed.push(next);
      changed.items.push(i);
    } else next = item;
    return next;
  });
  if (items.includes(null) || batchSeen !== Object.keys(batch).length) return null;
  if (revisions.some((r) => !grouping.entryOf.has(r.change_id))) return null;
  const stepped = items as TrackItem[];

  // The entries, read again from the items (what deciding one takes moves with every verdict); each compared in place.
  const entries = trackEntries(stepped, counts.open ? step.facts : null, state.decided);
  if (entries.length !== track.entries.length) return null;
  const entriesDelta: ListDelta<TrackEntry> = { removed: [], changed: [], added: [] };
  for (let i = 0; i < entries.length; i++) {
    const before = track.entries[i]!;
    if (entries[i]!.id !== before.id) return null;
    if (sameEntry(before, entries[i]!)) entries[i] = before;
    else {
      entriesDelta.changed.push(entries[i]!);
      changed.entries.push(i);
    }
  }

  const next: Track = { items: stepped, hereId, counts, entries };
  return {
    listing: { document, revisions, track: next },
    delta: {
      document, base: step.base, version, revisions: revisionsDelta,
      track: { items: itemsDelta, entries: entriesDelta, hereId, counts },
    },
    changed,
  };
}

/** Whether two entries read the same (what `trackEntries` sets), without listing their keys: compared for every entry after each batch. */
function sameEntry(a: TrackEntry, b: TrackEntry): boolean {
  return a.id === b.id && a.state === b.state && a.summary === b.summary && sameIds(a.members, b.members)
    && (a.takes === undefined ? b.takes === undefined : b.takes !== undefined && sameIds(a.takes.accept, b.takes.accept) && sameIds(a.takes.reject, b.takes.reject));
}

const sameIds = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((id, i) => id === b[i]);
