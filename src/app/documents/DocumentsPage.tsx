import { useId, useMemo, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import type { DocumentRow } from '../../contract/document';
import type { SeriesUntrackedCheck } from '../../contract/draft-progress';
import { ROUTES } from '../../contract/routes';
import { describeError, downloadBlob } from '../api/client';
import {
  useCreateUpload,
  useCreateVersion,
  useDeleteSeries,
  useDraftProgress,
  useRenameUpload,
  useStartWorkingDraft,
  useUploads,
} from '../api/hooks';
import type { UploadProgress } from '../api/upload';
import { CompareDialog } from '../compare/CompareDialog';
import { useComparisonProgress } from '../api/compare';
import { isCheckedVersion, UntrackedWarning } from '../compare/UntrackedWarning';
import { Dialog } from '../components/Dialog';
import { saveBlob } from '../components/saveBlob';
import { useNow } from '../components/useNow';
import { DocxFileInput } from './DocxFileInput';
import { SeriesEntry, type SeriesActions } from './SeriesEntry';
import { groupBySeries, untrackedDraftOf, visibleSeries, type Series, type SeriesSort } from './series';

function isDocx(file: File): boolean {
  return /\.docx$/i.test(file.name);
}

type Transfer = { label: string; progress: UploadProgress | null } | null;

export function DocumentsPage() {
  const uploads = useUploads();
  const progress = useDraftProgress();
  const createUpload = useCreateUpload();
  const createVersion = useCreateVersion();
  const rename = useRenameUpload();
  const startDraft = useStartWorkingDraft();
  const navigate = useNavigate();
  const deleteSeries = useDeleteSeries();
  const now = useNow(60_000);
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<SeriesSort>('activity');

  const [transfer, setTransfer] = useState<Transfer>(null);
  const [message, setMessage] = useState<{ text: string; tone: 'ok' | 'error'; link?: { to: string; label: string } } | null>(null);
  const [dragging, setDragging] = useState(false);
  const [renaming, setRenaming] = useState<DocumentRow | null>(null);
  const [deleting, setDeleting] = useState<Series | null>(null);
  const [comparing, setComparing] = useState<{ row: DocumentRow; series: DocumentRow[] } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const versionInput = useRef<HTMLInputElement>(null);
  const versionTarget = useRef<DocumentRow | null>(null);
  const headingId = useId();

  const comparisons = useComparisonProgress();
  const series = useMemo(
    () => groupBySeries(uploads.data ?? [], progress.data?.items, comparisons.data?.items),
    [uploads.data, progress.data, comparisons.data],
  );
  const shown = useMemo(() => visibleSeries(series, search, sort), [series, search, sort]);

  function reportError(prefix: string, error: unknown) {
    setMessage({ text: `${prefix}: ${describeError(error)}`, tone: 'error' });
  }

  async function upload(file: File) {
    if (!isDocx(file)) {
      setMessage({ text: `${file.name} is not a .docx file. Redline reviews Word documents (.docx).`, tone: 'error' });
      return;
    }
    setMessage(null);
    setTransfer({ label: `Uploading ${file.name}`, progress: null });
    try {
      const row = await createUpload.mutateAsync({ file, onProgress: (progress) => setTransfer({ label: `Uploading ${file.name}`, progress }) });
      setMessage({ text: `Uploaded ${row.fileName}.`, tone: 'ok' });
    } catch (error) {
      reportError(`Could not upload ${file.name}`, error);
    } finally {
      setTransfer(null);
    }
  }

  async function uploadVersion(target: DocumentRow, file: File) {
    if (!isDocx(file)) {
      setMessage({ text: `${file.name} is not a .docx file.`, tone: 'error' });
      return;
    }
    setMessage(null);
    setTransfer({ label: `Uploading a new version of ${target.fileName}`, progress: null });
    try {
      const row = await createVersion.mutateAsync({
        uploadId: target.id,
        file,
        onProgress: (progress) => setTransfer({ label: `Uploading a new version of ${target.fileName}`, progress }),
      });
      setMessage({ text: `Added version ${row.documentVersion} of ${row.fileName}.`, tone: 'ok' });
    } catch (error) {
      reportError('Could not add the new version', error);
    } finally {
      setTransfer(null);
    }
  }

  async function startWorkingDraft(row: DocumentRow, open = false) {
    try {
      const draft = await startDraft.mutateAsync(row.id);
      if (open) return void navigate(`/documents/${draft.id}`);
      setMessage({
        text: `Started a working draft (version ${draft.documentVersion}) from version ${row.documentVersion}.`,
        tone: 'ok',
        link: { to: `/documents/${draft.id}`, label: 'Review it now' },
      });
    } catch (error) {
      reportError('Could not start a working draft', error);
    }
  }

  async function download(row: DocumentRow) {
    try {
      saveBlob(await downloadBlob(ROUTES.downloadUpload, { uploadId: row.id }), row.fileName);
    } catch (error) {
      reportError(`Could not download ${row.fileName}`, error);
    }
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) void upload(file);
  }

  const actions: SeriesActions = {
    download: (row) => void download(row),
    rename: (row) => setRenaming(row),
    newVersion: (row) => {
      versionTarget.current = row;
      versionInput.current?.click();
    },
    startDraft: (row) => void startWorkingDraft(row),
    startReview: (row) => void startWorkingDraft(row, true),
    deleteSeries: (s) => setDeleting(s),
    compare: (row, s) => setComparing({ row, series: s.rows }),
    busy: transfer !== null || startDraft.isPending,
  };

  const percent = transfer?.progress ? Math.round((transfer.progress.loaded / Math.max(1, transfer.progress.total)) * 100) : null;

  return (
    <section
      aria-labelledby={headingId}
      className={`mx-auto w-full max-w-6xl flex-1 px-3 py-4 sm:px-4 ${dragging ? 'outline-2 outline-dashed outline-accent' : ''}`}
      onDragOver={(e) => {
        if ([...e.dataTransfer.types].includes('Files')) {
          e.preventDefault();
          setDragging(true);
        }
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDragging(false);
      }}
      onDrop={onDrop}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <h1 id={headingId} className="mr-auto text-xl font-semibold">Documents</h1>
        <input
          type="search"
          className="field w-full py-1 text-sm sm:w-64"
          placeholder="Search by name"
          aria-label="Search documents by name"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <span className="flex items-center gap-1.5 text-sm">
          <label htmlFor={`${headingId}-sort`} className="text-ink-soft">Sort</label>
          <select id={`${headingId}-sort`} className="field py-1 text-sm" value={sort} onChange={(e) => setSort(e.target.value as SeriesSort)}>
            <option value="activity">Last activity</option>
            <option value="name">Name</option>
          </select>
        </span>
        <button type="button" className="btn btn-primary" onClick={() => fileInput.current?.click()} disabled={transfer !== null}>
          Upload
        </button>
        <DocxFileInput ref={fileInput} label="Choose a .docx file to upload" onFile={(file) => void upload(file)} />
        <DocxFileInput
          ref={versionInput}
          label="Choose the new version (.docx)"
          onFile={(file) => {
            const target = versionTarget.current;
            if (target) void uploadVersion(target, file);
          }}
        />
      </div>

      {transfer && (
        <div className="mt-3 flex items-center gap-3 text-sm" role="status">
          <label htmlFor={`${headingId}-progress`}>{transfer.label}</label>
          <progress id={`${headingId}-progress`} className="h-2 w-64" max={100} value={percent ?? undefined} />
          <span>{percent === null ? 'Starting…' : `${percent}%`}</span>
        </div>
      )}

      <p className="mt-1 text-xs text-ink-soft">Drop a .docx anywhere on this page to upload it.</p>

      <div aria-live="polite" className="text-sm">
        {message && (
          <p className={`mt-2 ${message.tone === 'error' ? 'rounded border border-danger bg-danger-soft p-2 text-danger' : 'text-insert'}`}>
            {message.text}{' '}
            {message.link && <Link className="link" to={message.link.to}>{message.link.label}</Link>}
          </p>
        )}
      </div>

      {uploads.isPending ? (
        <div role="status" aria-label="Loading documents" className="mt-3 overflow-hidden rounded-md border border-line bg-paper">
          {[0, 1, 2].map((i) => (
            <div key={i} className="flex h-14 items-center gap-4 border-b border-line px-3 last:border-b-0">
              <span className="h-3 w-64 max-w-[50%] animate-pulse rounded bg-line motion-reduce:animate-none" />
              <span className="ml-auto h-3 w-24 animate-pulse rounded bg-line motion-reduce:animate-none" />
            </div>
          ))}
          <p className="sr-only">Loading documents…</p>
        </div>
      ) : uploads.isError ? (
        <div role="alert" className="mt-3 rounded border border-danger bg-danger-soft p-3 text-danger">
          <p>Could not load the documents: {describeError(uploads.error)}</p>
          <button type="button" className="btn mt-2" onClick={() => void uploads.refetch()}>Try again</button>
        </div>
      ) : series.length === 0 ? (
        <div className="mt-3 rounded-md border border-dashed border-line bg-paper p-8 text-center">
          <p className="font-medium">No documents yet.</p>
          <p className="mt-1 text-sm text-ink-soft">Upload a .docx contract with the Upload button, or drop the file on this page.</p>
        </div>
      ) : (
        <>
          {progress.isError && (
            <p role="alert" className="mt-3 text-sm text-danger">
              Review progress could not be loaded ({describeError(progress.error)}).{' '}
              <button type="button" className="link" onClick={() => void progress.refetch()}>Try again</button>
            </p>
          )}
          {shown.length === 0 ? (
            <div className="mt-3 rounded-md border border-line bg-paper p-6 text-center text-sm">
              <p>No document matches “{search}”.</p>
              <button type="button" className="btn mt-2" onClick={() => setSearch('')}>Clear the search</button>
            </div>
          ) : (
            <ul aria-label="Document series" className="mt-3 overflow-hidden rounded-md border border-line bg-paper">
              {shown.map((s) => (
                <SeriesEntry key={s.id} series={s} actions={actions} now={now} extra={<SeriesUntrackedWarning series={s} checks={progress.data?.untracked} />} />
              ))}
            </ul>
          )}
          <p className="mt-2 text-xs text-ink-soft" aria-live="polite">
            {search ? `${shown.length} of ${series.length} documents` : `${series.length} document${series.length === 1 ? '' : 's'}`}
          </p>
        </>
      )}

      <RenameDialog
        row={renaming}
        onClose={() => setRenaming(null)}
        onSubmit={(row, fileName) => {
          setRenaming(null);
          const renamesSeries = series.some((s) => s.nameRow.id === row.id);
          rename.mutate(
            { uploadId: row.id, fileName },
            {
              onSuccess: (r) => setMessage({ text: renamesSeries ? `Renamed the series to ${r.fileName}.` : `Renamed version ${r.documentVersion} to ${r.fileName}.`, tone: 'ok' }),
              onError: (error) => reportError('Could not rename (the old name is back)', error),
            },
          );
        }}
      />

      <CompareDialog target={comparing?.row ?? null} series={comparing?.series ?? []} onClose={() => setComparing(null)} />

      <Dialog open={deleting !== null} title="Delete this document series?" onClose={() => setDeleting(null)}>
        <p className="text-sm">
          This deletes <strong>{deleting?.name}</strong> and all {deleting?.rows.length} of its versions, working drafts
          and their decision records. It cannot be undone.
        </p>
        <div className="mt-4 flex justify-end gap-2">
          <button type="button" className="btn" onClick={() => setDeleting(null)} autoFocus>Cancel</button>
          <button
            type="button"
            className="btn btn-danger"
            onClick={() => {
              const target = deleting?.rows[0];
              setDeleting(null);
              if (!target) return;
              deleteSeries.mutate(target.id, {
                onSuccess: () => setMessage({ text: `Deleted ${target.fileName} and its versions.`, tone: 'ok' }),
                onError: (error) => reportError('Could not delete the series', error),
              });
            }}
          >
            Delete series
          </button>
        </div>
      </Dialog>
    </section>
  );
}

function RenameDialog({ row, onClose, onSubmit }: { row: DocumentRow | null; onClose: () => void; onSubmit: (row: DocumentRow, fileName: string) => void }) {
  const inputId = useId();
  const [error, setError] = useState<string | null>(null);
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!row) return;
    const value = String(new FormData(event.currentTarget).get('fileName') ?? '').trim();
    if (!value) return setError('Enter a name.');
    if (/[/\\]/.test(value)) return setError('A name cannot contain slashes.');
    setError(null);
    onSubmit(row, value);
  }
  return (
    <Dialog open={row !== null} title="Rename" onClose={() => { setError(null); onClose(); }}>
      <form onSubmit={submit} className="flex flex-col gap-2">
        <label htmlFor={inputId} className="text-sm font-medium">File name</label>
        <input id={inputId} name="fileName" className="field w-96 max-w-full" defaultValue={row?.fileName} autoFocus required maxLength={255} />
        {error && <p role="alert" className="text-sm text-danger">{error}</p>}
        <div className="mt-2 flex justify-end gap-2">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn-primary">Save</button>
        </div>
      </form>
    </Dialog>
  );
}

/**
 * The untracked-edit warning of a series' latest version, when it has one (issue 12). Working
 * drafts and comparisons' redlines made since are no versions of the matter: they neither
 * carry the warning nor hide it. The page's one progress request says which checks found
 * nothing, so only the others ask for their report.
 */
function SeriesUntrackedWarning({ series, checks }: { series: Series; checks: readonly SeriesUntrackedCheck[] | undefined }) {
  const version = series.latestVersion;
  if (!isCheckedVersion(version) || !checks) return null;
  const check = checks.find((c) => c.uploadId === version.id);
  if (check?.state === 'done' && check.count === 0) return null;
  return <UntrackedWarning version={version} existing={untrackedDraftOf(version, series.rows)} />;
}
