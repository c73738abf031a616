import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import type { DocumentRow } from '../../contract/document';
import { useCompareVersions } from '../api/compare';
import { describeError } from '../api/client';
import { Dialog } from '../components/Dialog';
import { formatDateTime } from '../components/format';

/**
 * The version a comparison of `target` starts from: the one it was added to (or drafted from),
 * else the newest version before it.
 */
export function previousVersionOf(target: DocumentRow, series: readonly DocumentRow[]): DocumentRow | null {
  const others = series.filter((row) => row.id !== target.id);
  const parent = others.find((row) => row.id === target.parentUploadId);
  if (parent) return parent;
  const earlier = others.filter((row) => row.documentVersion < target.documentVersion).sort((a, b) => b.documentVersion - a.documentVersion);
  return earlier[0] ?? others[0] ?? null;
}

const KIND: Record<DocumentRow['versionKind'], string> = { original: 'original', working_draft: 'working draft' };

/** "v1 · original · Nov 24, 2026, 6:27 AM", with the file name when it differs from the version compared. */
export function describeVersion(row: DocumentRow, target: DocumentRow): string {
  return [`v${row.documentVersion}`, KIND[row.versionKind], formatDateTime(row.createdAt), ...(row.fileName === target.fileName ? [] : [row.fileName])].join(' · ');
}

/**
 * "Compare with…": pick the older version (the previous one is chosen already), and the new
 * working draft holding every difference as a tracked change opens in review at once.
 */
export function CompareDialog({ target, series, onClose }: { target: DocumentRow | null; series: readonly DocumentRow[]; onClose: () => void }) {
  return (
    <Dialog open={target !== null} title={target ? `Compare v${target.documentVersion} with…` : 'Compare'} onClose={onClose} className="w-[calc(100vw-2rem)]">
      {target && <CompareForm key={target.id} target={target} series={series} onClose={onClose} />}
    </Dialog>
  );
}

function CompareForm({ target, series, onClose }: { target: DocumentRow; series: readonly DocumentRow[]; onClose: () => void }) {
  const compare = useCompareVersions();
  const navigate = useNavigate();
  const selectId = useId();
  // Only older versions: "what changed in v3 since v5" reads backwards.
  const others = series.filter((row) => row.documentVersion < target.documentVersion).sort((a, b) => b.documentVersion - a.documentVersion);
  const [against, setAgainst] = useState(previousVersionOf(target, series)?.id ?? '');
  const [error, setError] = useState<string | null>(null);
  const [identical, setIdentical] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!against) return;
    setError(null);
    setIdentical(null);
    try {
      const draft = await compare.mutateAsync({ uploadId: target.id, against });
      if ('identical' in draft) {
        // Nothing to review: say so here and stay, rather than open an empty draft.
        const older = series.find((row) => row.id === against);
        return setIdentical(`v${target.documentVersion} and v${older?.documentVersion ?? '?'} are identical: nothing to review.`);
      }
      onClose();
      navigate(`/documents/${draft.document.id}`);
    } catch (failure) {
      setError(`The comparison failed: ${describeError(failure)}`);
    }
  }

  if (others.length === 0) {
    return (
      <div className="text-sm">
        <p>v{target.documentVersion} is the oldest version of this series: there is nothing older to compare it with. Add a new version first, then compare the two.</p>
        <div className="mt-4 flex justify-end"><button type="button" className="btn" onClick={onClose} autoFocus>Close</button></div>
      </div>
    );
  }
  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-2 text-sm">
      <p className="text-ink-soft">
        A new working draft of v{target.documentVersion} shows every difference from the version you choose as a tracked change,
        ready to review.
      </p>
      <label htmlFor={selectId} className="mt-1 font-medium">Older version</label>
      <select id={selectId} className="field w-full" value={against} onChange={(e) => { setAgainst(e.target.value); setIdentical(null); }} autoFocus>
        {others.map((row) => (
          <option key={row.id} value={row.id}>{describeVersion(row, target)}</option>
        ))}
      </select>
      {error && <p role="alert" className="rounded border border-danger bg-danger-soft p-2 text-danger">{error}</p>}
      <p role="status" className={identical ? 'rounded border border-line bg-canvas p-2' : 'sr-only'}>{identical}</p>
      <div className="mt-3 flex justify-end gap-2">
        <button type="button" className="btn" onClick={onClose}>Cancel</button>
        <button type="submit" className="btn btn-primary" disabled={compare.isPending || !against}>
          {compare.isPending ? 'Comparing…' : 'Compare and review'}
        </button>
      </div>
    </form>
  );
}
