import { useEffect, useRef, useState } from 'react';
import { parseComparisonArtifactId } from '../../../contract/compare';
import { useUpload } from '../../api/compare';
import type { ReviewData } from '../../api/review';
import { sessionStore } from '../../auth/session';
import { useComments } from '../../comments/comments-api';
import { formatDateTime } from '../../components/format';
import { entriesOf, type ShownItem } from '../entries';
import { buildPrintLayout, type PrintLayout } from './print-layout';
import { printNotes, printSummary } from './summary';

/** How long the whole draft may take to be laid out in "All markup" before printing gives up. */
const READY_TIMEOUT_MS = 180_000;
/** The view's rendered draft, as DocumentView marks it once laid out in pages. */
const RENDERED = '[data-review-area] [data-testid=document-render]';

export interface PrintRedline {
  /** Lays the redline out for print and opens the browser's print dialog ("Save as PDF" there). */
  print(): void;
  busy: boolean;
}

/**
 * "Print redline": the draft in "All markup", page for page as the view lays it out, after a
 * summary, printed by the browser (print-layout.ts). The view is switched to "All markup" and
 * its whole layout awaited first (a long draft shows a window around a change until then).
 * Ctrl+P (⌘P) does the same; the browser's own menu prints it too once the view is ready.
 */
export function usePrintRedline({ data, items, view, showAllMarkup, onError }: {
  data: ReviewData;
  items: readonly ShownItem[];
  view: 'all' | 'none';
  showAllMarkup: () => void;
  onError: (text: string) => void;
}): PrintRedline {
  const [busy, setBusy] = useState(false);
  const comparison = parseComparisonArtifactId(data.document.artifactId);
  const source = useUpload(data.document.parentUploadId).data ?? null;
  const against = useUpload(comparison?.kind === 'compare' ? comparison.against : null).data ?? null;
  const comments = useComments(data);
  const layout = useRef<PrintLayout | null>(null);

  // What the layout reads when it is built (the latest, not the render's that started it).
  const latest = useRef({ data, items, view, showAllMarkup, onError, source, against, comments: comments.data ?? [] });
  useEffect(() => {
    latest.current = { data, items, view, showAllMarkup, onError, source, against, comments: comments.data ?? [] };
  });

  const build = useRef((host: HTMLElement) => {
    const { data, items, source, against, comments } = latest.current;
    const kind = parseComparisonArtifactId(data.document.artifactId)?.kind;
    const versions: [string, string][] =
      kind === 'compare'
        ? [['Versions compared', `v${against?.documentVersion ?? '?'} (older) with v${source?.documentVersion ?? '?'} (newer)`]]
        : kind === 'untracked'
          ? [['Versions', `The edits made in v${source?.documentVersion ?? '?'} without tracking`]]
          : [['Version reviewed', `Working draft, version ${data.document.documentVersion}`]];
    const user = sessionStore.get()?.user;
    layout.current?.dispose();
    layout.current = buildPrintLayout(host, {
      summary: (pageOf) =>
        printSummary({
          fileName: data.document.fileName,
          versions,
          printedAt: new Date(),
          printedBy: user ? `${user.name} (${user.email})` : null,
          entries: entriesOf(items, new Map()),
          pageOf,
          formatDate: formatDateTime,
        }),
      notes: (placeOf) => printNotes(comments, placeOf, formatDateTime),
    });
  });

  const busyRef = useRef(false);
  const print = useRef(async () => {
    if (busyRef.current) return;
    busyRef.current = true;
    setBusy(true);
    try {
      if (latest.current.view !== 'all') latest.current.showAllMarkup();
      const host = await laidOutInAllMarkup();
      if (!host) {
        latest.current.onError('The draft could not be laid out for printing in time. Try again when its pages are shown.');
        return;
      }
      build.current(host);
      // The dialog is modal in most browsers (print returns when it closes); afterprint tidies up either way.
      window.print();
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  });

  useEffect(() => {
    // Ctrl+P prints the redline, not the app around it.
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey || event.key.toLowerCase() !== 'p') return;
      event.preventDefault();
      void print.current();
    };
    // The browser's own menu: the redline as the view shows it when it is ready; else the page as it is.
    const before = () => {
      if (layout.current) return;
      const host = document.querySelector<HTMLElement>(RENDERED);
      if (host?.dataset.rendered === 'true' && host.dataset.view === 'all') build.current(host);
    };
    const after = () => {
      layout.current?.dispose();
      layout.current = null;
    };
    window.addEventListener('keydown', onKey, { capture: true });
    window.addEventListener('beforeprint', before);
    window.addEventListener('afterprint', after);
    return () => {
      window.removeEventListener('keydown', onKey, { capture: true });
      window.removeEventListener('beforeprint', before);
      window.removeEventListener('afterprint', after);
      after();
    };
  }, []);

  return { print: () => void print.current(), busy };
}

/** The view's draft once laid out in pages in "All markup"; null after READY_TIMEOUT_MS. */
async function laidOutInAllMarkup(): Promise<HTMLElement | null> {
  const until = performance.now() + READY_TIMEOUT_MS;
  while (performance.now() < until) {
    const host = document.querySelector<HTMLElement>(RENDERED);
    if (host?.dataset.rendered === 'true' && host.dataset.view === 'all' && host.dataset.pages) return host;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return null;
}
