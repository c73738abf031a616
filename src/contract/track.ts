import { z } from 'zod';
import { Timestamp } from './document';

/** open = undecided, in = accepted, back = rejected. */
export const TrackState = z.enum(['open', 'in', 'back']);
export type TrackState = z.infer<typeof TrackState>;

export const TrackItem = z.object({
  id: z.string().describe("The change's change_id."),
  state: TrackState,
  label: z.string().describe('Positional label, "Change <n>".'),
  kind: z.string().nullable().optional(),
  textPreview: z.string().optional(),
  justification: z.string().nullable().optional().describe('Open entries only.'),
  author: z.string().nullable().optional(),
  date: z.string().nullable().optional().describe('Open entries only.'),
  decidedAt: Timestamp.optional().describe('Decided entries only.'),
  decidedByUserId: z.string().nullable().optional().describe('Decided entries only.'),
  note: z.string().nullable().optional().describe('Decided entries only: the note recorded with the decision (apply `notes`, or added later).'),
  proposedByUserId: z.string().nullable().optional()
    .describe('Open entries written through redline edits: the user they were written for (who may withdraw them).'),
  documentWide: z.literal(true).optional().describe('A change in the styles or numbering parts (open entries): no place in the text.'),
});
export type TrackItem = z.infer<typeof TrackItem>;

export const TrackCounts = z.object({
  open: z.number().int(),
  in: z.number().int(),
  back: z.number().int(),
  total: z.number().int().optional(),
});
export type TrackCounts = z.infer<typeof TrackCounts>;

export const Track = z.object({
  items: z.array(TrackItem),
  hereId: z.string().nullable().describe('Id of the first open item; null when nothing is open.'),
  counts: TrackCounts,
});
export type Track = z.infer<typeof Track>;

/** The label of the item at 0-based position `index`. */
export function trackLabel(index: number): string {
  return `Change ${index + 1}`;
}
