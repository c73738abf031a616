import { CommentAnchorError, UnknownChangeIdsError, UnknownCommentError } from '../../docx';
import { ProblemError } from '../http/problem';
import type { CommentOp } from './comment-ops';
import type { StoredLogEntry } from './decision-log';

/** The problem answer of a comment write the engine refused (nothing was changed), or null for another failure. */
export function commentProblem(error: unknown): ProblemError | null {
  if (error instanceof UnknownCommentError) {
    return new ProblemError(404, 'comment_not_found', `This draft has no comment ${error.commentId}. Nothing was changed.`, { ids: [error.commentId] });
  }
  if (error instanceof CommentAnchorError) {
    return new ProblemError(422, 'anchor_not_found', `${error.message} Nothing was changed.`, { errors: [{ path: 'anchor', message: 'not in the draft' }] });
  }
  if (error instanceof UnknownChangeIdsError) {
    return new ProblemError(422, 'unknown_change_ids', `This draft has no change ${error.ids.join(', ')}. Nothing was changed.`, { ids: error.ids });
  }
  return null;
}

/**
 * The comment writes to perform again when undoing the batch `last`: every 'comment' entry after
 * it, in order, provided the draft reached its present content from the batch's result through
 * logged entries only (comments, and batches since undone with their undos). Null when something
 * else changed it (redline edits, a saved draft): then the batch can no longer be undone.
 */
export function commentsToReplay(entries: readonly StoredLogEntry[], last: StoredLogEntry, currentSha256: string): CommentOp[] | null {
  const ops: CommentOp[] = [];
  let at = last.nextSha256;
  for (const entry of entries) {
    if (entry.seq <= last.seq) continue;
    if (entry.previousSha256 !== at) return null;
    // Redline edits (logged since the live track) changed the text after the batch: it stands.
    if (entry.kind === 'redline') return null;
    at = entry.nextSha256;
    if (entry.kind === 'comment' && entry.comment) ops.push(entry.comment);
  }
  return at === currentSha256 ? ops : null;
}
