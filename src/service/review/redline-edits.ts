import type { RedlineEditsBody } from '../../contract/review';
import { findUserById } from '../auth/directory';
import type { RedlineWritten } from '../engine/engine-threads';
import { NO_TIMING, type ServerTiming } from '../http/server-timing';
import { sha256Hex } from '../store/content-store';
import { toBase64 } from './analysis-cache';
import { addThreadsToEdits } from './comment-ops';
import type { IdempotentRequest } from './idempotency';
import { requireListingVersion } from './listing-delta';
import { requireDraft, type Actor, type AnswerShape, type ApplyAnswerOf, type ReviewParts } from './review-parts';
import { engineProblem } from './review-problems';

/**
 * Batches of at least this many edits are written on an engine thread: the batch's own work is
 * small (each story is indexed once), but reading the draft's blocks, writing it and building its
 * render variant take a second or more on a long draft, which would hold every other request.
 * Smaller batches are written here, on the draft kept open, which answers sooner.
 */
const HEAVY_EDIT_BATCH = 50;

/**
 * Writes tracked changes on the user's behalf, recording each one's justification. `ifMatch`: the
 * listing version the client holds; the edits are written only on it (else 412), and a minimal answer is the delta from it.
 */
export async function redlineEdits<S extends AnswerShape = 'full'>(
  parts: ReviewParts, actor: Actor, uploadId: string, body: RedlineEditsBody, timing: ServerTiming = NO_TIMING, idempotency?: IdempotentRequest,
  threads?: readonly (readonly string[] | undefined)[], shape?: S, ifMatch?: string,
): Promise<ApplyAnswerOf<S>> {
  await timing.measure('load', () => requireDraft(parts, actor, uploadId));
  const author = body.author ?? (await findUserById(parts.db, actor.userId))?.name ?? 'Redline user';
  const result = await parts.commits.change(actor, uploadId, timing, idempotency, async ({ row, state, bytes }) => {
    requireListingVersion(ifMatch, row.content_sha256!, state.lastSeq);
    const date = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const proposalsOf = (changes: { editIndex: number; changeIds: string[] }[]) =>
      changes.flatMap((c) => c.changeIds.map((changeId) => ({ changeId, justification: body.edits[c.editIndex]?.justification ?? null })));
    // A log entry too, so the draft's viewers see the new changes arrive like any other change.
    const logOf = (proposals: { changeId: string }[]) =>
      ({ kind: 'redline' as const, undoesSeq: null, accepted: [], rejected: [], decided: {}, withdrawn: {}, proposed: proposals.map((p) => p.changeId) });
    if (parts.threads && body.edits.length >= HEAVY_EDIT_BATCH) {
      // Off this thread: the draft is read, edited, written and analysed on an engine thread.
      let written: RedlineWritten;
      try {
        written = await timing.measure('redline', () => parts.threads!.redline(bytes, body.edits, { author, date }, threads ? [...threads] : null, shape !== 'minimal', { orgId: actor.orgId }));
        // The engine thread's own time (reading, editing, writing and analysing the draft); the rest of `redline` waited for it.
        timing.add('engine', written.engineMs);
      } catch (error) {
        throw engineProblem(error);
      }
      const proposals = proposalsOf(written.changes);
      // The track's readings of the new content, read there: the answer opens nothing here.
      parts.baselines.remember(sha256Hex(written.bytes), written.readings);
      const analysis = shape === 'minimal' ? undefined
        : Promise.resolve({ revisions: written.revisions, contentBase64: toBase64(written.bytes), renderContentBase64: written.render && toBase64(written.render) });
      return { doc: null, bytes: written.bytes, capsChecked: true, ...(analysis ? { analysis } : { revisions: written.revisions }), proposals, log: logOf(proposals) };
    }
    const doc = parts.reads.openDraft(row.content_sha256!, bytes, timing);
    let changes: { editIndex: number; changeIds: string[] }[];
    try {
      changes = timing.measureSync('redline', () => doc.writeRedlines(body.edits, { author, date }));
      // Comment threads the assistant gave its proposals (MCP propose_redlines), in the same commit.
      if (threads) timing.measureSync('comment', () => addThreadsToEdits(doc, changes, threads, { author, date }));
    } catch (error) {
      throw engineProblem(error);
    }
    const proposals = proposalsOf(changes);
    return { doc, ...(await parts.answers.writeAndAnalyse(doc, timing, shape)), proposals, log: logOf(proposals) };
  });
  return parts.answers.answer(result, timing, idempotency, shape, ifMatch);
}
