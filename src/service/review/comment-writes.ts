import type { Comment, CommentsResponse } from '../../contract/comments';
import { findUserById } from '../auth/directory';
import { NO_TIMING, type ServerTiming } from '../http/server-timing';
import { performCommentOp, type CommentOp } from './comment-ops';
import { commentProblem } from './comment-problems';
import { requireDraft, type Actor, type ReviewParts } from './review-parts';
import { engineProblem } from './review-problems';
import { readUpload } from './upload-reads';

// Comments (issue 14; routes in routes/comment-routes.ts).

/**
 * A comment write: `makeOp` (given the signed-in user's name as author) says what to write; it is
 * performed on the open draft, and the new content is committed like a batch, through the same
 * per-draft queue and row-locked commit, and recorded in the decision log as a 'comment' entry
 * (no decisions), so undo can write it again on the content an undo restores. Bad input (an
 * unknown change or comment, an anchor that does not occur) changes nothing.
 */
export async function writeComment(parts: ReviewParts, actor: Actor, uploadId: string, makeOp: (author: string) => CommentOp, timing: ServerTiming = NO_TIMING): Promise<CommentsResponse> {
  await timing.measure('load', () => requireDraft(parts, actor, uploadId));
  const op = makeOp((await findUserById(parts.db, actor.userId))?.name ?? 'Redline user');
  let written = '';
  let comments: Comment[] = [];
  const result = await parts.commits.change(actor, uploadId, timing, undefined, async ({ row, bytes }) => {
    const doc = parts.reads.openDraft(row.content_sha256!, bytes, timing);
    try {
      written = timing.measureSync('comment', () => performCommentOp(doc, op));
    } catch (error) {
      throw commentProblem(error) ?? engineProblem(error);
    }
    comments = timing.measureSync('comment', () => doc.comments());
    const logged: CommentOp = op.op === 'resolve' ? op : { ...op, commentId: written };
    return { doc, ...(await parts.answers.writeAndAnalyse(doc, timing)), log: { kind: 'comment', undoesSeq: null, accepted: [], rejected: [], decided: {}, withdrawn: {}, comment: logged } };
  });
  return { ...(await parts.answers.answer(result, timing)), comments, commentId: written };
}

/** The comments of a document (any version: an original's comments are readable too). */
export async function commentsOf(parts: ReviewParts, actor: Actor, uploadId: string): Promise<Comment[]> {
  return (await readUpload(parts, actor, uploadId, (doc) => doc.comments())).value;
}
