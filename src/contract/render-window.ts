import { z } from 'zod';
import { clientString } from './client-text';

/**
 * Query of GET /documents/{id}/render-window: the render variant cut to the body blocks
 * around one change, so the app can show the pages a reviewer is at before the whole of a
 * long draft is laid out.
 */
export const RenderWindowQuery = z.object({
  around: clientString().min(1).max(200).optional().describe('A change_id; absent: the start of the document, or where `at` says.'),
  // So a page that opens a draft asks for its first window beside the review read, before it knows the track.
  at: z.enum(['here']).optional().describe("Without `around`: `here` is the change the review opens at (the track's hereId, else its first change, as its entry's leader); the start when there is none or it has no place in the body (a header's, a style's)."),
  blocks: z.coerce.number().int().min(10).max(1000).optional().describe('Body blocks (paragraphs, tables) on each side; default 80.'),
});
export type RenderWindowQuery = z.infer<typeof RenderWindowQuery>;

/** Response header: the index of the window's first block and the body's block count, "first/total". */
export const RENDER_WINDOW_HEADER = 'x-render-window';
