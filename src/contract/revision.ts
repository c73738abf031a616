import { z } from 'zod';

/**
 * The ten kinds of tracked revision the interface names. The order here is the
 * order the interface lists them in; nothing depends on it.
 */
export const REVISION_KINDS = [
  'insert',
  'delete',
  'paragraph_mark',
  'proposed',
  'r-prop-change',
  'p-prop-change',
  'tbl-prop-change',
  'tr-prop-change',
  'tc-prop-change',
  'sect-prop-change',
] as const;

export const RevisionKind = z.enum(REVISION_KINDS);
export type RevisionKind = z.infer<typeof RevisionKind>;

/** One tracked change in a working draft (the interface's Revision resource). */
export const Revision = z.object({
  ordinal: z.number().int().positive().describe('1-based position of the change in document order.'),
  change_id: z.string().min(1).describe('Stable id; pass it in accepted_change_ids or rejected_change_ids.'),
  kind: RevisionKind,
  author: z.string().nullable().optional(),
  date: z.string().nullable().optional(),
  text_preview: z.string().describe('Short excerpt of the changed text, or a description of a formatting change.'),
  justification: z.string().nullable().optional(),
  document_wide: z
    .literal(true)
    .optional()
    .describe('Present on changes in the styles or numbering parts: they apply to the whole document and have no place in its text.'),
});
export type Revision = z.infer<typeof Revision>;
