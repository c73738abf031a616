import { z } from 'zod';
import { Timestamp } from './document';
import { TrackCounts } from './track';

/**
 * Where the review of one working draft stands, for the documents page: the review of every
 * series' latest version in one answer, so the page makes one request however many matters
 * it lists (the 19-field Document row itself does not change).
 */
export const DraftProgress = z.object({
  documentId: z.string().describe(
    "The review of the series' latest uploaded version: its newest working draft made from that version (directly or from such a draft; " +
      'an untracked-edit draft of it included). A draft whose artifactId starts `compare:` (or made from one) is never the progress; ' +
      'a series whose latest version has no such draft has no entry.',
  ),
  documentSeriesId: z.string(),
  counts: TrackCounts.nullable().describe(
    'Decided and open entries, from the track: one per edit group (TrackItem.group; a change with no group is its own), as the review page counts its progress, ' +
      'open while any of its changes is. Null while the draft has not been counted yet (a draft never opened, or changed since); ask again shortly.',
  ),
  lastDecision: z
    .object({
      at: Timestamp,
      kind: z.enum(['decide', 'undo']),
      byUserId: z.string().nullable(),
      byName: z.string().nullable().describe("The deciding member's display name; null once they are gone."),
    })
    .nullable()
    .describe('The newest entry of the decision log (a batch of decisions or an undo); null before the first.'),
  findings: z.number().int().nullable().optional().describe(
    "How many findings the checks (GET /documents/{id}/checks, view accepted) have on the draft's current content: only when already computed " +
      '(the service computes them in the background once a content is stored); null (or absent) until then, ask again shortly.',
  ),
});
export type DraftProgress = z.infer<typeof DraftProgress>;

/** The untracked-edit check (issue 12) of a series' newest checked version. */
export const SeriesUntrackedCheck = z.object({
  documentSeriesId: z.string(),
  uploadId: z.string().describe('The newest version of the series that has a check.'),
  state: z.enum(['running', 'done', 'failed']),
  count: z.number().int().nullable().describe('Edits made without tracking; null until the check is done.'),
});
export type SeriesUntrackedCheck = z.infer<typeof SeriesUntrackedCheck>;

export const DraftProgressList = z.object({
  items: z.array(DraftProgress),
  untracked: z.array(SeriesUntrackedCheck).describe("Each series' newest untracked-edit check, so the page asks only where there is something to show."),
});
export type DraftProgressList = z.infer<typeof DraftProgressList>;
