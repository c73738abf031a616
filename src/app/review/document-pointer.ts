import { changeBookmarkName } from '../../contract/bookmark';
import type { TrackItem } from '../../contract/track';
import { formatDateTime } from '../components/format';
import { kindLabel } from './labels';

/**
 * Which change a click (or a tap, or the pointer resting) in the rendered draft is on. The
 * render variant puts each change's bookmark, an empty <span id={changeBookmarkName(id)}>, just
 * before the change's <ins>/<del> (a marker "¶", "✎", "⊕" for changes with no text of their
 * own), so the change a mark belongs to is the nearest change bookmark before it in document
 * order. Only marks count: a click on plain text selects nothing, as in Word.
 *
 * It reads the DOM docx-preview produced and nothing of DocumentView's own state, so the view
 * can change how it lays pages out without this knowing.
 */
export function changeAtPoint(target: EventTarget | null, host: HTMLElement, idByBookmark: ReadonlyMap<string, string>): string | null {
  if (!(target instanceof Element)) return null;
  const mark = target.closest('ins, del');
  if (!mark || !host.contains(mark)) return null;
  const walker = document.createTreeWalker(host, NodeFilter.SHOW_ELEMENT);
  walker.currentNode = mark;
  // A change's runs can span paragraphs (an inserted clause): look back far enough for that,
  // but not across the whole draft when a mark has no bookmark of its own (a comment's range).
  for (let steps = 0; steps < 400; steps++) {
    const node = walker.previousNode();
    if (!node) return null;
    if (node instanceof HTMLElement && node.tagName === 'SPAN' && node.id) {
      const id = idByBookmark.get(node.id);
      if (id) return id;
    }
  }
  return null;
}

/** Bookmark name to change id, for every change of the track. */
export function bookmarkIndex(items: readonly { item: TrackItem }[]): Map<string, string> {
  return new Map(items.map(({ item }) => [changeBookmarkName(item.id), item.id]));
}

/** What the pointer resting on a change says: "Change 4 · Deletion · Priya Nair · 3 Feb 2025, 10:00". */
export function hoverText(item: TrackItem, date: string | null | undefined): string {
  return [item.label, kindLabel(item.kind), item.author ?? 'unknown author', date ? formatDateTime(date) : null].filter(Boolean).join(' · ');
}

/** True while the reader has text selected in the draft (a click ends a selection gesture: leave it alone). */
export function hasTextSelection(host: HTMLElement): boolean {
  const selection = window.getSelection();
  return !!selection && !selection.isCollapsed && selection.rangeCount > 0 && host.contains(selection.getRangeAt(0).commonAncestorContainer);
}
