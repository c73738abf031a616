import { Fragment } from 'react';
import { Dialog } from '../components/Dialog';
import { SHORTCUTS } from './shortcuts';

/** The "?" dialog: every key of the review page, from the same table the handler uses. */
export function KeyHelpDialog({ open, onClose, enabled }: { open: boolean; onClose: () => void; enabled: boolean }) {
  return (
    <Dialog open={open} title="Keyboard shortcuts" onClose={onClose}>
      {!enabled && (
        <p className="mb-3 rounded border border-line bg-open-soft p-2 text-sm">
          Single-key shortcuts are off. Turn them on with “Single-key shortcuts” above the list of changes.
        </p>
      )}
      <p className="mb-2 text-sm text-ink-soft">They work while the focus is in the document or the list of changes, never in a text field.</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
        {SHORTCUTS.map((s) => (
          <Fragment key={s.action}>
            <dt className="whitespace-nowrap">
              {s.label.map((k, i) => (
                <Fragment key={k}>
                  {i > 0 && ' + '}
                  <kbd>{k}</kbd>
                </Fragment>
              ))}
            </dt>
            <dd>{s.description}</dd>
          </Fragment>
        ))}
        <dt className="whitespace-nowrap"><kbd>↑</kbd> / <kbd>↓</kbd></dt>
        <dd>Previous / next change in the list (always on)</dd>
        <dt className="whitespace-nowrap"><kbd>Space</kbd></dt>
        <dd>Select or unselect the focused change in the list (always on)</dd>
      </dl>
      <div className="mt-4 flex justify-end">
        <button type="button" className="btn btn-primary" onClick={onClose} autoFocus>Close</button>
      </div>
    </Dialog>
  );
}
