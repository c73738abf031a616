import { useId, useMemo, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import type { DocumentRow } from '../../contract/document';
import { ROUTES } from '../../contract/routes';
import { describeError, downloadBlob } from '../api/client';
import {
  useCreateUpload,
  useCreateVersion,
  useDeleteSeries,
  useRenameUpload,
  useStartWorkingDraft,
  useUploads,
} from '../api/hooks';
import type { UploadProgress } from '../api/upload';
import { Dialog } from '../components/Dialog';
import { formatBytes, formatDateTime } from '../components/format';
import { saveBlob } from '../components/saveBlob';

interface Series {
  id: string;
  /** Newest version first. */
  rows: DocumentRow[];
  updatedAt: string;
}

/** One group per document series, the most recently touched first. */
function groupBySeries(rows: DocumentRow[]): Series[] {
  const bySeries = new Map<string, DocumentRow[]>();
  for (const row of rows) {
    if (row.status === 'deleted') continue;
    const list = bySeries.get(row.documentSeriesId) ?? [];
    list.push(row);
    bySeries.set(row.documentSeriesId, list);
  }
  const series = [...bySeries.entries()].map(([id, list]) => {
    list.sort((a, b) => b.documentVersion - a.documentVersion);
    const updatedAt = list.reduce((max, r) => (r.updatedAt > max ? r.updatedAt : max), '');
    return { id, rows: list, updatedAt };
  });
  return series.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1));
}

function isDocx(file: File): boolean {
  return /\.docx$/i.test(file.name);
}

const KIND_LABEL: Record<DocumentRow['versionKind'], string> = { original: 'Original', working_draft: 'Working draft' };

type Transfer = { label: string; progress: UploadProgress | null } | null;

export function DocumentsPage() {
  const uploads = useUploads();
  const createUpload = useCreateUpload();
  const createVersion = useCreateVersion();
  const rename = useRenameUpload();
  const startDraft = useStartWorkingDraft();
  const deleteSeries = useDeleteSeries();
  const navigate = useNavigate();

  const [transfer, setTransfer] = useState<Transfer>(null);
  const [message, setMessage] = useState<{ text: string; tone: 'ok' | 'error'; link?: { to: string; label: string } } | null>(null);
  const [dragging, setDragging] = useState(false);
  const [renaming, setRenaming] = useState<DocumentRow | null>(null);
  const [deleting, setDeleting] = useState<Series | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const versionInput = useRef<HTMLInputElement>(null);
  const versionTarget = useRef<DocumentRow | null>(null);
  const headingId = useId();

  const series = useMemo(() => groupBySeries(uploads.data ?? []), [uploads.data]);

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

  async function startWorkingDraft(row: DocumentRow) {
    try {
      const draft = await startDraft.mutateAsync(row.id);
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

  const percent = transfer?.progress ? Math.round((transfer.progress.loaded / Math.max(1, transfer.progress.total)) * 100) : null;

  return (
    <section
      aria-labelledby={headingId}
      className={`mx-auto w-full max-w-6xl flex-1 p-4 ${dragging ? 'outline-2 outline-dashed outline-accent' : ''}`}
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
      <div className="flex flex-wrap items-center gap-3">
        <h1 id={headingId} className="text-xl font-semibold">Documents</h1>
        <p className="text-sm text-ink-soft">Drop a .docx anywhere on this page, or</p>
        <button type="button" className="btn btn-primary" onClick={() => fileInput.current?.click()} disabled={transfer !== null}>
          Upload
        </button>
        <input
          ref={fileInput}
          type="file"
          accept=".docx,application/vnd.openxmlformats-officedocument.wordprocessingml.document"
          className="sr-only"
          tabIndex={-1}
          aria-label="Choose a .docx file to upload"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void upload(file);
          }}
        />
        <input
          ref={versionInput}
          type="file"
          accept=".docx,application/vnd.openxmlformats-officedocument.wordprocessingml.document"
          className="sr-only"
          tabIndex={-1}
          aria-label="Choose the new version (.docx)"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            const target = versionTarget.current;
            if (file && target) void uploadVersion(target, file);
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

      <div aria-live="polite" className="mt-3 min-h-6 text-sm">
        {message && (
          <p className={message.tone === 'error' ? 'rounded border border-danger bg-danger-soft p-2 text-danger' : 'text-insert'}>
            {message.text}{' '}
            {message.link && <Link className="link" to={message.link.to}>{message.link.label}</Link>}
          </p>
        )}
      </div>

      {uploads.isPending ? (
        <p role="status" className="mt-6 text-ink-soft">Loading documents…</p>
      ) : uploads.isError ? (
        <div role="alert" className="mt-6 rounded border border-danger bg-danger-soft p-3 text-danger">
          <p>Could not load the documents: {describeError(uploads.error)}</p>
          <button type="button" className="btn mt-2" onClick={() => void uploads.refetch()}>Try again</button>
        </div>
      ) : series.length === 0 ? (
        <div className="mt-6 rounded border border-dashed border-line bg-paper p-8 text-center">
          <p className="font-medium">No documents yet.</p>
          <p className="mt-1 text-sm text-ink-soft">Upload a .docx contract with the Upload button, or drop the file on this page.</p>
        </div>
      ) : (
        <table className="mt-4 w-full border-collapse bg-paper text-sm">
          <caption className="sr-only">Documents, grouped by series, newest version first</caption>
          <thead>
            <tr className="border-b border-line text-left text-ink-soft">
              <th scope="col" className="px-2 py-1.5 font-medium">Name</th>
              <th scope="col" className="px-2 py-1.5 font-medium">Version</th>
              <th scope="col" className="px-2 py-1.5 font-medium">Kind</th>
              <th scope="col" className="px-2 py-1.5 font-medium">Updated</th>
              <th scope="col" className="px-2 py-1.5 font-medium">Size</th>
              <th scope="col" className="px-2 py-1.5 font-medium"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          {series.map((s) => (
            <tbody key={s.id} className="border-b-2 border-line" aria-label={`Series ${s.rows[0]?.fileName ?? ''}`}>
              <tr className="bg-canvas">
                <th scope="rowgroup" colSpan={5} className="px-2 py-1 text-left font-semibold">
                  {s.rows[0]?.fileName} <span className="font-normal text-ink-soft">· {s.rows.length} version{s.rows.length === 1 ? '' : 's'}</span>
                </th>
                <td className="px-2 py-1 text-right">
                  <button type="button" className="btn btn-quiet text-danger" onClick={() => setDeleting(s)}>
                    Delete series<span className="sr-only"> {s.rows[0]?.fileName}</span>
                  </button>
                </td>
              </tr>
              {s.rows.map((row) => (
                <tr key={row.id} className="border-t border-line align-middle hover:bg-canvas/60">
                  <td className="px-2 py-1.5">
                    {row.versionKind === 'working_draft' ? (
                      <Link className="link" to={`/documents/${row.id}`}>{row.fileName}</Link>
                    ) : (
                      <span>{row.fileName}</span>
                    )}
                  </td>
                  <td className="whitespace-nowrap px-2 py-1.5 tabular-nums">v{row.documentVersion}</td>
                  <td className="whitespace-nowrap px-2 py-1.5">{KIND_LABEL[row.versionKind]}</td>
                  <td className="whitespace-nowrap px-2 py-1.5"><time dateTime={row.updatedAt}>{formatDateTime(row.updatedAt)}</time></td>
                  <td className="whitespace-nowrap px-2 py-1.5 tabular-nums">{formatBytes(row.sizeBytes)}</td>
                  <td className="px-2 py-1.5">
                    <div className="flex flex-wrap justify-end gap-1">
                      {row.versionKind === 'working_draft' && (
                        <button type="button" className="btn" onClick={() => navigate(`/documents/${row.id}`)}>
                          Review<span className="sr-only"> {row.fileName} v{row.documentVersion}</span>
                        </button>
                      )}
                      <button type="button" className="btn" onClick={() => void download(row)} disabled={!row.hasBinary}>
                        Download<span className="sr-only"> {row.fileName} v{row.documentVersion}</span>
                      </button>
                      <button type="button" className="btn" onClick={() => setRenaming(row)}>
                        Rename<span className="sr-only"> {row.fileName} v{row.documentVersion}</span>
                      </button>
                      <button
                        type="button"
                        className="btn"
                        disabled={transfer !== null}
                        onClick={() => {
                          versionTarget.current = row;
                          versionInput.current?.click();
                        }}
                      >
                        New version<span className="sr-only"> of {row.fileName} v{row.documentVersion}</span>
                      </button>
                      <button type="button" className="btn" onClick={() => void startWorkingDraft(row)} disabled={startDraft.isPending}>
                        Start working draft<span className="sr-only"> from {row.fileName} v{row.documentVersion}</span>
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          ))}
        </table>
      )}

      <RenameDialog
        row={renaming}
        onClose={() => setRenaming(null)}
        onSubmit={(row, fileName) => {
          setRenaming(null);
          rename.mutate(
            { uploadId: row.id, fileName },
            {
              onSuccess: (r) => setMessage({ text: `Renamed to ${r.fileName}.`, tone: 'ok' }),
              onError: (error) => reportError('Could not rename (the old name is back)', error),
            },
          );
        }}
      />

      <Dialog open={deleting !== null} title="Delete this document series?" onClose={() => setDeleting(null)}>
        <p className="text-sm">
          This deletes <strong>{deleting?.rows[0]?.fileName}</strong> and all {deleting?.rows.length} of its versions, working drafts
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
