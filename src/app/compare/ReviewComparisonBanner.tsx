import { useState, type ReactNode } from 'react';
import { parseComparisonArtifactId, UNTRACKED_EDIT_AUTHOR } from '../../contract/compare';
import type { DocumentRow } from '../../contract/document';
import { useComparisonSummary, useUpload } from '../api/compare';
import { optionsSentence } from './compare-settings';
import { comparedSentence, shortComparedSentence } from './compared-sentence';
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
      <BannerText tone="open" short={`v${source.documentVersion}'s untracked edits, by “${UNTRACKED_EDIT_AUTHOR}”`}>
        Changes by “{UNTRACKED_EDIT_AUTHOR}” are the edits made in v{source.documentVersion} without tracking; the others are tracked changes it came with.
      </BannerText>
    );
  }
  return (
    <>
      {comparison?.kind === 'compare' && (
        <BannerText tone="paper" short={shortComparedSentence(source.documentVersion, against?.documentVersion ?? null, changes === 0 ? 0 : summary?.entries ?? changes, summary?.pending.kept ?? 0)}>
          {changes === 0
            ? `No differences: v${source.documentVersion} is identical to ${against ? `v${against.documentVersion}` : 'the version it was compared with'}.`
            : comparedSentence(source.documentVersion, against?.documentVersion ?? null, summary ? { entries: summary.entries, author: summary.author } : { entries: changes, author: null })}
          {pending}
        </BannerText>
      )}
      {/* A comparison with the version it was added to shows its untracked edits as its own changes: no second draft of them is offered. */}
      <UntrackedWarning version={source} banner shownBy={comparison?.kind === 'compare' && comparison.against === source.parentUploadId ? (summary?.author ?? 'Comparison') : null} />
    </>
  );
}

/**
 * The banner's text. From 768 px up it is shown whole; on a phone it would take four lines of
 * the document's height, and cut to one line it lost what a lawyer needs (which pending changes
 * stay pending), so a phone shows one line that says the essentials and a button for the rest.
 */
function BannerText({ tone, short, children }: { tone: 'paper' | 'open'; short: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const colours = tone === 'open' ? 'bg-open-soft text-open' : 'bg-paper text-ink-soft';
  return (
    <div role="status" data-testid="comparison-banner" className={`border-b border-line px-4 py-1.5 text-sm max-md:px-3 max-md:py-1 max-md:text-xs ${colours}`}>
      <p className="flex items-baseline gap-2 md:hidden">
        <span className="min-w-0 flex-1 truncate" aria-hidden={open}>{short}</span>
        <button type="button" className="shrink-0 underline" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Less' : 'Details'}
        </button>
      </p>
      <p data-testid="comparison-banner-text" className={open ? '' : 'max-md:hidden'}>{children}</p>
    </div>
  );
}
