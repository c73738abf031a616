import { z } from 'zod';

/**
 * Reading a draft side by side (issue 34.5): the older version on the left, the redline on the
 * right, scrolled together paragraph by paragraph.
 */

/**
 * Bookmarks starting each paragraph of the two views, with its place after the prefix
 * ("_rlsbr_12"): docx-preview renders each as an empty <span id>, which is how the app finds a
 * paragraph on either side. Unlike every other `_rl` name, so the marks the app reads
 * (bookmark.ts) never take one for theirs.
 */
export const REDLINE_PARAGRAPH_PREFIX = '_rlsbr_';
export const OLDER_PARAGRAPH_PREFIX = '_rlsbo_';

/** GET /documents/{documentId}/side-by-side. */
export const SideBySideAnswer = z.object({
  documentId: z.string(),
  contentSha256: z.string().describe('The draft content the views were made from: they change with each decision.'),
  older: z.object({
    kind: z.enum(['compared', 'previous', 'rejected']).describe(
      'compared: the older version a comparison was made against; previous: the version an untracked-edit draft was checked against; ' +
      'rejected: the draft as it reads with every tracked change rejected (a draft no comparison made).'),
    uploadId: z.string().nullable().describe('The older upload, for a comparison or an untracked-edit draft.'),
    version: z.number().int().positive().nullable().describe('Its version number in the series, when it is one.'),
    contentBase64: z.string().describe('The draft\'s rejected view (a .docx), each paragraph of its main part starting with a bookmark `' + OLDER_PARAGRAPH_PREFIX + '<j>`. Before any decision it reads as the older version; a change already decided reads as decided.'),
    paragraphs: z.number().int().nonnegative().describe('How many paragraphs its main part holds.'),
  }),
  redline: z.object({
    contentBase64: z.string().describe('The draft\'s render variant (as GET render), each paragraph of its main part starting with a bookmark `' + REDLINE_PARAGRAPH_PREFIX + '<i>`.'),
    olderParagraph: z.array(z.number().int().nonnegative().nullable()).describe(
      'For each paragraph i of the redline\'s main part (document order, in tables too), the older paragraph it comes from; null when the redline inserted all of it. Never decreasing.'),
  }),
});
export type SideBySideAnswer = z.infer<typeof SideBySideAnswer>;
