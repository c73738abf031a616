import type { DraftProgress } from '../../contract/draft-progress';
import { formatDateTime, formatRelative } from '../components/format';

/**
 * How far the review of a series' draft has got: "12 of 40 decided" with a thin bar, the open
 * count, and who decided last and when. The bar is decoration: the words carry the meaning.
 */
export function DraftProgressSummary({ progress, hasDraft, now, noDraft = 'No working draft yet' }: {
  progress: DraftProgress | null;
  hasDraft: boolean;
  now: number;
  /** What stands in for the progress when there is no draft. */
  noDraft?: string;
}) {
  if (!hasDraft) return <p className="text-sm text-ink-soft">{noDraft}</p>;
  const counts = progress?.counts ?? null;
  if (!counts) return <p className="text-sm text-ink-soft" role="status">Counting changes…</p>;
  const total = counts.total ?? counts.open + counts.in + counts.back;
  const decided = counts.in + counts.back;
  const last = progress?.lastDecision ?? null;
  return (
    <div className="min-w-0 text-sm">
      {/* Wraps rather than running under the Review button when the counts are long ("· 3183 open"). */}
      <div className="flex flex-wrap items-center gap-x-2">
        <span className="flex h-1.5 w-24 shrink-0 overflow-hidden rounded-full bg-line" aria-hidden="true" data-testid="progress-bar">
          <span className="bg-insert" style={{ width: `${total ? (counts.in / total) * 100 : 0}%` }} />
          <span className="bg-delete" style={{ width: `${total ? (counts.back / total) * 100 : 0}%` }} />
        </span>
        <span className="whitespace-nowrap tabular-nums">
          {total === 0 ? 'No changes' : decided === total ? `All ${total} decided` : `${decided} of ${total} decided`}
        </span>
        {counts.open > 0 && decided < total && (
          <span className="whitespace-nowrap tabular-nums text-open">· {counts.open} open</span>
        )}
        {/* The checks' findings, once the service has them (issue 35): never asked for from here. */}
        {progress?.findings != null && (
          <span className="whitespace-nowrap tabular-nums text-ink-soft" data-testid="findings-count">
            · {progress.findings === 0 ? 'no check finding' : `${progress.findings} check ${progress.findings === 1 ? 'finding' : 'findings'}`}
          </span>
        )}
      </div>
      <p className="truncate text-xs text-ink-soft">
        {last ? (
          <>
            {last.kind === 'undo' ? 'Undo' : 'Last decision'} by {last.byName ?? 'a former member'},{' '}
            <time dateTime={last.at} title={formatDateTime(last.at)}>{formatRelative(last.at, now)}</time>
          </>
        ) : (
          'Nothing decided yet'
        )}
      </p>
    </div>
  );
}
