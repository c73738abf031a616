import { z } from 'zod';
import { clientString } from './client-text';

/**
 * Body of PUT /documents/{id}/decisions/{changeId}/note: a note on a decision already recorded
 * (the app's `n` after the batch was sent). Empty text removes the note. Longer than
 * NOTE_MAX_CHARS answers 422 note_too_long, like the apply body's `notes`.
 */
export const DecisionNoteBody = z.strictObject({
  note: clientString().describe('The note; empty removes it. At most 10,000 characters.'),
});
export type DecisionNoteBody = z.infer<typeof DecisionNoteBody>;
