import { useEffect, type RefObject } from 'react';

/**
 * Focuses `ref` once the dialog around it is shown. The native <dialog> focuses its first
 * control when showModal() runs, which is after the form's own mount, so React's autoFocus
 * would lose; this waits a task and then takes the focus.
 */
export function useInitialFocus(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const timer = setTimeout(() => ref.current?.focus());
    return () => clearTimeout(timer);
  }, [ref]);
}

/** Gives the keyboard back to the current change's option in the list (after a dialog closes). */
export function focusOption(domId: string | null): void {
  if (domId) setTimeout(() => document.getElementById(domId)?.focus({ preventScroll: true }));
}
