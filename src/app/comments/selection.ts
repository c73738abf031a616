import type { TextAnchor } from '../../contract/comments';

/**
 * The text anchor of the reader's selection in the rendered draft: the selected text and which
 * occurrence of it this is, counted in the draft's live text (deleted text, shown struck
 * through, is not searchable, as in the service). Null when nothing is selected there; an
 * error message when the selection cannot be an anchor.
 */
export function selectionAnchor(): { anchor: TextAnchor; text: string } | { error: string } | null {
  const selection = window.getSelection();
  const host = document.querySelector('[data-testid="document-render"]');
  if (!selection || selection.isCollapsed || !host || selection.rangeCount === 0) return null;
  const range = selection.getRangeAt(0);
  if (!host.contains(range.commonAncestorContainer)) return null;
  const find = liveText(range.cloneContents()).replace(/\s+/g, ' ');
  if (!find.trim()) return null;
  if (closestParagraph(range.startContainer) !== closestParagraph(range.endContainer)) {
    return { error: 'Select text within one paragraph to comment on it.' };
  }
  const before = document.createRange();
  before.setStart(host, 0);
  before.setEnd(range.startContainer, range.startOffset);
  const prefix = liveText(before.cloneContents()).replace(/\s+/g, ' ');
  let occurrence = 1;
  for (let at = prefix.indexOf(find); at !== -1; at = prefix.indexOf(find, at + find.length)) occurrence++;
  return { anchor: { find, occurrence }, text: find };
}

function liveText(fragment: DocumentFragment): string {
  for (const del of fragment.querySelectorAll('del')) del.remove();
  return fragment.textContent ?? '';
}

function closestParagraph(node: Node): Element | null {
  const el = node instanceof Element ? node : node.parentElement;
  return el?.closest('p') ?? null;
}
