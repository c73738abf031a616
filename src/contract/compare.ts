import { z } from 'zod';
import { clientString } from './client-text';
import { DraftProgress } from './draft-progress';
import { RevisionKind } from './revision';

/**
 * Comparing two versions into a redline, and the untracked-edit check of a new version
 * (issue 12). The Document row keeps its 19 fields: what a comparison found travels in
 * the `Redline-Changes` header (created drafts) or in the untracked report.
 */

/**
 * How the pending tracked changes the two versions carry are treated (issue 34):
 * - `pending` (default): the newer version's pending changes stay tracked under their own authors
 *   and dates beside the comparison's; an older version's pending change the newer one no longer
 *   holds pending (accepted, rejected or edited away without tracking) is itself a difference.
 * - `accepted`: both read as if every change were accepted, as Word compares; none is kept.
 * - `rejected`: both read as if every change were rejected; none is kept.
 */
export const CompareView = z.enum(['pending', 'accepted', 'rejected']);
export type CompareView = z.infer<typeof CompareView>;

/** Which stories besides the body a comparison compares; one left out keeps the newer version's content as it is. Comments are never compared: the newer version's stand as they are. */
export const CompareStories = z.strictObject({
  headersFooters: z.boolean().optional().describe('Headers and footers (default true).'),
  notes: z.boolean().optional().describe('Footnotes and endnotes (default true).'),
  textBoxes: z.boolean().optional().describe('Text in text boxes (default true).'),
});
export type CompareStories = z.infer<typeof CompareStories>;

/** Word's compare options (Review > Compare > More). */
export const WordCompareOptions = z.strictObject({
  granularity: z.enum(['word', 'character']).optional().describe('Show changes at word level (default: a changed letter marks its whole word) or character level.'),
  ignoreCase: z.boolean().optional().describe('Text that differs only in upper and lower case is no difference (default false).'),
  ignoreWhitespace: z.boolean().optional().describe('Text that differs only in the amount or kind of white space (spaces, tabs, non-breaking spaces, line breaks) is no difference (default false).'),
  ignoreFormatting: z.boolean().optional().describe('No formatting change (run, paragraph, table, section, numbering) is listed; the text is compared as usual (default false).'),
  moves: z.boolean().optional().describe('Detect moved paragraphs and passages as moves (default true); false: a deletion and an insertion.'),
  stories: CompareStories.optional().describe('Which stories besides the body are compared (all by default).'),
});
export type WordCompareOptions = z.infer<typeof WordCompareOptions>;

/** The options with every default filled in: what a comparison was made with. */
export const ResolvedCompareOptions = z.object({
  granularity: z.enum(['word', 'character']),
  ignoreCase: z.boolean(),
  ignoreWhitespace: z.boolean(),
  ignoreFormatting: z.boolean(),
  moves: z.boolean(),
  stories: z.object({ headersFooters: z.boolean(), notes: z.boolean(), textBoxes: z.boolean() }),
});
export type ResolvedCompareOptions = z.infer<typeof ResolvedCompareOptions>;

export function resolveCompareOptions(options: WordCompareOptions = {}): ResolvedCompareOptions {
  return {
    granularity: options.granularity ?? 'word',
    ignoreCase: options.ignoreCase ?? false,
    ignoreWhitespace: options.ignoreWhitespace ?? false,
    ignoreFormatting: options.ignoreFormatting ?? false,
    moves: options.moves ?? true,
    stories: { headersFooters: options.stories?.headersFooters ?? true, notes: options.stories?.notes ?? true, textBoxes: options.stories?.textBoxes ?? true },
  };
}

export const CompareBody = z.strictObject({
  against: clientString().min(1).max(200).describe('The older upload to compare {uploadId} with (same organisation).'),
  author: clientString().trim().min(1).max(200).optional().describe('Author of the tracked changes; default "Comparison".'),
  view: CompareView.optional().describe(
    '"pending" (default): the newer version\'s pending tracked changes stay tracked under their own authors, and an older version\'s pending change the newer one no longer holds pending is a difference; ' +
    '"accepted": both compared as if every tracked change were accepted (as Word compares); "rejected": as if every one were rejected.'),
  options: WordCompareOptions.optional().describe('Word\'s compare options; every one has its default when left out.'),
});
export type CompareBody = z.infer<typeof CompareBody>;

/** What a comparison did with the pending tracked changes each version held (counted in entries, as a review lists them). */
export const ComparisonPending = z.object({
  treatment: z.enum(['kept', 'accepted', 'rejected']).describe('kept: the newer version\'s pending changes are in the draft under their own authors; accepted / rejected: both versions were read so, and no pending change is in the draft.'),
  older: z.number().int().nonnegative().describe('Pending tracked changes the older version held.'),
  newer: z.number().int().nonnegative().describe('Pending tracked changes the newer version held.'),
  kept: z.number().int().nonnegative().describe('Of the newer version\'s, how many the draft keeps tracked under their own authors.'),
  olderStillPending: z.number().int().nonnegative().describe('Of the older version\'s, how many the newer version still holds pending (no difference).'),
  olderResolved: z.number().int().nonnegative().describe('Of the older version\'s, how many the newer version no longer holds pending: each shown as a difference by the comparison.'),
});
export type ComparisonPending = z.infer<typeof ComparisonPending>;

/** GET /uploads/{id}/comparison: what made a working draft that a comparison made. */
export const ComparisonSummary = z.object({
  draftId: z.string(),
  kind: z.enum(['compare', 'untracked']),
  uploadId: z.string().describe('The newer version compared (the draft\'s parent).'),
  against: z.string().describe('The older version it was compared with.'),
  view: CompareView,
  author: z.string().describe('Author of the comparison\'s tracked changes.'),
  changes: z.number().int().nonnegative().describe('Changes the comparison wrote (the Redline-Changes header): a replaced word is a deletion and an insertion.'),
  entries: z.number().int().nonnegative().describe('How many entries a review lists for them (a replaced word is one).'),
  pending: ComparisonPending,
  options: ResolvedCompareOptions.describe('The compare options it was made with, every default filled in.'),
});
export type ComparisonSummary = z.infer<typeof ComparisonSummary>;

/**
 * The 200 answer of POST /uploads/{id}/compare when the two documents are identical (for the
 * view compared): nothing to review, so no working draft is made and no version is added.
 */
export const ComparisonIdentical = z.object({
  identical: z.literal(true),
  uploadId: z.string().describe('The upload compared ({uploadId}).'),
  against: z.string().describe('The older upload it was compared with.'),
  view: CompareView,
  pending: ComparisonPending.describe('The pending tracked changes each version held, and what the comparison did with them.'),
});
export type ComparisonIdentical = z.infer<typeof ComparisonIdentical>;

/**
 * The 200 answer of POST /uploads/{id}/untracked/working-draft when the version has no untracked
 * edit (its rejected view is the rejected view of the version it was added to): nothing to
 * review, so no working draft is made and no version is added.
 */
export const NoUntrackedEdits = z.object({
  nothingToReview: z.literal(true),
  uploadId: z.string().describe('The version checked ({uploadId}).'),
  against: z.string().describe('The version it was added to, which it was compared with.'),
});
export type NoUntrackedEdits = z.infer<typeof NoUntrackedEdits>;

/**
 * Response header of the routes that create a draft from a comparison: how many differences
 * it wrote as tracked changes (never 0: identical documents answer 200 ComparisonIdentical on a
 * compare, and a version without untracked edits 200 NoUntrackedEdits).
 */
export const CHANGES_HEADER = 'Redline-Changes';

/** The author of the changes an untracked-edit working draft adds. */
export const UNTRACKED_EDIT_AUTHOR = 'Untracked edit';

/** One difference between a version and the one before it that nobody tracked. */
export const UntrackedChange = z.object({
  kind: RevisionKind,
  text_preview: z.string().describe('Short excerpt of the changed text.'),
  story: z.string().describe('The part it is in, e.g. word/document.xml or word/footnotes.xml.'),
  paragraph: z.number().int().nonnegative().describe('0-based paragraph of that part.'),
});
export type UntrackedChange = z.infer<typeof UntrackedChange>;

/** GET /uploads/{id}/untracked, once the check is done. `against: null`: the upload has no previous version. */
export const UntrackedReport = z.object({
  against: z.string().nullable().describe('The previous version compared with (the upload the version was added to).'),
  count: z.number().int().nonnegative().describe('How many changes (`changes`): a replaced word is a deletion and an insertion.'),
  entries: z.number().int().nonnegative().describe('How many entries a review lists for them (a replaced word is one): the count to show a person. Checks stored before entries were counted give `count`.'),
  changes: z.array(UntrackedChange),
  pending: z.object({
    older: z.number().int().nonnegative().describe('Pending tracked changes (entries) the previous version holds.'),
    newer: z.number().int().nonnegative().describe('Pending tracked changes this version holds.'),
  }).nullable().describe('The pending tracked changes of both versions; null without a previous version, or on a check stored before they were counted.'),
});
export type UntrackedReport = z.infer<typeof UntrackedReport>;

/** The 202 answer while the check is still running (with a Retry-After header saying the same). */
export const UntrackedPending = z.object({
  state: z.literal('pending'),
  retryAfterSeconds: z.number().int().positive(),
});
export type UntrackedPending = z.infer<typeof UntrackedPending>;

/**
 * The `artifactId` of a working draft made by a comparison: `compare:<older upload id>` for
 * POST /uploads/{id}/compare, `untracked:<previous version id>` for the untracked-edit draft.
 */
export type ComparisonKind = 'compare' | 'untracked';

export function comparisonArtifactId(kind: ComparisonKind, againstUploadId: string): string {
  return `${kind}:${againstUploadId}`;
}

export function parseComparisonArtifactId(artifactId: string | null): { kind: ComparisonKind; against: string } | null {
  const match = /^(compare|untracked):(.+)$/s.exec(artifactId ?? '');
  return match ? { kind: match[1] as ComparisonKind, against: match[2]! } : null;
}

/**
 * GET /comparisons/progress: each series' newest comparison of its latest uploaded version (a
 * `compare:` draft whose parent is that version), with where its review stands, so the documents
 * page shows it as the review in progress when the version has no review draft (issue 34).
 */
export const ComparisonProgressList = z.object({ items: z.array(DraftProgress) });
export type ComparisonProgressList = z.infer<typeof ComparisonProgressList>;
