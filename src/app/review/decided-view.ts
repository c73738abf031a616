import { MARK_PREFIX } from '../../contract/bookmark';
import { markerGlyph, marksOf } from './change-marks';
import { holderOfKind, type FindAnchor } from './highlight-target';

/** A change decided in this session, with its kind (the interface's revision kinds). */
export interface DecidedChange {
  state: 'in' | 'back';
  kind: string | null | undefined;
}

/**
 * The classes that show decided changes as Word shows the draft after those decisions, until the
 * service's bytes are rendered again (styles.css): what the decision takes away is gone
 * (`rl-decided-gone`: an accepted deletion, a rejected insertion, the row or cell they held, a
 * marker glyph), what it keeps is plain text (`rl-decided-kept`), and a paragraph whose mark goes
 * runs on into the next (`rl-decided-join`). The list says which way each was decided.
 */
export function decidedClasses(decided: ReadonlyMap<string, DecidedChange>, find: FindAnchor): Map<Element, string> {
  const classes = new Map<Element, string>();
  const rowsGone = new Set<Element>();
  for (const [id, change] of decided) {
    for (const anchor of [find(id), find(id, true)]) {
      if (anchor) showDecided(anchor, change, classes, rowsGone);
    }
  }
  // A table whose every row went goes with them (no empty frame of borders).
  const tables = new Set([...rowsGone].map((row) => row.closest('table')).filter((t): t is HTMLTableElement => t !== null));
  for (const table of tables) {
    if ([...table.rows].every((row) => rowsGone.has(row))) classes.set(table, 'rl-decided-gone');
  }
  return classes;
}

function showDecided(anchor: HTMLElement, change: DecidedChange, classes: Map<Element, string>, rowsGone: Set<Element>): void {
  const accepted = change.state === 'in';
  let glyph: string | null = null;
  for (const mark of marksOf(anchor)) {
    const marker = markerGlyph(mark);
    glyph ??= marker;
    const removed = marker !== null || (mark.tagName === 'DEL' ? accepted : mark.tagName === 'INS' || mark.classList.contains('rl-proposal') ? !accepted : false);
    classes.set(mark, removed ? 'rl-decided-gone' : 'rl-decided-kept');
  }
  const holder = holderOfKind(change.kind);
  if (holder === 'row' || holder === 'cell') {
    // The marker says which: "⊕" inserted, "⊖" deleted ("✎" a change of its properties, which stays).
    const goes = (glyph === '⊖' && accepted) || (glyph === '⊕' && !accepted);
    const structure = anchor.closest(holder === 'row' ? 'tr' : 'td, th');
    if (goes && structure) {
      classes.set(structure, 'rl-decided-gone');
      if (holder === 'row') rowsGone.add(structure);
    }
  } else if (holder === 'paragraph') {
    // A deleted mark has its "gone" bookmark in its paragraph (the render variant's); an inserted one has none.
    const p = anchor.closest('p');
    const deleted = p?.querySelector(`span[id^="${MARK_PREFIX.markGone}"]`) != null;
    if (p && deleted === accepted) classes.set(p, 'rl-decided-join');
  }
}
