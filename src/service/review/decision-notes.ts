import type { ReviewResponse } from '../../contract/review';
import { notFound, ProblemError } from '../http/problem';
import { NO_TIMING, type ServerTiming } from '../http/server-timing';
import { findUpload } from '../uploads/upload-rows';
import { appendLogEntry, loadLog, type NewLogEntry } from './decision-log';
import { requireDraft, type Actor, type ReviewParts } from './review-parts';
import { checkNotes } from './review-problems';
import { replayLog } from './track-projection';

/**
 * Records a note on a decision already in effect (empty text removes it): an appended log
 * entry of kind 'note' that leaves the content as it is, so an undo still finds its batch.
 */
export async function noteDecision(parts: ReviewParts, actor: Actor, uploadId: string, changeId: string, note: string, timing: ServerTiming = NO_TIMING): Promise<ReviewResponse> {
  checkNotes({ [changeId]: note }, new Set([changeId]), true);
  await timing.measure('load', () => requireDraft(parts, actor, uploadId));
  const { row, state } = await parts.commits.queue.run(uploadId, () => timing.measure('commit', () => parts.db.transaction(async (tx) => {
    const locked = await findUpload(tx, actor.orgId, uploadId, true);
    if (!locked) throw notFound('This document');
    const entries = await loadLog(tx, uploadId);
    const before = replayLog(entries);
    if (!before.decided.has(changeId)) {
      throw new ProblemError(422, 'note_without_decision', `${changeId} has no recorded decision to note. Decide it first (or send the note with its decision).`, { ids: [changeId] });
    }
    const entry: NewLogEntry = {
      uploadId, seq: before.lastSeq + 1, kind: 'note', undoesSeq: null, userId: actor.userId, accepted: [], rejected: [],
      decided: {}, withdrawn: {}, notes: { [changeId]: note.trim() }, previousSha256: locked.content_sha256!, nextSha256: locked.content_sha256!,
    };
    await appendLogEntry(tx, entry);
    const committed = [...entries, entry];
    return { row: locked, state: { entries: committed, state: replayLog(committed) } };
  })));
  const analysis = await timing.measure('analyse', () => parts.reads.analysisOf(row));
  return timing.measure('track', () => parts.answers.respond(row, analysis, state));
}
