import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { RedlineEdit } from '../../../contract/review';
import { Dialog } from '../../components/Dialog';
import type { DraftTarget } from './draft-text';
import { useInitialFocus } from './initial-focus';

type Action = 'replace' | 'insert-before' | 'insert-after' | 'delete';
const ACTIONS: [Action, string][] = [['replace', 'Replace'], ['insert-before', 'Insert before'], ['insert-after', 'Insert after'], ['delete', 'Delete']];

/** The edit the form describes, in the redline edits route's words. */
function editOf(action: Action, find: string, occurrence: number, text: string, reason: string): RedlineEdit {
  const base = { find, occurrence, justification: reason.trim() };
  if (action === 'delete') return { ...base, op: 'delete' };
  if (action === 'replace') return { ...base, op: 'replace', text };
  return { ...base, op: 'insert', text, position: action === 'insert-before' ? 'before' : 'after' };
}

/**
 * `e`: a counter-proposal, written as a tracked change by the signed-in user. The target comes
 * from the selection in the draft or from the current change, and can be corrected by hand.
 * Ctrl+Enter (or Cmd+Enter) proposes; Escape closes.
 */
export function ProposalDialog({ open, target, context, onClose, onPropose, sending = false, refusal = null }: {
  open: boolean;
  target: DraftTarget | null;
  /** Where the target came from, said above the form ("your selection", "Change 4"). */
  context: string;
  onClose: () => void;
  onPropose: (edit: RedlineEdit) => void;
  /** The proposal is with the service: the dialog stays, with the typed text, until it answers. */
  sending?: boolean;
  /** Why the service refused it, in the reviewer's words; the form keeps what was typed. */
  refusal?: string | null;
}) {
  return (
    <Dialog open={open} title="Propose a change" onClose={onClose} className="w-[min(34rem,calc(100vw-2rem))]">
      {open && <ProposalForm key={`${target?.find}|${target?.occurrence}`} target={target} context={context} onClose={onClose} onPropose={onPropose} sending={sending} refusal={refusal} />}
    </Dialog>
  );
}

function ProposalForm({ target, context, onClose, onPropose, sending, refusal }: {
  target: DraftTarget | null;
  context: string;
  onClose: () => void;
  onPropose: (edit: RedlineEdit) => void;
  sending: boolean;
  refusal: string | null;
}) {
  const ids = { find: useId(), occurrence: useId(), text: useId(), reason: useId(), error: useId() };
  const [action, setAction] = useState<Action>(target?.op ?? 'replace');
  const [find, setFind] = useState(target?.find ?? '');
  const [occurrence, setOccurrence] = useState(target?.occurrence ?? 1);
  const [text, setText] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const findRef = useRef<HTMLInputElement>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  // Where typing starts: the target when there is none yet, else the text (or, to delete, the reason).
  useInitialFocus(!find ? findRef : action === 'delete' ? reasonRef : textRef);

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (!find) return setError('Say which text of the draft the change is about.');
    if (action !== 'delete' && !text) return setError(action === 'replace' ? 'Write the new text.' : 'Write the text to insert.');
    if (!reason.trim()) return setError('Give a reason: the other side reads it with your change.');
    if (sending) return;
    setError(null);
    onPropose(editOf(action, find, occurrence, text, reason));
  }
  function onKeyDown(event: KeyboardEvent<HTMLFormElement>) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) submit();
  }

  return (
    <form onSubmit={submit} onKeyDown={onKeyDown} className="flex flex-col gap-3 text-sm" aria-describedby={error ? ids.error : undefined}>
      <p className="text-ink-soft">From {context}. It becomes a tracked change in your name, with your reason.</p>
      <fieldset className="flex flex-wrap gap-x-4 gap-y-1">
        <legend className="mb-1 text-xs font-medium uppercase tracking-wide text-ink-soft">Change</legend>
        {ACTIONS.map(([value, label]) => (
          <label key={value} className="flex items-center gap-1.5">
            <input type="radio" name="proposal-action" value={value} checked={action === value} onChange={() => setAction(value)} />
            {label}
          </label>
        ))}
      </fieldset>
      <div className="grid grid-cols-[1fr_5.5rem] gap-2">
        <div className="flex flex-col gap-0.5">
          <label htmlFor={ids.find} className="text-xs text-ink-soft">Text in the draft</label>
          <input id={ids.find} ref={findRef} className="field" value={find} onChange={(e) => setFind(e.target.value)} />
        </div>
        <div className="flex flex-col gap-0.5">
          <label htmlFor={ids.occurrence} className="text-xs text-ink-soft">Occurrence</label>
          <input id={ids.occurrence} className="field" type="number" min={1} value={occurrence} onChange={(e) => setOccurrence(Math.max(1, Number(e.target.value) || 1))} />
        </div>
      </div>
      {action !== 'delete' && (
        <div className="flex flex-col gap-0.5">
          <label htmlFor={ids.text} className="text-xs text-ink-soft">{action === 'replace' ? 'New text' : 'Text to insert'}</label>
          <textarea id={ids.text} ref={textRef} className="field min-h-16" value={text} onChange={(e) => setText(e.target.value)} maxLength={100_000} />
        </div>
      )}
      <div className="flex flex-col gap-0.5">
        <label htmlFor={ids.reason} className="text-xs text-ink-soft">Reason</label>
        <textarea id={ids.reason} ref={reasonRef} className="field min-h-14" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={10_000} />
      </div>
      {(error ?? refusal) && <p id={ids.error} role="alert" className="text-danger">{error ?? refusal}</p>}
      {sending && <p role="status" className="text-ink-soft">Proposing…</p>}
      <div className="flex flex-wrap items-center justify-end gap-2">
        <span className="mr-auto hidden text-xs text-ink-soft sm:inline"><kbd>Ctrl</kbd> + <kbd>Enter</kbd> proposes</span>
        <button type="button" className="btn" onClick={onClose}>Cancel</button>
        <button type="submit" className="btn btn-primary" aria-disabled={sending}>Propose</button>
      </div>
    </form>
  );
}
