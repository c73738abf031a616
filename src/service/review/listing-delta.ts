import type { ListDelta, ReviewDelta, ReviewListing } from '../../contract/listing-delta';
import type { ReviewMinimalResponse } from '../../contract/review';
import { ProblemError } from '../http/problem';
import { ByteBudgetLru } from './byte-budget-lru';

/**
 * The version of a draft's review listing (its ETag): the content it lists and the decision log
 * it was projected with. Every change moves one or the other (a note or a comment appends to the
 * log), so equal versions list the same.
 */
export function listingVersion(sha256: string, logSeq: number): string {
  return `${sha256}.${logSeq}`;
}

/** How many of a draft's listings are held: a client that missed this many changes or fewer catches up with a delta (GET review?since). */
const VERSIONS_HELD = 8;

/**
 * Each draft's listings as last answered, newest first, with their versions: what the next
 * change's delta is made against (issue 36.1), and what a client that missed changes (another
 * reviewer's batch, a lost answer) catches up from (`since`). Least recently answered drafts go
 * first past the budget.
 */
export class Listings {
  private readonly byDraft: ByteBudgetLru<{ version: string; listing: ReviewListing; bytes: number }[]>;

  constructor(budgetBytes: number) {
    this.byDraft = new ByteBudgetLru(budgetBytes);
  }

  remember(uploadId: string, version: string, { revisions, track }: ReviewListing): void {
    // Roughly what a revision and a track item hold in memory.
    const bytes = 400 * (revisions.length + (track?.items.length ?? 0));
    const held = [{ version, listing: { revisions, track }, bytes }, ...(this.byDraft.get(uploadId) ?? []).filter((h) => h.version !== version)].slice(0, VERSIONS_HELD);
    this.byDraft.set(uploadId, held, held.reduce((sum, h) => sum + h.bytes, 0));
  }

  /** The draft's listing at this version, if it is one of those last answered. */
  at(uploadId: string, version: string): ReviewListing | undefined {
    return this.byDraft.get(uploadId)?.find((h) => h.version === version)?.listing;
  }
}

/** The 412 a change names a listing the draft has moved on from with (If-Match): nothing is changed, the client catches up (GET review?since) and decides again. */
export function requireListingVersion(ifMatch: string | undefined, sha256: string, logSeq: number): void {
  if (ifMatch !== undefined && ifMatch !== listingVersion(sha256, logSeq)) {
    throw new ProblemError(412, 'listing_changed', 'The draft has changed since the listing this change was made on. Nothing was applied; catch up (GET the review with since=<your version>) and try again.');
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
export function sameJson(a: unknown, b: unknown, ignored?: string): boolean {
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

/**
 * `sameJson` for objects whose values are mostly plain (a revision, a track item), without
 * listing their keys: what the listing step compares every revision with.
 */
export function sameFlat(a: object, b: object, ignored?: string): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const key in x) {
    if (key === ignored || x[key] === y[key]) continue;
    if (typeof x[key] !== 'object' || !sameJson(x[key], y[key])) return false;
  }
  for (const key in y) if (key !== ignored && !(key in x) && y[key] !== undefined) return false;
  return true;
}
