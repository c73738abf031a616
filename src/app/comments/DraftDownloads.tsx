import { useId, useState } from 'react';
import { ROUTES } from '../../contract/routes';
import { apiUrl, authHeaders, describeError, errorFromResponse } from '../api/client';
import { Dialog } from '../components/Dialog';
import { saveBlob } from '../components/saveBlob';

/**
 * The draft's downloads besides the stored file: a clean copy (every open change accepted),
 * with the comments kept or removed, as the user chooses.
 */
export function CleanCopyDownload({ documentId, fileName, open: openNow, beforeDownload, onError }: {
  documentId: string;
  fileName: string;
  /** What is still open, as the review counts it: entries (as listed) and the changes they hold. */
  open: { entries: number; changes: number };
  beforeDownload: () => void;
  onError: (text: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [comments, setComments] = useState<'keep' | 'remove'>('keep');
  const [busy, setBusy] = useState(false);
  const name = useId();

  async function download() {
    beforeDownload();
    setBusy(true);
    try {
      const spec = ROUTES.downloadDraft;
      const response = await fetch(apiUrl(spec, { params: { documentId }, query: { variant: 'clean', comments } }), { headers: authHeaders() });
      if (!response.ok) throw await errorFromResponse(spec, response.status, await response.text(), response.headers.get('retry-after'));
      saveBlob(await response.blob(), fileName.replace(/(\.docx)?$/i, ' (clean).docx'));
      setOpen(false);
    } catch (error) {
      onError(`Could not download the clean copy: ${describeError(error)}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" className="btn" onClick={() => setOpen(true)}>Clean copy…</button>
      <Dialog open={open} title="Download a clean copy" onClose={() => setOpen(false)}>
        <p className="text-sm" data-testid="clean-copy-accepts">{acceptsSentence(openNow)}</p>
        <fieldset className="mt-3 text-sm">
          <legend className="font-medium">Comments</legend>
          {(['keep', 'remove'] as const).map((value) => (
            <label key={value} className="mt-1 flex items-center gap-2">
              <input type="radio" name={name} value={value} checked={comments === value} onChange={() => setComments(value)} />
              {value === 'keep' ? 'Keep the comments' : 'Remove every comment'}
            </label>
          ))}
        </fieldset>
        <div className="mt-4 flex gap-2">
          <button type="button" className="btn" onClick={() => void download()} disabled={busy}>{busy ? 'Preparing…' : 'Download'}</button>
          <button type="button" className="btn btn-quiet" onClick={() => setOpen(false)}>Cancel</button>
        </div>
      </Dialog>
    </>
  );
}

/** What the clean copy accepts, before it is made: "The copy accepts the 7 open entries (23 changes); …". */
export function acceptsSentence({ entries, changes }: { entries: number; changes: number }): string {
  if (entries === 0) return 'No change is open: the copy is the draft as decided, without markup. The draft itself does not change.';
  const what = entries === 1 ? 'the 1 open entry' : `the ${entries.toLocaleString('en')} open entries`;
  const held = changes === entries ? '' : ` (${changes.toLocaleString('en')} change${changes === 1 ? '' : 's'})`;
  return `The copy accepts ${what}${held}, as if you accepted ${entries === 1 ? 'it' : 'them'} now; the draft itself does not change.`;
}
