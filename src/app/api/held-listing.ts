import { applyListingDelta, isReviewDelta, type ReviewDelta, type ReviewListing } from '../../contract/listing-delta';
import type { ReviewMinimalResponse } from '../../contract/review';

/**
 * The review listing the service last answered for the draft open, with its version (ETag):
 * what a batch names in If-Match and its delta answer applies to (issue 36.1), so a batch's
 * answer costs what the batch costs, not what the draft's thousands of changes cost. One draft
 * at a time (the one on screen); the service's answers only, never the page's optimistic state.
 */
interface Held {
  documentId: string;
  version: string;
  listing: ReviewListing;
}
let held: Held | null = null;

/** The version (ETag value, quotes removed) an answer says, if any. */
function versionOf(response: Response): string | null {
  const tag = response.headers.get('etag');
  const quoted = tag ? /^(?:W\/)?"([^"]*)"$/.exec(tag) : null;
  return quoted ? quoted[1]! : null;
}

/** Holds what the service answered for the draft (a read, or a change answered in full), with the version the answer says. */
export function holdListing(documentId: string, response: Response, listing: ReviewListing): void {
  const version = versionOf(response);
  held = version ? { documentId, version, listing } : null;
}

/** The version held for this draft, if any: what a read catching up names as `since`. */
export function heldVersion(documentId: string): string | null {
  return held?.documentId === documentId ? held.version : null;
}

/** The draft changed in a way whose answer says no version (a replayed answer), or the page cannot trust what it holds: the next read or change is answered whole again. */
export function forgetListing(documentId: string): void {
  if (held?.documentId === documentId) held = null;
}

/** The If-Match a change (apply, undo, redline edits) on this draft sends: the version held, if any. */
export function listingIfMatch(documentId: string): Record<string, string> {
  return held?.documentId === documentId ? { 'if-match': `"${held.version}"` } : {};
}

/** The listing an answer brings (a change's, or a read catching up): the delta applied to the listing held at its base, or the whole listing answered; held from now on. */
export function listingAfter(documentId: string, response: Response, answer: ReviewDelta | ReviewMinimalResponse): ReviewMinimalResponse {
  if (!isReviewDelta(answer)) {
    holdListing(documentId, response, answer);
    return answer;
  }
  if (held?.documentId !== documentId || held.version !== answer.base) {
    // Cannot happen (the service answers a delta only from the version sent): a clear error, never a wrong listing.
    held = null;
    throw new Error('The service answered a change from a listing this page does not hold; reload the page.');
  }
  const listing = applyListingDelta(held.listing, answer);
  held = { documentId, version: answer.version, listing };
  return listing;
}
