import type { ReviewResponse } from '../../contract/review';
import { NO_TIMING, type ServerTiming } from '../http/server-timing';
import { listingVersion } from './listing-delta';
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
