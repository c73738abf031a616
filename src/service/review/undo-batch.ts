import { ProblemError } from '../http/problem';
import { NO_TIMING, type ServerTiming } from '../http/server-timing';
import { performCommentOp } from './comment-ops';
import { commentsToReplay } from './comment-problems';
import type { IdempotentRequest } from './idempotency';
import { requireListingVersion } from './listing-delta';
import { requireDraftIfQueued, type Actor, type AnswerShape, type ApplyAnswerOf, type ReviewParts } from './review-parts';

/**
 * Undoes the newest batch still in effect: its author only, and only if the draft has not changed since.
 * `ifMatch`: the listing version the client holds; the undo happens only on it (else 412), and a minimal answer is the delta from it.
 */
export async function undoLastBatch<S extends AnswerShape = 'full'>(
  parts: ReviewParts, actor: Actor, uploadId: string, timing: ServerTiming = NO_TIMING, idempotency?: IdempotentRequest, shape?: S, ifMatch?: string,
): Promise<ApplyAnswerOf<S>> {
  await timing.measure('load', () => requireDraftIfQueued(parts, actor, uploadId));
  const result = await parts.commits.change(actor, uploadId, timing, idempotency, async ({ row, entries, state }) => {
    requireListingVersion(ifMatch, row.content_sha256!, state.lastSeq);
    const lastSeq = state.effective[state.effective.length - 1];
    const last = entries.find((e) => e.seq === lastSeq);
    if (!last) throw new ProblemError(409, 'nothing_to_undo', 'There is no batch of decisions to undo.');
    if (last.userId !== actor.userId) throw new ProblemError(409, 'conflict', 'The last batch was decided by someone else; only its author can undo it.');
    // Comments written since the batch are written again on the content it restores.
    const replay = commentsToReplay(entries, last, row.content_sha256!);
    if (!replay) {
      throw new ProblemError(409, 'conflict', 'The draft has changed since the last batch (edits or a saved draft), so it can no longer be undone.');
    }
    const previous = await timing.measure('load', () => parts.content.get(last.previousSha256));
    const log = { kind: 'undo' as const, undoesSeq: last.seq, accepted: [], rejected: [], decided: {}, withdrawn: {} };
    if (replay.length === 0) return { doc: null, bytes: previous, log };
    const doc = parts.reads.open(previous);
    for (const op of replay) {
      let id: string;
      try {
        id = performCommentOp(doc, op);
      } catch {
        throw new ProblemError(409, 'conflict', 'A comment written since the last batch cannot be placed on the draft without it, so the batch can no longer be undone.');
      }
      if (id !== op.commentId) throw new ProblemError(409, 'conflict', 'The comments written since the last batch cannot be written again as they were, so the batch can no longer be undone.');
    }
    return { doc, ...(await parts.answers.writeAndAnalyse(doc, timing, shape)), log };
  });
  return parts.answers.answer(result, timing, idempotency, shape, ifMatch);
}
