import type { ReviewDelta } from '../../contract/listing-delta';
import type { ReviewMinimalResponse, ReviewResponse } from '../../contract/review';
import { NO_TIMING, type ServerTiming } from '../http/server-timing';
import { listingDelta, listingVersion } from './listing-delta';
import { withoutContent } from './review-answers';
import { requireRow, type Actor, type ReviewParts } from './review-parts';
import { replayLog } from './track-projection';

/** The review of a draft as it stands (any version), remembered with its listing version (ETag); a working draft is left parsed for its first batch. */
export async function readReview(parts: ReviewParts, actor: Actor, uploadId: string, timing: ServerTiming = NO_TIMING): Promise<ReviewResponse> {
  const row = await timing.measure('load', () => requireRow(parts.db, actor.orgId, uploadId));
  const analysis = await timing.measure('analyse', () => parts.reads.analysisOf(row, timing));
  await parts.reads.leaveOpen(row, timing);
  // The log's seq before the track: a change committed meanwhile leaves a version no draft has (If-Match then answers 412), never a wrong listing under a right one.
  const logSeq = row.content_sha256 ? replayLog(await timing.measure('load', () => parts.logs.load(parts.db, row.id))).lastSeq : 0;
  const answer = await timing.measure('track', () => parts.answers.respond(row, analysis));
  if (row.content_sha256) parts.answers.rememberListing(answer, listingVersion(row.content_sha256, logSeq));
  return answer;
}

/**
 * What a client that missed changes (another reviewer's batch, an answer lost, a 412) fetches:
 * the listing now as the delta from the version it holds (`since`), if that is one of the
 * versions this service last answered for the draft (listing-delta.ts holds a few); else the
 * whole minimal listing, as a plain read. Either way the answer's version is its ETag.
 */
export async function readReviewSince(parts: ReviewParts, actor: Actor, uploadId: string, since: string, timing: ServerTiming = NO_TIMING): Promise<ReviewDelta | ReviewMinimalResponse> {
  const previous = parts.answers.listingAt(uploadId, since);
  const now = await readReview(parts, actor, uploadId, timing);
  const version = parts.answers.versionOf(now);
  if (version === undefined) return withoutContent(now);
  const answer = (previous && timing.measureSync('delta', () => listingDelta(since, previous, version, now))) || withoutContent(now);
  parts.answers.tagVersion(answer, version);
  return answer;
}
