import { z } from 'zod';
import { clientString } from './client-text';
import { DocumentRow } from './document';
import { Revision } from './revision';
import { Track } from './track';

const ChangeIds = z.array(clientString().min(1).max(200)).max(10_000);

/**
 * Notes recorded with a batch's decisions, by change_id. Each must name a change decided in
 * that batch and hold at most NOTE_MAX_CHARS characters (both answered 422 by the service).
 */
export const DecisionNotes = z.record(clientString().min(1).max(200), clientString())
  .describe('{"<change_id>": "why"}: notes recorded with the decisions of this batch (at most 10,000 characters each).');
export type DecisionNotes = z.infer<typeof DecisionNotes>;
export const NOTE_MAX_CHARS = 10_000;

/**
 * Body of POST /documents/{id}/revisions/apply. `recordDecision` is also accepted as
 * `record_decision`; when both are given they must agree.
 */
export const ApplyRevisionsBody = z
  .strictObject({
    accepted_change_ids: ChangeIds.optional(),
    rejected_change_ids: ChangeIds.optional(),
    recordDecision: z.boolean().optional(),
    record_decision: z.boolean().optional(),
    notes: DecisionNotes.optional(),
  })
  .refine(
    (b) => b.recordDecision === undefined || b.record_decision === undefined || b.recordDecision === b.record_decision,
    { message: 'recordDecision and record_decision disagree', path: ['record_decision'] },
  );
export type ApplyRevisionsBody = z.infer<typeof ApplyRevisionsBody>;

/** Answer of review, apply, undo and redline edits. */
export const ReviewResponse = z.object({
  document: DocumentRow,
  revisions: z.array(Revision),
  contentBase64: z.string(),
  renderContentBase64: z.string().nullable(),
  track: Track.nullable().describe('Null when the decisions store failed to record or load; the apply still succeeded.'),
});
export type ReviewResponse = z.infer<typeof ReviewResponse>;

/**
 * The answer of apply, undo and redline edits to a request saying `Prefer: return=minimal`
 * (RFC 7240): the Document row, the revisions and the track, without the content and its render
 * variant (two encodings of the whole draft). Answered with `Preference-Applied: return=minimal`.
 */
export const ReviewMinimalResponse = ReviewResponse.omit({ contentBase64: true, renderContentBase64: true });
export type ReviewMinimalResponse = z.infer<typeof ReviewMinimalResponse>;
/** The preference (RFC 7240) that asks for ReviewMinimalResponse, and the header that confirms it. */
export { PREFER_MINIMAL } from './opening-reads';
export const PREFERENCE_APPLIED_HEADER = 'preference-applied';

export const REDLINE_OPS = ['replace', 'insert', 'delete', 'insert_paragraph', 'delete_paragraph', 'replace_paragraph'] as const;
const IN_PARAGRAPH_OPS: readonly string[] = ['replace', 'insert', 'delete'];

/** A redline edit's fields; `RedlineEdit` adds the rules between them (extend this, then refine with `checkRedlineEdit`). */
export const RedlineEditFields = z.strictObject({
  op: z.enum(REDLINE_OPS).describe('replace / insert / delete act on `find`; insert_paragraph adds a paragraph after `blockId` with its style and numbering (a new clause), delete_paragraph deletes the block\'s text and its paragraph mark, replace_paragraph replaces its whole text.'),
  find: clientString().min(1).max(10_000).optional().describe('Exact text to act on (required for replace, insert, delete). Without blockId it is searched in the whole draft ("\\n" stands for the boundary between two paragraphs); with blockId only in that paragraph\'s text as it reads without deleted text.'),
  occurrence: z.number().int().min(1).optional().describe('1-based. Without blockId, the n-th occurrence in the draft (default 1); with blockId, required when find occurs more than once in the block (else 422 ambiguous_anchor naming each).'),
  blockId: clientString().min(1).max(200).optional().describe('The paragraph to edit: a block id from GET /uploads/{id}/text or read_document (markup view), of the body, a header, a footer or a note. A comment\'s paragraph is refused with 422 block_in_comment (reply to the comment instead).'),
  blockVersion: clientString().min(1).max(100).optional().describe('The block\'s version as read; if the block changed since, the edit is refused with 409 stale_anchor and nothing is written.'),
  text: clientString().max(100_000).optional(),
  position: z.enum(['before', 'after']).optional().describe('op "insert" only: insert the text before or after `find` (default after).'),
  justification: clientString().max(10_000).optional(),
});

/** Which fields each op needs or refuses. */
export function checkRedlineEdit(e: z.infer<typeof RedlineEditFields>, ctx: z.RefinementCtx): void {
  if (IN_PARAGRAPH_OPS.includes(e.op) && e.find === undefined) ctx.addIssue({ code: 'custom', path: ['find'], message: `op ${e.op} needs find` });
  if (!IN_PARAGRAPH_OPS.includes(e.op) && e.blockId === undefined) ctx.addIssue({ code: 'custom', path: ['blockId'], message: `op ${e.op} needs blockId` });
  if (!IN_PARAGRAPH_OPS.includes(e.op) && e.find !== undefined) ctx.addIssue({ code: 'custom', path: ['find'], message: `op ${e.op} takes no find: it acts on the whole block` });
  if ((e.op === 'insert_paragraph' || e.op === 'replace_paragraph') && !e.text) ctx.addIssue({ code: 'custom', path: ['text'], message: `op ${e.op} needs text` });
  if (e.position !== undefined && e.op !== 'insert') ctx.addIssue({ code: 'custom', path: ['position'], message: 'position is for op insert only' });
}

export const RedlineEdit = RedlineEditFields.superRefine(checkRedlineEdit);
export type RedlineEdit = z.infer<typeof RedlineEdit>;

export const RedlineEditsBody = z.strictObject({
  edits: z.array(RedlineEdit).min(1).max(500),
  author: clientString().min(1).max(200).optional(),
});
export type RedlineEditsBody = z.infer<typeof RedlineEditsBody>;
