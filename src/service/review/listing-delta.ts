import type { ListDelta, ReviewDelta, ReviewListing } from '../../contract/listing-delta';
import type { ReviewMinimalResponse } from '../../contract/review';
import { ByteBudgetLru } from './byte-budget-lru';

/**
 * The version of a draft's review listing (its ETag): the content it lists and the decision log
 * it was projected with. Every change moves one or the other (a note or a comment appends to the
 * log), so equal versions list the same.
 */
export function listingVersion(sha256: string, logSeq: number): string {
  return `${sha256}.${logSeq}`;
}

/**
 * Each draft's listing as last answered, with its version: what the next change's delta is made
 * against (issue 36.1). One per draft; least recently answered drafts go first past the budget.
 */
export class Listings {
  private readonly byDraft: ByteBudgetLru<{ version: string; listing: ReviewListing }>;

  constructor(budgetBytes: number) {
    this.byDraft = new ByteBudgetLru(budgetBytes);
  }

  remember(uploadId: string, version: string, { revisions, track }: ReviewListing): void {
    // Roughly what a revision and a track item hold in memory.
    this.byDraft.set(uploadId, { version, listing: { revisions, track } }, 400 * (revisions.length + (track?.items.length ?? 0)));
  }

  /** The draft's listing at this version, if it is the one last answered. */
  at(uploadId: string, version: string): ReviewListing | undefined {
    const known = this.byDraft.get(uploadId);
    return known?.version === version ? known.listing : undefined;
  }
}

/** What turns `previous` (at `base`) into `next` (at `version`); null when either has no track (a failed projection): the whole listing is answered then. */
export function listingDelta(base: string, previous: ReviewListing, version: string, next: ReviewMinimalResponse): ReviewDelta | null {
  if (!previous.track || !next.track) return null;
  return {
    document: next.document,
    base,
    version,
    // A revision's ordinal is its position, which every decision before it moves: the client renumbers (applyListingDelta), so it is no change.
    revisions: diffList(previous.revisions, next.revisions, (r) => r.change_id, (a, b) => sameJson(a, b, 'ordinal')),
    track: {
      items: diffList(previous.track.items, next.track.items, (i) => i.id),
      entries: diffList(previous.track.entries ?? [], next.track.entries ?? [], (e) => e.id),
      hereId: next.track.hereId,
      counts: next.track.counts,
    },
  };
}

/**
 * The removed, changed and added items of a list by id. Items kept are expected in the same
 * order (a decision moves nothing); were they not, all are sent again as added, which is still right.
 */
function diffList<T>(previous: readonly T[], next: readonly T[], idOf: (item: T) => string, same: (a: T, b: T) => boolean = sameJson): ListDelta<T> {
  const before = new Map(previous.map((item) => [idOf(item), item]));
  const nextIds = new Set(next.map(idOf));
  const removed = previous.map(idOf).filter((id) => !nextIds.has(id));
  const keptBefore = previous.map(idOf).filter((id) => nextIds.has(id));
  const keptAfter = next.map(idOf).filter((id) => before.has(id));
  if (keptBefore.some((id, i) => keptAfter[i] !== id)) {
    return { removed: previous.map(idOf), changed: [], added: next.map((value, i) => ({ after: i === 0 ? null : idOf(next[i - 1]!), value })) };
  }
  const changed: T[] = [];
  const added: { after: string | null; value: T }[] = [];
  next.forEach((item, i) => {
    const was = before.get(idOf(item));
    if (!was) added.push({ after: i === 0 ? null : idOf(next[i - 1]!), value: item });
    else if (!same(was, item)) changed.push(item);
  });
  return { removed, changed, added };
}

/** Equal as JSON says them: keys in any order, a key holding undefined as no key; `ignored`, a top-level key left out. */
function sameJson(a: unknown, b: unknown, ignored?: string): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x).filter((k) => x[k] !== undefined && k !== ignored);
  return keys.length === Object.keys(y).filter((k) => y[k] !== undefined && k !== ignored).length && keys.every((k) => sameJson(x[k], y[k]));
}
