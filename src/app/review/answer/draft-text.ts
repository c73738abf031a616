import { changeBookmarkName } from '../../../contract/bookmark';

/**
 * Where a counter-proposal goes, read off the rendered draft: the exact text to find and which
 * occurrence of it, counted as the engine counts (redline edits: paragraph by paragraph in
 * document order, deleted text left out, matches not overlapping). docx-preview renders each
 * paragraph as a <p> and deletions as <del>; headers, footers and notes are not searched.
 */
export interface DraftTarget {
  find: string;
  occurrence: number;
  /** The edit that fits the target best: replace an insertion, insert next to anything else. */
  op: 'replace' | 'insert-before' | 'insert-after';
}

const SKIPPED = 'header, footer, del, [class*="footnote"], [class*="endnote"]';
/** How much of the text before a change is used to place a proposal next to it. */
const CONTEXT_CHARS = 40;

function renderRoot(): HTMLElement | null {
  return document.querySelector<HTMLElement>('[data-testid="document-render"]');
}

function paragraphs(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>('p')].filter((p) => !p.parentElement?.closest(SKIPPED) && !p.querySelector('p'));
}

/** The searchable text nodes of a paragraph, in order (none inside a deletion). */
function textNodes(p: HTMLElement): Text[] {
  const nodes: Text[] = [];
  const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement?.closest('del') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n as Text);
  return nodes;
}

function textOf(p: HTMLElement): string {
  return textNodes(p).map((n) => n.data).join('');
}

/** The offset in the paragraph's searchable text of a DOM position inside it. */
function offsetIn(p: HTMLElement, container: Node, offset: number): number {
  const before = document.createRange();
  before.setStart(p, 0);
  before.setEnd(container, offset);
  let at = 0;
  for (const n of textNodes(p)) {
    if (n === container) return at + offset;
    // A text node that ends after the position (and does not hold it) lies wholly after it.
    if (before.comparePoint(n, n.data.length) > 0) break;
    at += n.data.length;
  }
  return at;
}

/** Non-overlapping matches of `find` in `text`, as the engine steps through them. */
function matchStarts(text: string, find: string): number[] {
  const out: number[] = [];
  for (let at = text.indexOf(find); at >= 0; at = text.indexOf(find, at + find.length)) out.push(at);
  return out;
}

/** Which occurrence (1-based) of `find` starts at `start` of paragraph `p`. */
function occurrenceAt(root: HTMLElement, p: HTMLElement, start: number, find: string): number {
  let count = 0;
  for (const q of paragraphs(root)) {
    const starts = matchStarts(textOf(q), find);
    if (q !== p) {
      count += starts.length;
      continue;
    }
    return count + Math.max(1, starts.filter((s) => s <= start).length);
  }
  return Math.max(1, count);
}

/** The selected text of the rendered draft (within its first paragraph), or null. */
export function selectionTarget(): DraftTarget | null {
  const root = renderRoot();
  const selection = window.getSelection();
  if (!root || !selection || selection.rangeCount === 0 || selection.isCollapsed) return null;
  const range = selection.getRangeAt(0);
  const p = (range.startContainer instanceof Element ? range.startContainer : range.startContainer.parentElement)?.closest('p');
  if (!(p instanceof HTMLElement) || !root.contains(p)) return null;
  const text = textOf(p);
  let start = offsetIn(p, range.startContainer, range.startOffset);
  let end = p.contains(range.endContainer) ? offsetIn(p, range.endContainer, range.endOffset) : text.length;
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  const find = text.slice(start, end);
  if (!find) return null;
  return { find, occurrence: occurrenceAt(root, p, start, find), op: 'replace' };
}

/**
 * A target at a change of the rendered draft: an insertion still there is itself the target
 * (replace it); anything else is placed after the words before it in its paragraph, or before
 * the words after it when it starts the paragraph. Null when the change is not in the render.
 */
export function changeTarget(changeId: string): DraftTarget | null {
  const root = renderRoot();
  const anchor = document.getElementById(changeBookmarkName(changeId));
  if (!root || !anchor || !root.contains(anchor)) return null;
  const p = anchor.closest('p');
  if (!(p instanceof HTMLElement)) return null;
  const text = textOf(p);
  let next = anchor.nextElementSibling;
  while (next && next.tagName === 'SPAN' && next.id && next.textContent === '') next = next.nextElementSibling;
  const at = offsetIn(p, anchor.parentNode!, [...anchor.parentNode!.childNodes].indexOf(anchor));
  if (next?.tagName === 'INS' && next.textContent?.trim()) {
    const inserted = next.textContent;
    const lead = inserted.length - inserted.trimStart().length;
    const find = inserted.trim();
    return { find, occurrence: occurrenceAt(root, p, at + lead, find), op: 'replace' };
  }
  const before = text.slice(0, at).replace(/\s+$/, '');
  if (before) {
    const cut = before.length > CONTEXT_CHARS ? before.slice(before.indexOf(' ', before.length - CONTEXT_CHARS) + 1 || before.length - CONTEXT_CHARS) : before;
    const find = cut.trim() ? cut : before;
    return { find, occurrence: occurrenceAt(root, p, before.length - find.length, find), op: 'insert-after' };
  }
  const after = text.slice(at).replace(/^\s+/, '');
  if (!after) return null;
  const head = after.length > CONTEXT_CHARS ? after.slice(0, after.lastIndexOf(' ', CONTEXT_CHARS) > 0 ? after.lastIndexOf(' ', CONTEXT_CHARS) : CONTEXT_CHARS) : after;
  return { find: head, occurrence: occurrenceAt(root, p, text.length - after.length, head), op: 'insert-before' };
}
