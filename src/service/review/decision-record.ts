import type { Comment } from '../../contract/comments';
import type { ReviewResponse } from '../../contract/review';
import { NO_TIMING, type ServerTiming } from '../http/server-timing';
import { requireRow, type Actor, type ReviewParts } from './review-parts';
import { replayLog, type DecidedChange } from './track-projection';
import { readUpload } from './upload-reads';

/** What the decision report reads: the review as it stands, and what the log remembers of each decided change. */
export interface DecisionRecord {
  review: ReviewResponse;
  decided: ReadonlyMap<string, DecidedChange>;
  /** The draft's comments as it stands. */
  comments: readonly Comment[];
  /** The change each comment written on a change through the review was written on (by comment id): it still names it once the change is decided. */
  commentOn: ReadonlyMap<string, string>;
}

/** The review and the log's memory of every decided change, for the decision report. */
export async function decisionRecord(parts: ReviewParts, actor: Actor, uploadId: string, timing: ServerTiming = NO_TIMING): Promise<DecisionRecord> {
  const row = await timing.measure('load', () => requireRow(parts.db, actor.orgId, uploadId));
  const [analysis, entries] = await timing.measure('analyse', () => Promise.all([parts.reads.analysisOf(row), parts.logs.load(parts.db, uploadId)]));
  const state = replayLog(entries);
  const review = await timing.measure('track', () => parts.answers.respond(row, analysis, { entries, state }));
  const { value: comments } = await readUpload(parts, actor, uploadId, (doc) => doc.comments());
  const commentOn = new Map<string, string>();
  for (const entry of entries) {
    const op = entry.comment;
    if (entry.kind === 'comment' && op?.op === 'add' && 'changeId' in op.target) commentOn.set(op.commentId, op.target.changeId);
  }
  return { review, decided: state.decided, comments, commentOn };
}
