import { NOTE_MAX_CHARS } from '../../contract/review';
import { ConflictingChangeIdsError, DocxError, EditAnchorError, EditNotFoundError, UnknownChangeIdsError } from '../../docx';
import { ProblemError } from '../http/problem';
import type { UploadRecord } from '../uploads/upload-rows';
import { docxProblem } from '../uploads/uploads-service';

/** The review's refusals of bad input (RFC 9457 problems with stable codes), checked before anything changes. */

/**
 * The notes of a batch, checked before anything happens: each names a change the batch decides
 * and is at most NOTE_MAX_CHARS long (else 422). Empty notes are dropped; the rest are trimmed.
 */
export function checkNotes(notes: Record<string, string>, decidedHere: ReadonlySet<string>, recordDecision: boolean): Record<string, string> {
  const entries = Object.entries(notes);
  const stray = entries.filter(([id]) => !recordDecision || !decidedHere.has(id)).map(([id]) => id);
  if (stray.length > 0) {
    throw new ProblemError(422, 'note_without_decision',
      `Notes can only go with changes this batch decides (and records); these are not: ${stray.join(', ')}. Nothing was applied.`, { ids: stray });
  }
  const long = entries.filter(([, text]) => text.length > NOTE_MAX_CHARS).map(([id]) => id);
  if (long.length > 0) {
    throw new ProblemError(422, 'note_too_long',
      `A note holds at most ${NOTE_MAX_CHARS.toLocaleString('en')} characters; these are longer: ${long.join(', ')}. Nothing was applied.`, { ids: long });
  }
  return Object.fromEntries(entries.map(([id, text]) => [id, text.trim()] as const).filter(([, text]) => text.length > 0));
}

export function requireWorkingDraft(row: UploadRecord): void {
  if (row.version_kind !== 'working_draft') {
    throw new ProblemError(409, 'not_working_draft', 'Decisions and edits apply only to a working draft; start one from this version first.');
  }
}

/** The engine's refusal as the problem the review answers. */
export function engineProblem(error: unknown): unknown {
  if (error instanceof UnknownChangeIdsError) {
    return new ProblemError(422, 'unknown_change_ids', `This draft has no changes with these ids: ${error.ids.join(', ')}. Nothing was applied.`, { ids: error.ids });
  }
  if (error instanceof ConflictingChangeIdsError) {
    return new ProblemError(400, 'conflicting_change_ids', `These changes are both accepted and rejected: ${error.ids.join(', ')}.`, { ids: error.ids });
  }
  if (error instanceof EditNotFoundError) {
    return new ProblemError(422, 'edit_not_found',
      `Edit ${error.editIndex + 1} found no "${error.find.length > 80 ? `${error.find.slice(0, 80)}…` : error.find}" in the draft. Nothing was changed.`,
      { errors: [{ path: `edits.${error.editIndex}.find`, message: 'matches nothing in the draft' }] });
  }
  if (error instanceof EditAnchorError) {
    return new ProblemError(error.problem === 'stale_anchor' ? 409 : 422, error.problem, `${error.message} Nothing was changed.`, {
      errors: [{ path: `edits.${error.editIndex}.${error.problem === 'block_not_found' || error.problem === 'block_in_comment' || error.problem === 'stale_anchor' ? 'blockId' : 'find'}`, message: error.message }],
      blockId: error.blockId,
      ...(error.blockText !== null ? { blockText: error.blockText } : {}),
      candidates: error.candidates,
    });
  }
  if (error instanceof DocxError) return docxProblem(error);
  return error;
}
