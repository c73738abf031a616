import { useRef } from 'react';
import { Dialog } from '../components/Dialog';
import { useInitialFocus } from './answer/initial-focus';
import type { Filters, Verdict } from './controller';
import { kindLabel, STATE_LABEL } from './labels';

/** What Shift+A / Shift+R with nothing selected would decide: asked before anything is decided. */
export interface DecideAllRequest {
  verdict: Verdict;
  /** Open changes among those shown: what the confirmation decides. */
  count: number;
  filters: Filters;
}

/** "All kinds, all authors" or "Deletions, by Priya Nair, open only": the filters in words. */
export function describeFilters(filters: Filters): string {
  return [
    filters.kind === 'all' ? 'All kinds' : `${kindLabel(filters.kind)} only`,
    filters.author === 'all' ? 'all authors' : `by ${filters.author}`,
    ...(filters.state === 'all' ? [] : [`${STATE_LABEL[filters.state]} only`]),
  ].join(', ');
}

/**
 * The confirmation before deciding every change shown (a real file has thousands): it names
 * the count and the filters in force. Enter (the focused button) confirms; Escape decides nothing.
 */
export function DecideAllDialog({ request, onConfirm, onClose }: { request: DecideAllRequest | null; onConfirm: () => void; onClose: () => void }) {
  const verb = request?.verdict === 'back' ? 'Reject' : 'Accept';
  const count = request?.count ?? 0;
  const title = `${verb} all ${count.toLocaleString('en-GB')} shown change${count === 1 ? '' : 's'}?`;
  return (
    <Dialog open={request !== null} title={title} onClose={onClose} className="w-[min(28rem,calc(100vw-2rem))]">
      {request && <Confirm verb={verb} filters={describeFilters(request.filters)} onConfirm={onConfirm} onClose={onClose} />}
    </Dialog>
  );
}

function Confirm({ verb, filters, onConfirm, onClose }: { verb: string; filters: string; onConfirm: () => void; onClose: () => void }) {
  const confirm = useRef<HTMLButtonElement>(null);
  useInitialFocus(confirm);
  return (
    <div className="flex flex-col gap-3 text-sm">
      <p data-testid="decide-all-filters">{filters}.</p>
      <p className="text-ink-soft">Changes already decided are left as they are. <kbd>Enter</kbd> confirms, <kbd>Esc</kbd> cancels; <kbd>u</kbd> undoes the batch.</p>
      <div className="flex justify-end gap-2">
        <button type="button" className="btn" onClick={onClose}>Cancel</button>
        <button ref={confirm} type="button" className={`btn ${verb === 'Reject' ? 'btn-reject' : 'btn-accept'}`} onClick={onConfirm}>
          {verb} all
        </button>
      </div>
    </div>
  );
}
