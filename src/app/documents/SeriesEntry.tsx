import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { DocumentRow } from '../../contract/document';
import { formatBytes, formatDateTime, formatRelative } from '../components/format';
import { DraftProgressSummary } from './DraftProgressSummary';
import { comparisonLabel, isComparison, type Series } from './series';

export interface SeriesActions {
  download(row: DocumentRow): void;
  rename(row: DocumentRow): void;
  newVersion(row: DocumentRow): void;
  startDraft(row: DocumentRow): void;
  /** "Start review": a working draft of the row (the series' latest version), opened in review at once. */
  startReview(row: DocumentRow): void;
  deleteSeries(series: Series): void;
  /** Compare a version with another of its series (the comparison dialog). */
  compare(row: DocumentRow, series: Series): void;
  /** An upload is under way or a draft is being started: those actions wait. */
  busy: boolean;
}

const KIND_LABEL: Record<DocumentRow['versionKind'], string> = { original: 'Original', working_draft: 'Working draft' };

/**
 * One matter on the documents page: its name, where the review of its newest working draft
 * stands, the last activity and a primary Review action on one calm line; the versions and
 * what can be done with them wait behind "Versions", so a dozen matters fit on one screen.
 */
export function SeriesEntry({
  series,
  actions,
  now,
  extra,
  versionsExtra,
}: {
  series: Series;
  actions: SeriesActions;
  now: number;
  /** Shown under the progress (the comparison's untracked-edit warning). */
  extra?: ReactNode;
  /** Further series actions in the versions panel (Compare with…). */
  versionsExtra?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const headingId = useId();
  const { name, rows, latestVersion } = series;
  // With no review draft of the latest version, its comparison is the review in progress (issue 34.2).
  const comparing = series.draft === null ? series.comparison : null;
  const draft = series.draft ?? comparing;

  return (
    <li aria-labelledby={headingId} className="border-b border-line last:border-b-0" data-series-id={series.id}>
      <div data-row className="grid grid-cols-[minmax(0,1fr)] items-center gap-x-6 gap-y-1.5 px-3 py-2 md:grid-cols-[minmax(0,1fr)_17rem_auto]">
        <div className="min-w-0">
          <h2 id={headingId} className="truncate text-[0.95rem] font-semibold leading-snug">
            {draft ? (
              <Link className="block truncate rounded-sm hover:underline focus-ring" to={`/documents/${draft.id}`}>{name}</Link>
            ) : (
              name
            )}
          </h2>
          <p className="truncate text-xs text-ink-soft">
            {rows.length} version{rows.length === 1 ? '' : 's'} · last activity{' '}
            <time dateTime={series.lastActivityAt} title={formatDateTime(series.lastActivityAt)}>{formatRelative(series.lastActivityAt, now)}</time>
          </p>
        </div>
        <div className="min-w-0">
          {comparing && <p className="truncate text-xs font-medium text-ink-soft" data-testid="series-comparison">{comparisonLabel(comparing, rows)}</p>}
          <DraftProgressSummary
            progress={comparing ? series.comparisonProgress : series.progress}
            hasDraft={draft !== null}
            now={now}
            // The older version's review is still listed under Versions; the entry is about the version that came back last.
            noDraft={series.hasOlderReview ? `No review of v${latestVersion.documentVersion} yet` : undefined}
          />
          {extra}
        </div>
        <div className="flex items-center gap-2 md:justify-end">
          {draft ? (
            <Link className="btn border-brand text-brand" to={`/documents/${draft.id}`}>
              Review<span className="sr-only"> {name}</span>
            </Link>
          ) : (
            // Never from the newest row: that may be a comparison's redline or an older version's draft.
            <button type="button" className="btn border-brand text-brand" onClick={() => actions.startReview(latestVersion)} disabled={actions.busy}>
              Start review<span className="sr-only"> of {name}</span>
            </button>
          )}
          <button
            type="button"
            className="btn"
            aria-expanded={open}
            aria-controls={panelId}
            onClick={() => setOpen((o) => !o)}
          >
            Versions<span className="sr-only"> of {name}</span>
            <span aria-hidden="true" className={`inline-block text-xs transition-transform motion-reduce:transition-none ${open ? 'rotate-180' : ''}`}>▾</span>
          </button>
        </div>
      </div>
      {open && (
        <div id={panelId} className="border-t border-line bg-canvas/60 px-3 pb-2 pt-1">
          <ul aria-label={`Versions of ${name}`} className="divide-y divide-line">
            {rows.map((row) => (
              <VersionRow key={row.id} row={row} series={series} actions={actions} />
            ))}
          </ul>
          <div className="flex flex-wrap items-center gap-2 border-t border-line pt-2">
            <button type="button" className="btn" onClick={() => actions.newVersion(latestVersion)} disabled={actions.busy}>
              Upload new version<span className="sr-only"> of {name}</span>
            </button>
            <button type="button" className="btn" onClick={() => actions.rename(series.nameRow)}>
              Rename series<span className="sr-only"> {name}</span>
            </button>
            {versionsExtra}
            <button type="button" className="btn btn-quiet ml-auto text-danger" onClick={() => actions.deleteSeries(series)}>
              Delete series<span className="sr-only"> {name}</span>
            </button>
          </div>
        </div>
      )}
    </li>
  );
}

function VersionRow({ row, series, actions }: { row: DocumentRow; series: Series; actions: SeriesActions }) {
  const label = `${row.fileName} v${row.documentVersion}`;
  const seriesName = series.name;
  const comparison = comparisonLabel(row, series.rows);
  return (
    <li data-row className="flex flex-wrap items-center gap-x-3 gap-y-1 py-1.5 text-sm">
      <span className="w-8 shrink-0 font-medium tabular-nums">v{row.documentVersion}</span>
      <span className={`shrink-0 max-sm:w-auto ${comparison ? '' : 'w-28'}`}>{comparison ?? KIND_LABEL[row.versionKind]}</span>
      <span className="min-w-0 flex-1 truncate text-ink-soft max-sm:order-last max-sm:basis-full">
        {row.fileName !== seriesName && <span className="text-ink">{row.fileName} · </span>}
        <time dateTime={row.updatedAt}>{formatDateTime(row.updatedAt)}</time> · {formatBytes(row.sizeBytes)}
      </span>
      <span className="rl-version-actions flex flex-wrap gap-1 max-sm:order-last max-sm:-ml-1.5 max-sm:basis-full">
        {row.versionKind === 'working_draft' && (
          <Link className="btn btn-quiet" to={`/documents/${row.id}`}>
            Open<span className="sr-only"> {label}</span>
          </Link>
        )}
        <button type="button" className="btn btn-quiet" onClick={() => actions.compare(row, series)} disabled={series.rows.length < 2}>
          Compare with…<span className="sr-only"> (v{row.documentVersion} of {row.fileName})</span>
        </button>
        <button type="button" className="btn btn-quiet" onClick={() => actions.download(row)} disabled={!row.hasBinary}>
          Download<span className="sr-only"> {label}</span>
        </button>
        {/* A redline is reviewed as itself (Open): a draft of it would be no review of a version (series.ts: reviewedVersion). */}
        {!isComparison(row) && (
          <button type="button" className="btn btn-quiet" onClick={() => actions.startDraft(row)} disabled={actions.busy}>
            Start working draft<span className="sr-only"> from {label}</span>
          </button>
        )}
        <button type="button" className="btn btn-quiet" onClick={() => actions.rename(row)}>
          Rename<span className="sr-only"> {label}</span>
        </button>
      </span>
    </li>
  );
}
