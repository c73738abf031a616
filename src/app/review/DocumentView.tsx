import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type * as DocxPreview from 'docx-preview';
import { changeBookmarkName } from '../../contract/bookmark';

export type MarkupView = 'all' | 'none';

function decodeBase64(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** How long the keys must be still before a slow re-render may block the page. */
const QUIET_MS = 2000;
let lastKeyAt = 0;
if (typeof window !== 'undefined') window.addEventListener('keydown', () => (lastKeyAt = performance.now()), { capture: true });

/** docx-preview is loaded on first use: it is bigger than the whole sign-in route. */
let docxPreview: Promise<typeof DocxPreview> | null = null;
function loadDocxPreview() {
  docxPreview ??= import('docx-preview');
  return docxPreview;
}

type RenderStatus = { kind: 'loading' } | { kind: 'ready' } | { kind: 'error'; message: string };

/**
 * The working draft as docx-preview renders it. "All markup" renders tracked changes
 * (renderChanges: true: <ins>/<del>); "No markup" renders the text as if every change were
 * accepted for reading (renderChanges: false). Each change's bookmark is an empty
 * <span id={changeBookmarkName(id)}>, which is how the current change is found and shown.
 *
 * A new render is built off-screen and swapped in whole, keeping the scroll position, so a
 * reconcile after a batch never flashes an empty page.
 */
export function DocumentView({
  base64,
  view,
  currentId,
  decided,
  onRendered,
}: {
  base64: string;
  view: MarkupView;
  currentId: string | null;
  /** Changes decided in this session (optimistic or confirmed): shown decided until the next render. */
  decided: ReadonlyMap<string, 'in' | 'back'>;
  onRendered?: (info: { ms: number; first: boolean }) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const host = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<RenderStatus>({ kind: 'loading' });
  const [renderCount, setRenderCount] = useState(0);
  const onRenderedRef = useRef(onRendered);
  const lastRenderMs = useRef(0);
  const renderedView = useRef<MarkupView | null>(null);
  useLayoutEffect(() => {
    onRenderedRef.current = onRendered;
  });

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const render = async () => {
      const started = performance.now();
      try {
        const { renderAsync } = await loadDocxPreview();
        if (cancelled) return;
        const body = document.createElement('div');
        const styles = document.createElement('div');
        await renderAsync(decodeBase64(base64), body, styles, {
          className: 'docx',
          inWrapper: true,
          breakPages: true,
          ignoreLastRenderedPageBreak: true,
          renderChanges: view === 'all',
          renderComments: false,
          renderHeaders: true,
          renderFooters: true,
          renderFootnotes: true,
          renderEndnotes: true,
          useBase64URL: false,
          experimental: false,
        });
        if (cancelled || !host.current) return;
        const top = scroller.current?.scrollTop ?? 0;
        host.current.replaceChildren(styles, body);
        if (scroller.current) scroller.current.scrollTop = top;
        const first = host.current.dataset.rendered !== 'true';
        host.current.dataset.rendered = 'true';
        lastRenderMs.current = performance.now() - started;
        renderedView.current = view;
        setStatus({ kind: 'ready' });
        setRenderCount((n) => n + 1);
        onRenderedRef.current?.({ ms: lastRenderMs.current, first });
      } catch (error) {
        if (!cancelled) setStatus({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
      }
    };
    // docx-preview renders on the main thread: a long draft takes seconds, during which keys
    // would wait. After a batch (same view, new bytes) the decided changes are already shown
    // by the marks below, so a slow re-render waits until the reviewer pauses.
    const deferrable = renderedView.current === view && lastRenderMs.current > 150;
    if (!deferrable) void render();
    else {
      const wait = () => {
        const quietFor = performance.now() - lastKeyAt;
        timer = setTimeout(() => (performance.now() - lastKeyAt >= QUIET_MS ? void render() : wait()), Math.max(100, QUIET_MS - quietFor));
      };
      wait();
    }
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [base64, view]);

  // Decided changes still present in the rendered draft are shown as decided at once (the
  // optimistic half of a decision); the next render from the service's bytes replaces them.
  const marked = useRef(new Map<Element, string>());
  useEffect(() => {
    const container = host.current;
    if (!container || renderCount === 0) return;
    const wanted = new Map<Element, string>();
    for (const [id, state] of decided) {
      const anchor = findAnchor(container, id);
      if (!anchor) continue;
      const cls = state === 'in' ? 'rl-decided-in' : 'rl-decided-back';
      wanted.set(anchor, cls);
      const target = highlightTarget(anchor);
      if (target !== anchor) wanted.set(target, cls);
    }
    for (const [el, cls] of marked.current) if (wanted.get(el) !== cls) el.classList.remove(cls);
    for (const [el, cls] of wanted) el.classList.add(cls);
    marked.current = wanted;
  }, [decided, renderCount]);

  // Show the current change: mark its bookmark, highlight what follows it, scroll it to the middle.
  useEffect(() => {
    const container = host.current;
    const pane = scroller.current;
    if (!container || !pane || !currentId || renderCount === 0) return;
    const anchor = findAnchor(container, currentId);
    if (!anchor) return;
    const target = highlightTarget(anchor);
    anchor.classList.add('rl-here-mark');
    target.classList.add('rl-here');
    const paneBox = pane.getBoundingClientRect();
    const box = (target === anchor ? anchor : target).getBoundingClientRect();
    if (box.top < paneBox.top + 40 || box.bottom > paneBox.bottom - 40) {
      pane.scrollTop += box.top - paneBox.top - paneBox.height / 3;
    }
    return () => {
      anchor.classList.remove('rl-here-mark');
      target.classList.remove('rl-here');
    };
  }, [currentId, renderCount]);

  return (
    <div
      ref={scroller}
      className="doc-view relative h-full overflow-auto bg-canvas focus-ring"
      // A scrollable region must be reachable by keyboard (WCAG 2.1.1); it is also part of
      // the review area where the single-key shortcuts work.
      tabIndex={0}
      role="region"
      aria-label="Document"
      aria-busy={status.kind === 'loading'}
    >
      {status.kind === 'loading' && renderCount === 0 && (
        <p role="status" className="p-6 text-ink-soft">Rendering the document…</p>
      )}
      {status.kind === 'error' && (
        <p role="alert" className="m-4 rounded border border-danger bg-danger-soft p-3 text-danger">
          The document could not be displayed ({status.message}). The list of changes still works; download the .docx to read it in Word.
        </p>
      )}
      <div ref={host} data-testid="document-render" />
    </div>
  );
}

/** The bookmark docx-preview rendered for a change (getElementById: O(1) even on 300 pages). */
function findAnchor(container: HTMLElement, changeId: string): HTMLElement | null {
  const anchor = document.getElementById(changeBookmarkName(changeId));
  return anchor && container.contains(anchor) ? anchor : null;
}

/**
 * What to highlight for a change: the inserted or deleted run right after the bookmark when
 * there is one, else the paragraph (or table cell) that holds it, for property changes.
 */
function highlightTarget(anchor: HTMLElement): HTMLElement {
  let next = anchor.nextElementSibling;
  while (next && next.tagName === 'SPAN' && next.id && next.textContent === '') next = next.nextElementSibling;
  if (next instanceof HTMLElement && (next.tagName === 'INS' || next.tagName === 'DEL')) return next;
  return anchor.closest<HTMLElement>('p, td, th, li') ?? anchor;
}
