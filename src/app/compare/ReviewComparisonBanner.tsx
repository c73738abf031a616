import { parseComparisonArtifactId, UNTRACKED_EDIT_AUTHOR } from '../../contract/compare';
import type { DocumentRow } from '../../contract/document';
import { useComparisonSummary, useUpload } from '../api/compare';
import { optionsSentence } from './compare-settings';
import { pendingSentence } from './pending-sentence';
import { UntrackedWarning } from './UntrackedWarning';

/**
 * The top of the review page for a draft made from a version: what the draft is when a
 * comparison made it, and the untracked-edit warning of the version it was made from.
 */
/** `changes`: how many changes the draft's track holds (decided ones included). */
export function ReviewComparisonBanner({ draft, changes }: { draft: DocumentRow; changes: number }) {
  const comparison = parseComparisonArtifactId(draft.artifactId);
  const source = useUpload(draft.parentUploadId).data ?? null;
  const against = useUpload(comparison?.kind === 'compare' ? comparison.against : null).data ?? null;
  const summaryQuery = useComparisonSummary(comparison ? draft.id : null);
  const summary = summaryQuery.data ?? null;
  // The summary's counts replace the draft's: wait for it rather than show one count, then another.
  if (!source || (comparison && summaryQuery.isPending)) return null;
  const options = summary ? optionsSentence(summary.options) : '';
  const pending = summary && (
    <span data-testid="comparison-pending" className="block text-xs md:text-sm">
      {pendingSentence(summary.pending, against ? `v${against.documentVersion}` : 'the older version', `v${source.documentVersion}`, summary.author)}
      {options && <span data-testid="comparison-options" className="block">Options: {options}.</span>}
    </span>
  );
  if (comparison?.kind === 'untracked') {
    return (
      <p role="status" data-testid="comparison-banner" className="border-b border-line bg-open-soft px-4 py-1.5 text-sm text-open max-md:truncate max-md:px-3 max-md:py-1 max-md:text-xs">
        Changes by “{UNTRACKED_EDIT_AUTHOR}” are the edits made in v{source.documentVersion} without tracking; the others are tracked changes it came with.
      </p>
    );
  }
  return (
    <>
      {comparison?.kind === 'compare' && (
        <p role="status" data-testid="comparison-banner" className="border-b border-line bg-paper px-4 py-1.5 text-sm text-ink-soft max-md:truncate max-md:px-3 max-md:py-1 max-md:text-xs">
          {changes === 0
            ? `No differences: v${source.documentVersion} is identical to ${against ? `v${against.documentVersion}` : 'the version it was compared with'}.`
            : comparedSentence(source.documentVersion, against?.documentVersion ?? null, summary ? { entries: summary.entries, author: summary.author } : { entries: changes, author: null })}
          {pending}
        </p>
      )}
      {/* A comparison with the version it was added to shows its untracked edits as its own changes: no second draft of them is offered. */}
      <UntrackedWarning version={source} banner shownBy={comparison?.kind === 'compare' && comparison.against === source.parentUploadId ? (summary?.author ?? 'Comparison') : null} />
    </>
  );
}

/**
 * "Comparison: what changed in v2 since v1, as 2 changes by “Comparison”." The count is the list's
 * (entries: a replaced word is one); without the comparison's summary, the draft's own count.
 */
export function comparedSentence(newer: number, older: number | null, made: { entries: number; author: string | null }): string {
  const what = `${made.entries} ${made.author ? '' : 'tracked '}change${made.entries === 1 ? '' : 's'}${made.author ? ` by “${made.author}”` : ''}`;
  return `Comparison: what changed in v${newer} since ${older === null ? 'the older version' : `v${older}`}, as ${what}.`;
}
