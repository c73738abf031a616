import type { ReviewSnapshot } from './controller';

/** The header's word on saving: saved, saving, or decisions waiting for the network. */
export function SavingStatus({ snapshot }: { snapshot: ReviewSnapshot }) {
  const { offline, waiting, pendingOps } = snapshot;
  const text = offline && waiting > 0
    ? `${waiting} decision${waiting === 1 ? '' : 's'} waiting to be sent`
    : pendingOps > 0 ? 'Saving…' : 'All decisions saved';
  return (
    <span aria-live="polite" data-testid="saving" className={offline && waiting > 0 ? 'font-medium text-open' : 'text-ink-soft'}>
      {text}
    </span>
  );
}

/** Who else has the draft open, and whether live updates are flowing. */
export function Viewers({ snapshot }: { snapshot: ReviewSnapshot }) {
  const { viewers, live } = snapshot;
  return (
    // "Nobody else" is no news: a phone gives that line to the document.
    <p className={`text-xs text-ink-soft ${viewers.length === 0 && live !== 'reconnecting' ? 'max-md:hidden' : ''}`} data-testid="viewers" aria-live="polite">
      {viewers.length > 0
        ? <>Also here: {viewers.map((v) => v.name + (v.connections > 1 ? ` (${v.connections})` : '')).join(', ')}</>
        : 'Nobody else has this draft open'}
      {live === 'reconnecting' && ' · live updates reconnecting…'}
    </p>
  );
}

/** Decisions made here that the service refused when they arrived, each with who decided the change and how. */
export function RefusedDecisions({ snapshot }: { snapshot: ReviewSnapshot }) {
  if (snapshot.refused.length === 0) return null;
  return (
    <details className="border-b border-line px-3 py-2 text-sm" data-testid="refused">
      <summary className="cursor-pointer text-danger">
        {snapshot.refused.length} decision{snapshot.refused.length === 1 ? ' was' : 's were'} not applied
      </summary>
      <ul className="mt-1 list-disc pl-5">
        {snapshot.refused.map((r, i) => (
          <li key={`${r.id}-${i}`}>
            {r.label}: you {r.mine === 'in' ? 'accepted' : 'rejected'} it;{' '}
            {r.theirs === 'gone' ? 'it had left the draft' : `${r.by ?? 'someone else'} had already ${r.theirs === 'in' ? 'accepted' : 'rejected'} it`}.
          </li>
        ))}
      </ul>
    </details>
  );
}
