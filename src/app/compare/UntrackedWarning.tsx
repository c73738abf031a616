import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { DocumentRow } from '../../contract/document';
import { useUntrackedCheck, useUntrackedWorkingDraft } from '../api/compare';
import { describeError } from '../api/client';

/** "4 edits in v5 were made without tracking", counted in entries as the review lists them (a replaced word is one edit). */
export function untrackedSentence(count: number, version: number): string {
  return `${count} edit${count === 1 ? '' : 's'} in v${version} ${count === 1 ? 'was' : 'were'} made without tracking`;
}

/** Only a version added to a series is checked (against the version it was added to). */
export function isCheckedVersion(row: Pick<DocumentRow, 'versionKind' | 'parentUploadId'>): boolean {
  return row.versionKind === 'original' && row.parentUploadId !== null;
}

/**
 * The warning a version carries when its untracked check found edits, with the one action that
 * matters: a working draft where those edits are tracked changes (author "Untracked edit")
 * beside the counterparty's own, opened in review. Renders nothing while the check runs or
 * when it found nothing. `banner`: the full-width form at the top of the review page.
 */
export function UntrackedWarning({ version, banner = false, existing = null, shownBy = null }: {
  version: DocumentRow;
  banner?: boolean;
  /** A draft of those edits made already: the action opens it, so each click does not add another to the series. */
  existing?: DocumentRow | null;
  /** The page shows those edits already, as changes by this author (a comparison with the version it was added to): no action, only where they are. */
  shownBy?: string | null;
}) {
  const check = useUntrackedCheck(isCheckedVersion(version) ? version.id : null);
  const draft = useUntrackedWorkingDraft();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [nothing, setNothing] = useState(false);
  const report = check.data?.state === 'ready' ? check.data.report : null;
  if (!report || report.count === 0) return null;

  async function review() {
    setError(null);
    try {
      const made = await draft.mutateAsync(version.id);
      // The draft's comparison found no untracked edit (the check is stored once; the version a
      // version was added to could change since, when working drafts could be one): say so here
      // rather than open a draft with nothing to review. None was made.
      if ('nothingToReview' in made) return setNothing(true);
      navigate(`/documents/${made.document.id}`);
    } catch (failure) {
      setError(`Could not make the draft: ${describeError(failure)}`);
    }
  }

  const sentence = untrackedSentence(report.entries, version.documentVersion);
  if (shownBy) {
    return (
      <p role="status" data-testid="untracked-warning" className="border-b border-open bg-open-soft px-4 py-1.5 text-sm text-open">
        <span aria-hidden="true">⚠ </span>
        <span className="font-medium">{sentence}</span>: {report.entries === 1 ? 'it is' : 'they are'} among the changes by “{shownBy}” below.
      </p>
    );
  }
  if (nothing) {
    return (
      <p role="status" data-testid="untracked-warning" className={banner ? 'border-b border-line px-4 py-1.5 text-sm' : 'mt-1 text-xs text-ink-soft'}>
        No untracked edits in v{version.documentVersion}: nothing to review.
      </p>
    );
  }
  return (
    <div
      role="status"
      data-testid="untracked-warning"
      className={banner
        ? 'flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-open bg-open-soft px-4 py-1.5 text-sm text-open max-md:flex-nowrap max-md:px-3 max-md:py-0 max-md:text-xs'
        : 'mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 rounded border border-open bg-open-soft px-2 py-1 text-xs text-open'}
    >
      {/* The sign keeps to the sentence's first line: in the documents page's narrow column the sentence wraps beside it, never under it. */}
      <span className="flex min-w-0 items-baseline gap-1.5">
        <span aria-hidden="true" className="shrink-0">⚠</span>
        {/* As a banner on a phone, one line beside its action: the sentence is cut, the action stays. */}
        <span className={`font-medium ${banner ? 'max-md:truncate' : ''}`} title={banner ? `${sentence}.` : undefined}>{sentence}.</span>
      </span>
      {existing ? (
        <Link className={`btn ${banner ? '' : 'px-1.5 py-0 text-xs'}`} to={`/documents/${existing.id}`}>Review them as tracked changes</Link>
      ) : (
        <button type="button" className={`btn ${banner ? '' : 'px-1.5 py-0 text-xs'}`} onClick={() => void review()} disabled={draft.isPending}>
          {draft.isPending ? 'Preparing…' : 'Review them as tracked changes'}
        </button>
      )}
      {error && <span role="alert" className="text-danger">{error}</span>}
    </div>
  );
}
