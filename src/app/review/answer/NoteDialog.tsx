import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { NOTE_MAX_CHARS } from '../../../contract/review';
import type { TrackState } from '../../../contract/track';
import { Dialog } from '../../components/Dialog';
import { useInitialFocus } from './initial-focus';

/**
 * `n`: the note on the current change's decision (why it was accepted or rejected). On an open
 * change the note goes with the decision made here; Ctrl+Enter saves (or, on an open change,
 * rejects with the note: the usual reason to write one). Empty text removes a note.
 */
export function NoteDialog({ open, label, state, initial, onClose, onSave }: {
  open: boolean;
  label: string;
  state: TrackState;
  initial: string;
  onClose: () => void;
  onSave: (text: string, verdict?: 'in' | 'back') => void;
}) {
  return (
    <Dialog open={open} title={`Note on ${label}`} onClose={onClose} className="w-[min(30rem,calc(100vw-2rem))]">
      {open && <NoteForm state={state} initial={initial} onClose={onClose} onSave={onSave} />}
    </Dialog>
  );
}

function NoteForm({ state, initial, onClose, onSave }: { state: TrackState; initial: string; onClose: () => void; onSave: (text: string, verdict?: 'in' | 'back') => void }) {
  const id = useId();
  const [text, setText] = useState(initial);
  const decided = state !== 'open';
  const ref = useRef<HTMLTextAreaElement>(null);
  useInitialFocus(ref);
  function submit(event?: FormEvent, verdict?: 'in' | 'back') {
    event?.preventDefault();
    onSave(text, decided ? undefined : (verdict ?? 'back'));
  }
  function onKeyDown(event: KeyboardEvent<HTMLFormElement>) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) submit();
  }
  return (
    <form onSubmit={submit} onKeyDown={onKeyDown} className="flex flex-col gap-3 text-sm">
      <p className="text-ink-soft">
        {decided
          ? `Recorded with the decision (${state === 'in' ? 'accepted' : 'rejected'}); the report and the assistant read it.`
          : 'This change is open: the note goes with your decision.'}
      </p>
      <div className="flex flex-col gap-0.5">
        <label htmlFor={id} className="text-xs text-ink-soft">Note</label>
        <textarea id={id} className="field min-h-24" value={text} onChange={(e) => setText(e.target.value)} maxLength={NOTE_MAX_CHARS} />
      </div>
      <div className="flex flex-wrap items-center justify-end gap-2">
        <span className="mr-auto hidden text-xs text-ink-soft sm:inline"><kbd>Ctrl</kbd> + <kbd>Enter</kbd> {decided ? 'saves' : 'rejects with the note'}</span>
        <button type="button" className="btn" onClick={onClose}>Cancel</button>
        {decided ? (
          <button type="submit" className="btn btn-primary">Save note</button>
        ) : (
          <>
            <button type="button" className="btn btn-accept" onClick={() => submit(undefined, 'in')}>Accept with note</button>
            <button type="submit" className="btn btn-reject">Reject with note</button>
          </>
        )}
      </div>
    </form>
  );
}
