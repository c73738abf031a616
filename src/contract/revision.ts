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
  move: z
    .literal(true)
    .optional()
    .describe(
      'Present on a move: one change made of both halves (where the text was and where it is; kind delete when the source comes ' +
        'first, insert when the destination does). Deciding it decides both. Shown as one "Move" entry.',
    ),
  group: z
    .string()
    .optional()
    .describe(
      'The edit this change belongs to, as Word shows one edit: the change_id of its first member. Changes of one group are ' +
        'consecutive in document order, by the same author at the same date, with no untracked content between them (a deletion ' +
        'beside an insertion, a paragraph\'s text and its mark, a row with its content). A change alone is a group of its own.',
    ),
  clause: z
    .string()
    .nullable()
    .optional()
    .describe(
      'The list label of the paragraph the change is in, as Word shows it, with the levels above it that the label does not repeat ' +
        '("7.3(a)"); null when that paragraph is not numbered (or is a bullet).',
    ),
  group_summary: z
    .string()
    .optional()
    .describe('How the whole group reads: "Replaced \'x\' with \'y\'", "Inserted \'x\'", "Deleted row: \'x\'", or a lone change\'s text_preview. The same on every member.'),
});
export type Revision = z.infer<typeof Revision>;
