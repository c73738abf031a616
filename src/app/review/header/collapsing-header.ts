import { useEffect, useRef, useState, type RefObject } from 'react';
import './collapsing-header.css';

/** How far the document must scroll one way before the header goes or comes back (px): a jitter of the finger does nothing. */
const STEP = 12;
/** Near the top of the document the header always shows. */
const TOP = 48;
/** A scroll this soon after the reader's wheel, touch or scrolling key is theirs (ms). */
const READER_MS = 600;
const SCROLL_KEYS = new Set(['ArrowDown', 'ArrowUp', 'PageDown', 'PageUp', ' ', 'End', 'Home']);

/**
 * The review page's header collapses while the reader scrolls down the document, and comes back on
 * a scroll up, at the top, or when the focus goes into it (issue 32.10: on a phone the document
 * had five lines under the header). Scroll events do not bubble, but an ancestor's capturing
 * listener hears every scrolling pane below it (the single view, both sides of side by side).
 * Only the reader's own scrolling collapses it: the page scrolling to the current entry (`j`) does
 * not take away the buttons the reader may reach for next.
 */
export function useCollapsingHeader(area: RefObject<HTMLElement | null>): { collapsed: boolean; show: () => void } {
  const [collapsed, setCollapsed] = useState(false);
  /** When the reader last wheeled, touched or pressed a scrolling key; -Infinity once anything else came after. */
  const readerAt = useRef(-Infinity);
  useEffect(() => {
    const el = area.current;
    if (!el) return;
    const last = new WeakMap<EventTarget, number>();
    const reader = () => (readerAt.current = performance.now());
    // Any other key (`j`, `a`…) ends the reader's scrolling: the scroll it brings is the page's own.
    const onKey = (event: KeyboardEvent) => {
      if (SCROLL_KEYS.has(event.key)) reader();
      else readerAt.current = -Infinity;
    };
    const onScroll = (event: Event) => {
      const pane = event.target;
      if (!(pane instanceof HTMLElement)) return;
      const top = pane.scrollTop;
      const before = last.get(pane);
      if (before === undefined || Math.abs(top - before) >= STEP) last.set(pane, top);
      if (before === undefined) return;
      if (top <= TOP) setCollapsed(false);
      else if (top - before >= STEP && performance.now() - readerAt.current < READER_MS) setCollapsed(true);
      else if (before - top >= STEP) setCollapsed(false);
    };
    el.addEventListener('scroll', onScroll, { capture: true, passive: true });
    el.addEventListener('wheel', reader, { capture: true, passive: true });
    el.addEventListener('touchmove', reader, { capture: true, passive: true });
    el.addEventListener('keydown', onKey, { capture: true });
    return () => {
      el.removeEventListener('scroll', onScroll, { capture: true });
      el.removeEventListener('wheel', reader, { capture: true });
      el.removeEventListener('touchmove', reader, { capture: true });
      el.removeEventListener('keydown', onKey, { capture: true });
    };
  }, [area]);
  return {
    collapsed,
    show: () => {
      // Brought back (the focus came into it): only a new scroll of the reader's takes it away again.
      readerAt.current = -Infinity;
      setCollapsed(false);
    },
  };
}
