import { z } from 'zod';
import { clientString } from './client-text';
import { DocumentRow } from './document';
import { Revision } from './revision';
import type { ReviewMinimalResponse } from './review';
import { TrackCounts, TrackEntry, TrackItem } from './track';

/**
 * An answer proportional to the batch (issue 36.1): what a change did to the review listing
 * (revisions and track) a client holds, instead of the whole listing again. A client that sent
 * `Prefer: return=minimal` and `If-Match: "<version>"` (the listing's ETag, answered by the
 * review read and by every change) gets it; `applyListingDelta` turns its listing at `base` into
 * the listing at `version`, equal to what a review read would now answer.
 */

/**
 * How one list changed, by its items' ids: removed ones, ones changed in place, and new ones
 * after the item they now follow (null: first), in list order. A revision whose ordinal alone
 * moved is not sent: ordinals are positions, renumbered by applyListingDelta.
 */
function listDelta<T extends z.ZodType>(item: T) {
  return z.object({
    removed: z.array(z.string()),
    changed: z.array(item),
    added: z.array(z.object({ after: z.string().nullable(), value: item })),
  });
}

export const ReviewDelta = z.object({
  document: DocumentRow,
  base: z.string().describe('The listing version this applies to (the If-Match the request sent).'),
  version: z.string().describe('The listing version after the change (also the ETag): send it as If-Match with the next change.'),
  revisions: listDelta(Revision),
  track: z.object({
    items: listDelta(TrackItem),
    entries: listDelta(TrackEntry),
    hereId: z.string().nullable(),
    counts: TrackCounts,
  }),
});
export type ReviewDelta = z.infer<typeof ReviewDelta>;

/** GET review's query: `since`, the listing version a client holds, to catch up with a delta (issue 36.1). */
export const ReviewQuery = z.strictObject({
  since: clientString().min(1).max(200).optional().describe(
    'The listing version the client holds (an ETag the review or a change answered, without quotes). With `Prefer: return=minimal` the answer is then a ReviewDelta from it to the listing now (what the client missed: other reviewers\' batches, a lost answer), or the whole minimal listing when the service no longer holds that version (it holds the last few per draft). Ignored by the full answer.'),
});
export type ReviewQuery = z.infer<typeof ReviewQuery>;
/** How one list changed (the shape `listDelta` checks). */
export type ListDelta<T> = { removed: string[]; changed: T[]; added: { after: string | null; value: T }[] };

/** The listing a client holds: what the review read answers minimal. */
export type ReviewListing = Pick<ReviewMinimalResponse, 'revisions' | 'track'>;

/** Whether an answer is a delta (else it is a whole minimal listing: the service did not know the version the client holds). */
export function isReviewDelta(answer: object): answer is ReviewDelta {
  return 'base' in answer && 'version' in answer;
}

/** The listing at the delta's version, from the listing at its base. A listing with no track (the decisions store failed) cannot take a delta: read the review again. */
export function applyListingDelta(listing: ReviewListing, delta: ReviewDelta): ReviewMinimalResponse {
  if (!listing.track) throw new Error('A listing without a track cannot take a delta; read the review again.');
  const { track } = delta;
  return {
    document: delta.document,
    // A revision's ordinal is its 1-based position in document order: renumbered here, never sent for a move of position alone.
    revisions: applyList(listing.revisions, delta.revisions, (r) => r.change_id).map((r, i) => (r.ordinal === i + 1 ? r : { ...r, ordinal: i + 1 })),
    track: {
      items: applyList(listing.track.items, track.items, (i) => i.id),
      ...(listing.track.entries || track.entries.added.length ? { entries: applyList(listing.track.entries ?? [], track.entries, (e) => e.id) } : {}),
      hereId: track.hereId,
      counts: track.counts,
    },
  };
}

function applyList<T>(list: readonly T[], delta: ListDelta<T>, idOf: (item: T) => string): T[] {
  const removed = new Set(delta.removed);
  const changed = new Map(delta.changed.map((item) => [idOf(item), item]));
  const out = list.filter((item) => !removed.has(idOf(item))).map((item) => changed.get(idOf(item)) ?? item);
  if (delta.added.length === 0) return out;
  // New items after the one they follow; an item added after another added one follows it too.
  const following = new Map<string | null, T[]>();
  for (const { after, value } of delta.added) following.set(after, [...(following.get(after) ?? []), value]);
  const result: T[] = [];
  const place = (after: string | null) => {
    for (const value of following.get(after) ?? []) {
      result.push(value);
      place(idOf(value));
    }
  };
  place(null);
  for (const item of out) {
    result.push(item);
    place(idOf(item));
  }
  return result;
}
