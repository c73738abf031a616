import { useSyncExternalStore } from 'react';

/** Every review action that has a key. The handler, the buttons and the "?" dialog read this one table. */
export type ReviewAction =
  | 'next'
  | 'previous'
  | 'accept'
  | 'reject'
  | 'toggleSelect'
  | 'acceptMany'
  | 'rejectMany'
  | 'undo'
  | 'propose'
  | 'note'
  | 'withdraw'
  | 'comment'
  | 'otherHalf'
  | 'nextFinding'
  | 'previousFinding'
  | 'proposeFix'
  | 'print'
  | 'sideBySide'
  | 'otherSide'
  | 'help';

export interface Shortcut {
  action: ReviewAction;
  /** KeyboardEvent.key values that trigger it (Shift is part of the key for letters: "A"). */
  keys: readonly string[];
  /** The aria-keyshortcuts value (WAI-ARIA syntax). */
  aria: string;
  /** How the "?" dialog spells it. */
  label: readonly string[];
  description: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { action: 'next', keys: ['j'], aria: 'J', label: ['j'], description: 'Next change' },
  { action: 'previous', keys: ['k'], aria: 'K', label: ['k'], description: 'Previous change' },
  { action: 'accept', keys: ['a'], aria: 'A', label: ['a'], description: 'Accept the current change and move to the next open one' },
  { action: 'reject', keys: ['r'], aria: 'R', label: ['r'], description: 'Reject the current change and move to the next open one' },
  { action: 'toggleSelect', keys: ['x'], aria: 'X', label: ['x'], description: 'Select or unselect the current change for a batch' },
  { action: 'acceptMany', keys: ['A'], aria: 'Shift+A', label: ['Shift', 'A'], description: 'Accept the selection (or, after a confirmation, every open change shown when nothing is selected)' },
  { action: 'rejectMany', keys: ['R'], aria: 'Shift+R', label: ['Shift', 'R'], description: 'Reject the selection (or, after a confirmation, every open change shown when nothing is selected)' },
  { action: 'undo', keys: ['u'], aria: 'U', label: ['u'], description: 'Undo the last batch of decisions (or take back your last proposal)' },
  { action: 'propose', keys: ['e'], aria: 'E', label: ['e'], description: 'Propose your own change: at the text selected in the draft, or at the current change' },
  { action: 'note', keys: ['n'], aria: 'N', label: ['n'], description: 'Add a note to the current decision (on an open change: decide it with the note)' },
  { action: 'withdraw', keys: ['w'], aria: 'W', label: ['w'], description: 'Withdraw the current change if it is your own open proposal' },
  { action: 'comment', keys: ['c'], aria: 'C', label: ['c'], description: 'Comment on the text selected in the draft, or else on the current change' },
  { action: 'otherHalf', keys: ['m'], aria: 'M', label: ['m'], description: 'Moved passage: go to its other place' },
  { action: 'nextFinding', keys: [']'], aria: ']', label: [']'], description: 'Checks: next finding (opens the list)' },
  { action: 'previousFinding', keys: ['['], aria: '[', label: ['['], description: 'Checks: previous finding' },
  { action: 'proposeFix', keys: ['f'], aria: 'F', label: ['f'], description: 'Checks: propose the current finding\'s fix as a tracked change' },
  { action: 'print', keys: ['p'], aria: 'P', label: ['p'], description: 'Print the redline, or save it as a PDF (the browser\'s print dialog; Ctrl+P does the same)' },
  { action: 'sideBySide', keys: ['s'], aria: 'S', label: ['s'], description: 'Side by side: the older version beside the redline, scrolled together (again: the redline alone)' },
  { action: 'otherSide', keys: ['o'], aria: 'O', label: ['o'], description: 'Side by side on a phone: show the older version or the redline' },
  { action: 'help', keys: ['?'], aria: 'Shift+?', label: ['?'], description: 'Show these keys' },
];

const BY_KEY = new Map(SHORTCUTS.flatMap((s) => s.keys.map((k) => [k, s] as const)));

export function shortcutFor(action: ReviewAction): Shortcut {
  return SHORTCUTS.find((s) => s.action === action)!;
}

/** The action of a key press, or null. Presses with Ctrl, Alt or Meta belong to the browser. */
export function actionOfKey(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'altKey' | 'metaKey'>): ReviewAction | null {
  if (event.ctrlKey || event.altKey || event.metaKey) return null;
  return BY_KEY.get(event.key)?.action ?? null;
}

/** Single-key shortcuts never fire while the user types: form fields and editable content keep their keys. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) {
    return !['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file'].includes(target.type);
  }
  return false;
}

// WCAG 2.1.4 (Character Key Shortcuts): single-key shortcuts can be turned off, and the
// choice is remembered on this device.
const ENABLED_KEY = 'redline.shortcuts';
const listeners = new Set<() => void>();

function readEnabled(): boolean {
  try {
    return localStorage.getItem(ENABLED_KEY) !== 'off';
  } catch {
    return true;
  }
}

let enabled = readEnabled();

export function setShortcutsEnabled(value: boolean): void {
  enabled = value;
  try {
    localStorage.setItem(ENABLED_KEY, value ? 'on' : 'off');
  } catch {
    /* remembered for this page only */
  }
  for (const l of listeners) l();
}

export function useShortcutsEnabled(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => enabled,
  );
}
