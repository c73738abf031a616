import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ReviewController, ReviewSnapshot } from './controller';

/** How long an information stays before it fades, and how long the fade takes. */
const SHOWN_MS = 5000;
const FADE_MS = 800;

/**
 * What the page says about decisions and saves ("Accepted 2 changes."): one line along the
 * bottom of the document pane, where the current change never is (DocumentView keeps it clear of
 * the pane's edges), so it covers no entry of the list and nothing the lawyer is reading. An
 * information fades by itself; a warning or an error stays until dismissed. The region is polite
 * and live, so each is announced as it comes.
 */
export function NoticeToast({ controller, snapshot }: { controller: ReviewController; snapshot: ReviewSnapshot }) {
  const { notice, trackStale } = snapshot;
  // The notice fading now (a newer one shows in full).
  const [fadingOne, setFadingOne] = useState<typeof notice>(null);
  const fading = notice !== null && fadingOne === notice;
  // Along the bottom, unless that is where the highlighted change is (a notice of two or three
  // lines on a phone reaches past the margin DocumentView keeps): then along the top.
  const region = useRef<HTMLDivElement>(null);
  const [atTop, setAtTop] = useState(false);
  useLayoutEffect(() => {
    const el = region.current;
    if (!el || !notice) return;
    const place = () => {
      const pane = el.parentElement;
      const height = el.getBoundingClientRect().height;
      const bottomEdge = pane ? pane.getBoundingClientRect().bottom - 8 : innerHeight;
      const spanTop = bottomEdge - height;
      setAtTop([...document.querySelectorAll<HTMLElement>('[data-testid=document-render] .rl-here')]
        .map((h) => h.getBoundingClientRect())
        .some((r) => r.height > 0 && r.top < bottomEdge && r.bottom > spanTop));
    };
    // Now, and again once the highlight has moved to the next change and the pane has scrolled to it.
    place();
    const frame = requestAnimationFrame(place);
    const later = setTimeout(place, 250);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(later);
    };
  }, [notice, snapshot.currentId]);
  useEffect(() => {
    if (!notice || notice.tone !== 'info') return;
    const fade = setTimeout(() => setFadingOne(notice), SHOWN_MS);
    // Only this one: a newer notice has its own time.
    const gone = setTimeout(() => controller.getSnapshot().notice === notice && controller.dismissNotice(), SHOWN_MS + FADE_MS);
    return () => {
      clearTimeout(fade);
      clearTimeout(gone);
    };
  }, [controller, notice]);
  return (
    <div ref={region} className={`pointer-events-none absolute inset-x-2 z-20 flex justify-center ${atTop ? 'top-2' : 'bottom-2'}`} aria-live="polite" data-testid="notice">
      {trackStale && !notice && <p className="rounded bg-paper px-3 py-1 text-sm text-open shadow">Refreshing the decision record…</p>}
      {notice && (
        <div
          role={notice.tone === 'error' ? 'alert' : 'status'}
          style={{ transition: `opacity ${FADE_MS}ms`, opacity: fading ? 0 : 1 }}
          className={`pointer-events-auto flex max-w-full items-center gap-2 rounded border bg-paper px-3 py-1 text-sm shadow ${
            notice.tone === 'error' ? 'border-danger text-danger' : notice.tone === 'warn' ? 'border-open text-open' : 'border-line'
          }`}
        >
          <p className="min-w-0 flex-1">{notice.text}</p>
          <button type="button" className="btn btn-quiet shrink-0 px-1 py-0 text-xs" onClick={() => controller.dismissNotice()}>Dismiss</button>
        </div>
      )}
    </div>
  );
}
