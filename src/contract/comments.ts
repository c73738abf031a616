import { z } from 'zod';
import { clientString } from './client-text';
import { ReviewResponse } from './review';

/** Longest comment or reply accepted, in characters. */
export const MAX_COMMENT_CHARS = 10_000;

export const CommentText = clientString().trim().min(1, 'a comment needs some text').max(MAX_COMMENT_CHARS, `at most ${MAX_COMMENT_CHARS.toLocaleString('en')} characters`);

/**
 * One Word comment of a working draft (a thread's first comment, or a reply in it). Read from the
 * draft itself (word/comments.xml, with threads and resolved state from commentsExtended.xml), so
 * comments of uploaded files appear with their own authors and dates.
 */
export const Comment = z.object({
  id: z.string().describe('The comment\'s w:id in word/comments.xml; stable for the life of the draft.'),
  parentId: z.string().nullable().describe('The comment this one replies to; null for a thread\'s first comment.'),
  author: z.string(),
  initials: z.string().nullable(),
  date: z.string().nullable().describe('As written in the file (ISO 8601).'),
  text: z.string(),
  resolved: z.boolean().describe('The thread is marked done (w15:done); a reply shares its thread\'s state.'),
  changeIds: z.array(z.string()).describe('Tracked changes within the comment\'s range, in document order.'),
  anchorText: z.string().describe('The text the comment\'s range covers (clipped); empty for a point comment.'),
  justification: z.boolean().describe('This comment is the justification of the change it is anchored exactly on (shown as the change\'s justification).'),
});
export type Comment = z.infer<typeof Comment>;

export const TextAnchor = z.strictObject({
  find: clientString().min(1).max(10_000).describe('Exact text within one paragraph of the main document (may run across formatting).'),
  occurrence: z.number().int().min(1).optional().describe('1-based occurrence in document order; default 1.'),
});
export type TextAnchor = z.infer<typeof TextAnchor>;

/** Body of POST /documents/{id}/comments: on a change, or on a text anchor; exactly one of them. */
export const AddCommentBody = z
  .strictObject({
    changeId: clientString().min(1).max(200).optional(),
    anchor: TextAnchor.optional(),
    text: CommentText,
  })
  .refine((b) => (b.changeId === undefined) !== (b.anchor === undefined), { message: 'give either changeId or anchor, not both or neither', path: ['changeId'] });
export type AddCommentBody = z.infer<typeof AddCommentBody>;

export const ReplyBody = z.strictObject({ text: CommentText });
export type ReplyBody = z.infer<typeof ReplyBody>;

export const ResolveCommentBody = z.strictObject({ resolved: z.boolean() });
export type ResolveCommentBody = z.infer<typeof ResolveCommentBody>;

export const CommentList = z.object({ comments: z.array(Comment) });
export type CommentList = z.infer<typeof CommentList>;

/** Answer of the comment routes: the review answer plus the draft's comments (and the one written, if any). */
export const CommentsResponse = ReviewResponse.extend({
  comments: z.array(Comment),
  commentId: z.string().optional().describe('The comment or reply this request wrote.'),
});
export type CommentsResponse = z.infer<typeof CommentsResponse>;

/** Query of the draft download: as it stands (redline), or a clean copy with every open change accepted. */
export const DraftDownloadQuery = z.strictObject({
  variant: z.enum(['redline', 'clean']).default('redline').describe('redline: the draft as it stands; clean: every open change accepted.'),
  comments: z.enum(['keep', 'remove']).default('keep').describe('Keep the comments, or remove them all.'),
});
export type DraftDownloadQuery = z.infer<typeof DraftDownloadQuery>;

/**
 * The bookmarks the render variant places where a comment's range starts and ends, so the app can
 * highlight the text between them (docx-preview renders each bookmark start as `<span id=NAME>`).
 * Engine and app both call this; never spell the names elsewhere.
 */
export function commentRangeBookmarks(commentId: string): { start: string; end: string } {
  const safe = commentId.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 30);
  return { start: `_rlcs_${safe}`, end: `_rlce_${safe}` };
}
