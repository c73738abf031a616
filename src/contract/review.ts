import { z } from 'zod';
import { DocumentRow } from './document';
import { Revision } from './revision';
import { Track } from './track';

const ChangeIds = z.array(z.string().min(1).max(200)).max(10_000);

/**
 * Notes recorded with a batch's decisions, by change_id. Each must name a change decided in
 * that batch and hold at most NOTE_MAX_CHARS characters (both answered 422 by the service).
 */
export const DecisionNotes = z.record(z.string().min(1).max(200), z.string())
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
export const PREFER_MINIMAL = 'return=minimal';
export const PREFERENCE_APPLIED_HEADER = 'preference-applied';

export const RedlineEdit = z.strictObject({
  op: z.enum(['replace', 'insert', 'delete']),
  find: z.string().min(1).max(10_000),
  occurrence: z.number().int().min(1).optional(),
  text: z.string().max(100_000).optional(),
  position: z.enum(['before', 'after']).optional().describe('op "insert" only: insert the text before or after `find` (default after).'),
  justification: z.string().max(10_000).optional(),
});
export type RedlineEdit = z.infer<typeof RedlineEdit>;

export const RedlineEditsBody = z.strictObject({
  edits: z.array(RedlineEdit).min(1).max(500),
  author: z.string().min(1).max(200).optional(),
});
export type RedlineEditsBody = z.infer<typeof RedlineEditsBody>;
