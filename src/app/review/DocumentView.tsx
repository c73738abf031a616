import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { changeBookmarkName, moveOtherHalfBookmarkName } from '../../contract/bookmark';
import { decidedClasses, type DecidedChange } from './decided-view';
import { showMarks } from './layout/marks';
import { showObjects } from './objects';
import type { Slicer } from './layout/paginate';
import { renderDraft } from './layout/render';
import { showAsAccepted } from './accepted-view';
import { entryHighlight, type EntryMember } from './highlight-target';
import { markEmptyMarkParagraphs } from './paragraph-marks';
import { uncompressedSize } from './zip-size';
import type { PageCitation } from './labels';

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

type RenderStatus = { kind: 'loading' } | { kind: 'ready' } | { kind: 'error'; message: string };

/**
 * Above this size of the draft's main part (about 40 pages) the pages around the current
 * change are shown first, from a window the service cuts, and the whole draft is laid out when
 * the reviewer pauses: docx-preview lays out everything before showing anything, seconds on a
 * long draft. (The size is read from the zip's directory: a long draft may compress to little.)
 */
const WINDOW_MIN_XML_BYTES = 1_000_000;

/**
 * A slice of the page layout runs this long at most, or until input is waiting where the browser
 * can say (isInputPending): a key then waits for one batch of blocks at most (paginate.ts, about
 * 14 ms). Where it cannot say, slices are short.
 */
const SLICE_MS = 100;
const BLIND_SLICE_MS = 16;

type SchedulingNavigator = Navigator & { scheduling?: { isInputPending?(): boolean } };
type YieldingScheduler = { yield?(): Promise<void> };

/** Resumes on a next task: scheduler.yield (the continuation goes before other tasks, after input), else a message (no 4 ms clamp). */
function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: YieldingScheduler }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

/** The layout's slices; it stops when `wanted` says. */
function slicer(wanted: () => boolean): Slicer {
  const scheduling = (navigator as SchedulingNavigator).scheduling;
  const isInputPending = scheduling?.isInputPending ? () => scheduling.isInputPending!() : null;
  const longest = isInputPending ? SLICE_MS : BLIND_SLICE_MS;
  let sliceStart = performance.now();
  return {
    shouldYield: () => performance.now() - sliceStart > longest || (isInputPending?.() ?? false),
    pause: async () => {
      await nextTask();
      sliceStart = performance.now();
    },
    wanted,
  };
}

/** Waits until no key has been pressed for QUIET_MS, then calls `run`; answers a cancel function. */
function whenQuiet(run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const wait = () => {
    const quietFor = performance.now() - lastKeyAt;
    timer = setTimeout(() => (performance.now() - lastKeyAt >= QUIET_MS ? run() : wait()), Math.max(100, QUIET_MS - quietFor));
  };
  wait();
  return () => clearTimeout(timer);
}

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
  onPages,
  loadWindow,
  currentMembers,
  label = 'Document',
}: {
  base64: string;
  view: MarkupView;
  currentId: string | null;
  /** Changes decided (optimistic or confirmed): shown as the decision leaves the draft until the next render. */
  decided: ReadonlyMap<string, DecidedChange>;
  onRendered?: (info: { ms: number; first: boolean }) => void;
  /** Called once the whole draft is laid out in pages: the page a change is on. */
  onPages?: (pageOf: (changeId: string) => PageCitation | null) => void;
  /** The render variant cut to the pages around a change (null: the start); enables the window on long drafts. */
  loadWindow?: (changeId: string | null) => Promise<Uint8Array>;
  /** The changes of the current entry (its members, or the current change alone): all highlighted. */
  currentMembers: readonly EntryMember[];
  /** The region's name (two views side by side need two names). */
  label?: string;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const host = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<RenderStatus>({ kind: 'loading' });
  const [renderCount, setRenderCount] = useState(0);
  const onRenderedRef = useRef(onRendered);
  const onPagesRef = useRef(onPages);
  const lastRenderMs = useRef(0);
  const renderedView = useRef<MarkupView | null>(null);
  // What the page shows: nothing yet, a window around a change (long drafts), or the whole draft.
  const [shown, setShown] = useState<'none' | 'window' | 'full'>('none');
  const shownRef = useRef<'none' | 'window' | 'full'>('none');
  const loadWindowRef = useRef(loadWindow);
  const currentIdRef = useRef(currentId);
  const currentMembersRef = useRef(currentMembers);
  const windowSeq = useRef(0);
  useLayoutEffect(() => {
    onRenderedRef.current = onRendered;
    onPagesRef.current = onPages;
    loadWindowRef.current = loadWindow;
    currentIdRef.current = currentId;
    currentMembersRef.current = currentMembers;
  });

  /**
   * Renders `bytes` off-screen and swaps the result in whole, keeping the scroll position. The
   * whole draft is laid out in pages off-screen first, in slices that give the main thread back
   * (a key is never kept waiting by the layout); a window around a change is not laid out: its
   * page numbers would not be the draft's.
   */
  const swapIn = useRef(async (bytes: Uint8Array, markupView: MarkupView, kind: 'window' | 'full', isCurrent: () => boolean): Promise<boolean> => {
    const { styles, body, layOut, phases } = await renderDraft(bytes, markupView === 'all');
    const marksAt = performance.now();
    markEmptyMarkParagraphs(body);
    if (markupView === 'none') showAsAccepted(body);
    showMarks(body);
    showObjects(body);
    phases.push(performance.now() - marksAt);
    // A newer render (other bytes, the other view) may have started meanwhile: it wins.
    if (!host.current || !isCurrent()) return false;
    let pages: number | null = null;
    if (kind === 'full') {
      const laidOutAt = performance.now();
      // Laid out where it is measured but never seen, outside the pane (whose paint it would invalidate).
      const building = document.createElement('div');
      building.className = 'doc-view rl-building';
      building.setAttribute('aria-hidden', 'true');
      building.append(styles, body);
      document.body.append(building);
      try {
        pages = await layOut(slicer(isCurrent));
      } finally {
        building.remove();
      }
      if (pages === null || !host.current || !isCurrent()) return false;
      // Read by bench/app.ts and bench/view.ts: what the page layout adds to a render.
      host.current.dataset.layoutMs = String(Math.round(performance.now() - laidOutAt));
      host.current.dataset.renderPhases = phases.map(Math.round).join(',');
    }
    const top = scroller.current?.scrollTop ?? 0;
    host.current.replaceChildren(styles, body);
    if (pages !== null) {
      host.current.dataset.pages = String(pages);
      const container = host.current;
      // Asked for every entry of the list on each of its renders: each change's page is found once.
      const pageOf = new Map<string, PageCitation | null>();
      onPagesRef.current?.((changeId) => {
        if (!pageOf.has(changeId)) pageOf.set(changeId, pageOfAnchor(findAnchor(container, changeId)));
        return pageOf.get(changeId)!;
      });
    }
    if (scroller.current && kind === 'full') scroller.current.scrollTop = top;
    host.current.dataset.firstPage = 'true';
    if (kind === 'full') host.current.dataset.rendered = 'true';
    // Which view the pages show: printing waits for "All markup" (print/usePrintRedline.tsx).
    host.current.dataset.view = markupView;
    shownRef.current = kind;
    setShown(kind);
    return true;
  });

  /** Shows the window around `changeId`; false when there is none (the change is not in the body). */
  const showWindow = useRef(async (changeId: string | null, markupView: MarkupView): Promise<boolean> => {
    const load = loadWindowRef.current;
    if (!load) return false;
    const seq = ++windowSeq.current;
    let bytes: Uint8Array;
    try {
      bytes = await load(changeId);
    } catch {
      return false;
    }
    if (seq !== windowSeq.current || shownRef.current === 'full') return false;
    if (!(await swapIn.current(bytes, markupView, 'window', () => seq === windowSeq.current && shownRef.current !== 'full'))) return false;
    renderedView.current = markupView;
    setRenderCount((n) => n + 1);
    return true;
  });

  useEffect(() => {
    let cancelled = false;
    // Decoded once: the window's size test and the whole render both read it.
    const bytes = decodeBase64(base64);
    const render = async () => {
      const started = performance.now();
      try {
        const first = host.current?.dataset.rendered !== 'true';
        if (!(await swapIn.current(bytes, view, 'full', () => !cancelled))) return;
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
    let cancelQuiet = () => {};
    const windowFirst =
      shownRef.current !== 'full' &&
      loadWindowRef.current !== undefined &&
      (uncompressedSize(bytes, 'word/document.xml') ?? 0) >= WINDOW_MIN_XML_BYTES;
    const deferrable = renderedView.current === view && lastRenderMs.current > 150;
    if (windowFirst) {
      // The pages around the current change at once; the whole draft when the reviewer pauses.
      // A change with no place in the text (styles, numbering) has no window: show the start.
      void showWindow.current(currentIdRef.current, view)
        .then((ok) => ok || showWindow.current(null, view))
        .then((ok) => {
        if (cancelled) return;
        if (ok) setStatus({ kind: 'ready' });
        if (ok) cancelQuiet = whenQuiet(() => void render());
        else void render();
      });
    } else if (!deferrable) void render();
    else cancelQuiet = whenQuiet(() => void render());
    return () => {
      cancelled = true;
      cancelQuiet();
    };
  }, [base64, view]);

  // In a window, a change outside it brings the window around that change (after a short pause,
  // so holding j does not ask for every window on the way).
  useEffect(() => {
    const container = host.current;
    if (shown !== 'window' || !container || !currentId || findAnchor(container, currentId)) return;
    const timer = setTimeout(() => void showWindow.current(currentId, renderedView.current ?? view), 120);
    return () => clearTimeout(timer);
  }, [currentId, shown, view, renderCount]);

  // Decided changes still present in the rendered draft are shown as decided at once (the
  // optimistic half of a decision); the next render from the service's bytes replaces them.
  const marked = useRef(new Map<Element, string>());
  useEffect(() => {
    const container = host.current;
    if (!container || renderCount === 0) return;
    const wanted = decidedClasses(decided, (id, otherHalf) => findAnchor(container, id, otherHalf ? moveOtherHalfBookmarkName : changeBookmarkName));
    for (const [el, cls] of marked.current) if (wanted.get(el) !== cls) el.classList.remove(cls);
    for (const [el, cls] of wanted) el.classList.add(cls);
    marked.current = wanted;
  }, [decided, renderCount]);

  // Show the current entry: mark its bookmark, highlight every change of it (a move in both its
  // places), and scroll so where it starts is in view (all of it, when it fits).
  const membersKey = currentMembers.map((m) => m.id).join(' ');
  useEffect(() => {
    const container = host.current;
    const pane = scroller.current;
    if (!container || !pane || !currentId || renderCount === 0) return;
    const members = currentMembersRef.current.length > 0 ? currentMembersRef.current : [{ id: currentId, kind: null }];
    const { anchor, here, elsewhere } = entryHighlight(members, (id, otherHalf) => findAnchor(container, id, otherHalf ? moveOtherHalfBookmarkName : changeBookmarkName));
    if (!anchor) return;
    anchor.classList.add('rl-here-mark');
    const highlighted = [...here, ...elsewhere];
    for (const el of highlighted) el.classList.add('rl-here');
    const paneBox = pane.getBoundingClientRect();
    const boxes = (here.length > 0 ? here : [anchor]).map((el) => el.getBoundingClientRect()).filter((b) => b.width > 0 || b.height > 0);
    if (boxes.length > 0) {
      const top = Math.min(...boxes.map((b) => b.top));
      const bottom = Math.max(...boxes.map((b) => b.bottom));
      const room = paneBox.height - 80;
      if (top < paneBox.top + 40 || bottom > paneBox.bottom - 40) {
        // All of it a third down when it fits, else its start near the top.
        const offset = bottom - top <= room ? Math.min(paneBox.height / 3, paneBox.height - 40 - (bottom - top)) : 40;
        pane.scrollTop += top - paneBox.top - Math.max(40, offset);
      }
    }
    return () => {
      anchor.classList.remove('rl-here-mark');
      for (const el of highlighted) el.classList.remove('rl-here');
    };
  }, [currentId, membersKey, renderCount]);

  return (
    <div
      ref={scroller}
      className="doc-view relative h-full overflow-auto bg-canvas focus-ring"
      // A scrollable region must be reachable by keyboard (WCAG 2.1.1); it is also part of
      // the review area where the single-key shortcuts work.
      tabIndex={0}
      role="region"
      aria-label={label}
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
      {shown === 'window' && (
        <p role="status" className="sticky top-0 z-10 border-b border-line bg-paper/95 px-3 py-1 text-xs text-ink-soft">
          Showing the pages around this change; the whole draft follows when you pause.
        </p>
      )}
      <div ref={host} data-testid="document-render" />
    </div>
  );
}

/** The page an element is on, once laid out: the number it prints (`data-page-label`) and its place in the file (`data-page-number`). */
function pageOfAnchor(anchor: HTMLElement | null): PageCitation | null {
  const page = anchor?.closest<HTMLElement>('[data-page-number]');
  return page ? { label: page.dataset.pageLabel ?? page.dataset.pageNumber!, physical: Number(page.dataset.pageNumber) } : null;
}

/** The bookmark docx-preview rendered for a change (getElementById: O(1) even on 300 pages). */
function findAnchor(container: HTMLElement, changeId: string, name: (changeId: string) => string = changeBookmarkName): HTMLElement | null {
  const anchor = document.getElementById(name(changeId));
  return anchor && container.contains(anchor) ? anchor : null;
}
