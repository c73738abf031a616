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

/**
 * Gives the keyboard back to the list after a dialog or a composer closes (saved or cancelled):
 * to the option `domId`, or where the list is not shown (a phone's list panel is closed) to the
 * document (or, before it is rendered, the review area itself), where the single-key shortcuts work. Never left on
 * the page body, where j, k, a, r and n would do nothing.
 */
export function focusOption(domId: string | null): void {
  const focus = () => {
    const option = domId ? document.getElementById(domId) : null;
    if (option && option.checkVisibility()) option.focus({ preventScroll: true });
    else (document.querySelector<HTMLElement>('.doc-view[role=region]') ?? document.querySelector<HTMLElement>('[data-review-area]'))?.focus({ preventScroll: true });
  };
  // At once, so a key typed right after the save or the Escape already finds the list; and once
  // more after the composer or dialog has gone, should its removal have dropped the focus.
  focus();
  setTimeout(() => {
    if (document.activeElement === document.body || document.activeElement === null) focus();
  });
}
