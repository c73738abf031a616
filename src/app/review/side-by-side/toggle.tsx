import { useState } from 'react';
import type { Side } from './paragraph-places';

export interface SideBySideState {
  on: boolean;
  /** On a phone, the one side shown. */
  shown: Side;
  show: (side: Side) => void;
  toggle: () => void;
  /** The keys' actions: `s` turns side by side on and off; `o` shows the other side (turning it on, with the older side shown). */
  run: (action: 'sideBySide' | 'otherSide') => void;
}

/** Whether the review page reads side by side, and which side a phone shows. */
export function useSideBySideState(): SideBySideState {
  const [on, setOn] = useState(false);
  const [shown, setShown] = useState<Side>('redline');
  return {
    on,
    shown,
    show: setShown,
    toggle: () => setOn((v) => !v),
    run: (action) => {
      if (action === 'sideBySide') return setOn((v) => !v);
      if (!on) {
        setOn(true);
        return setShown('older');
      }
      setShown((s) => (s === 'older' ? 'redline' : 'older'));
    },
  };
}

/**
 * The header's button: the older version beside the redline, or the redline alone. On a phone it
 * shows only while side by side is on (to leave it): off, a third row of buttons would take the
 * document below half the screen, as Print and Download would; `s` or the changes panel opens it there.
 */
export function SideBySideToggle({ state, shortcut }: { state: SideBySideState; shortcut: string | undefined }) {
  return (
    <button type="button" className={`btn text-sm max-md:order-2 max-md:min-h-[44px] max-md:px-2 max-md:text-xs ${state.on ? '' : 'max-md:hidden'}`} aria-pressed={state.on} aria-keyshortcuts={shortcut}
      onClick={state.toggle} title="The older version beside the redline, scrolled together">
      Side by side
    </button>
  );
}
