import { useEffect, useRef, useState } from 'react';
import type { SideBySideAnswer } from '../../../contract/side-by-side';
import { describeError } from '../../api/client';
import { DocumentView, type MarkupView } from '../DocumentView';
import type { DecidedChange } from '../decided-view';
import type { EntryMember } from '../highlight-target';
import type { PageCitation } from '../labels';
import { useSideBySide } from './api';
import { olderParagraphElement, paragraphMark, redlineParagraphOf, type Side } from './paragraph-places';
import { anchorPairs, offsetOf, positionAt, type SyncPosition } from './scroll-sync';
import './side-by-side.css';

const NOTHING_DECIDED: ReadonlyMap<string, DecidedChange> = new Map();
const NO_MEMBERS: readonly EntryMember[] = [];

/**
 * The older version beside the redline (issue 34.5): scrolled together paragraph by paragraph
 * (scroll-sync.ts, on the service's mapping), the current entry highlighted on both sides. On a
 * phone one side shows at a time, `shown` saying which; the other is placed where the reader is
 * when it shows.
 */
export function SideBySide({
  documentId, contentSha256, view, currentId, currentMembers, decided, decisionsTaken, draftVersion, shown, onShow, onPages,
}: {
  documentId: string;
  contentSha256: string | null;
  view: MarkupView;
  currentId: string | null;
  currentMembers: readonly EntryMember[];
  decided: ReadonlyMap<string, DecidedChange>;
  /** Decisions already taken on this draft: the older side then reads them as taken (its rejected view). */
  decisionsTaken: number;
  draftVersion: number;
  shown: Side;
  onShow: (side: Side) => void;
  onPages?: (pageOf: (changeId: string) => PageCitation | null) => void;
}) {
  const answer = useSideBySide(documentId, contentSha256, true);
  const olderPane = useRef<HTMLDivElement>(null);
  const redlinePane = useRef<HTMLDivElement>(null);
  const [renders, setRenders] = useState({ older: 0, redline: 0 });
  const data = answer.data;

  useScrollTogether(data, olderPane, redlinePane, renders, shown);
  useOlderHighlight(data, olderPane, redlinePane, renders, currentId, currentMembers);

  if (!data) {
    return answer.isError ? (
      <p role="alert" className="m-4 rounded border border-danger bg-danger-soft p-3 text-danger">
        The side-by-side view could not be prepared: {describeError(answer.error)}
      </p>
    ) : (
      <p role="status" className="p-6 text-ink-soft">Preparing the older version…</p>
    );
  }
  const olderTitle = olderHeading(data, decisionsTaken);
  const rendered = (side: Side) => () => setRenders((r) => ({ ...r, [side]: r[side] + 1 }));
  return (
    <div className="rl-sbs flex h-full min-h-0 flex-col" data-testid="side-by-side" data-shown={shown}>
      <div role="group" aria-label="Side shown" className="flex border-b border-line bg-paper md:hidden">
        {(['older', 'redline'] as const).map((side) => (
          <button key={side} type="button" aria-pressed={shown === side} aria-keyshortcuts="O"
            className={`min-h-[44px] flex-1 text-sm ${shown === side ? 'bg-ink text-paper' : 'bg-paper'}`} onClick={() => onShow(side)}>
            {side === 'older' ? olderTitle.short : `Redline · v${draftVersion}`}
          </button>
        ))}
      </div>
      <div className="flex min-h-0 flex-1">
        <div ref={olderPane} data-side="older" className={`rl-sbs-pane flex min-w-0 flex-1 flex-col md:border-r md:border-line ${shown === 'older' ? '' : 'max-md:hidden'}`}>
          <p className="rl-sbs-title max-md:hidden" title={olderTitle.note}>{olderTitle.full}</p>
          <div className="min-h-0 flex-1">
            <DocumentView base64={data.older.contentBase64} view="all" currentId={null} decided={NOTHING_DECIDED} currentMembers={NO_MEMBERS}
              label="Older version" onRendered={rendered('older')} />
          </div>
        </div>
        <div ref={redlinePane} data-side="redline" className={`rl-sbs-pane flex min-w-0 flex-1 flex-col ${shown === 'redline' ? '' : 'max-md:hidden'}`}>
          <p className="rl-sbs-title max-md:hidden">Redline · v{draftVersion} (this draft)</p>
          <div className="min-h-0 flex-1">
            <DocumentView base64={data.redline.contentBase64} view={view} currentId={currentId} decided={decided} currentMembers={currentMembers}
              label="Redline" onRendered={rendered('redline')} onPages={onPages} />
          </div>
        </div>
      </div>
    </div>
  );
}

/** What the older side is, said as a lawyer would: the version compared, or the draft with every open change rejected. */
function olderHeading(data: SideBySideAnswer, decisionsTaken: number): { full: string; short: string; note: string } {
  const { kind, version } = data.older;
  const named = version ? `v${version}` : 'the older version';
  const base =
    kind === 'compared' ? `Older version · ${named} (compared)` : kind === 'previous' ? `Previous version · ${named}` : 'Before these changes';
  const note = decisionsTaken > 0
    ? `The draft with every open change rejected: the ${decisionsTaken === 1 ? 'change' : `${decisionsTaken} changes`} already decided read${decisionsTaken === 1 ? 's' : ''} as decided.`
    : 'The draft with every change rejected.';
  return {
    full: decisionsTaken > 0 ? `${base}, with the decisions taken` : base,
    short: kind === 'rejected' ? 'Before' : `Older · ${version ? `v${version}` : ''}`.trim(),
    note,
  };
}

type Pane = React.RefObject<HTMLDivElement | null>;

/** The scrolling region DocumentView renders inside a pane. */
function scrollerOf(pane: HTMLDivElement | null): HTMLElement | null {
  return pane?.querySelector<HTMLElement>('[role="region"]') ?? null;
}

const OTHER: Record<Side, Side> = { older: 'redline', redline: 'older' };

/**
 * Scrolling one side scrolls the other to the same place (scroll-sync.ts). The reading line is a
 * third down each pane, where the redline puts the current entry. A side hidden on a phone is
 * placed at the last position when it shows.
 */
function useScrollTogether(data: SideBySideAnswer | undefined, olderPane: Pane, redlinePane: Pane, renders: Record<Side, number>, shown: Side) {
  // Where the reader is, kept across renders and across the phone's switch of sides.
  const position = useRef<SyncPosition | null>(null);
  useEffect(() => {
    const scrollers: Record<Side, HTMLElement | null> = { older: scrollerOf(olderPane.current), redline: scrollerOf(redlinePane.current) };
    if (!data || !scrollers.older || !scrollers.redline || renders.older === 0 || renders.redline === 0) return;
    const pairs = anchorPairs(data.redline.olderParagraph);
    // The offset each side was last scrolled to from here: its own scroll event then is no reader's.
    const placed: Record<Side, number | null> = { older: null, redline: null };
    let settle = 0;
    const visible = (el: HTMLElement) => el.offsetParent !== null && el.clientHeight > 0;
    const line = (el: HTMLElement) => el.clientHeight / 3;
    // Measured afresh each time: page groups off screen are laid out only when they come near
    // (content-visibility), so a place measured earlier may have moved since.
    const topsOf = (side: Side): (number | null)[] | null => {
      const el = scrollers[side]!;
      if (!visible(el)) return null;
      const box = el.getBoundingClientRect();
      return pairs.map((p) => {
        const mark = paragraphMark(el, side, side === 'older' ? p.older : p.redline);
        return mark ? mark.getBoundingClientRect().top - box.top + el.scrollTop : null;
      });
    };
    /** Scrolls `side` to the reader's position; false when there is nothing to do. */
    const scrollTo = (side: Side): boolean => {
      const el = scrollers[side]!;
      const t = topsOf(side);
      if (!t || !position.current) return false;
      const target = Math.max(0, Math.min(el.scrollHeight - el.clientHeight, offsetOf(position.current, t, el.scrollHeight) - line(el)));
      if (Math.abs(el.scrollTop - target) < 1) return false;
      el.scrollTop = target;
      placed[side] = el.scrollTop;
      return true;
    };
    const place = (side: Side) => {
      if (!scrollTo(side)) return;
      // Pages that came into view there are laid out now, and may move the place: once more next frame.
      if (settle) cancelAnimationFrame(settle);
      settle = requestAnimationFrame(() => {
        settle = 0;
        scrollTo(side);
      });
    };
    const read = (side: Side) => {
      const el = scrollers[side]!;
      const t = topsOf(side);
      if (!t) return;
      position.current = positionAt(el.scrollTop + line(el), t, el.scrollHeight);
    };
    const onScroll = (side: Side) => () => {
      const el = scrollers[side]!;
      if (placed[side] !== null && Math.abs(el.scrollTop - placed[side]) < 2) {
        placed[side] = null;
        return;
      }
      placed[side] = null;
      read(side);
      place(OTHER[side]);
    };
    const listeners = { older: onScroll('older'), redline: onScroll('redline') };
    scrollers.older.addEventListener('scroll', listeners.older, { passive: true });
    scrollers.redline.addEventListener('scroll', listeners.redline, { passive: true });
    // Laid out anew (a render, a resize, the other side shown): measure again, and line up.
    const resized = new ResizeObserver(() => {
      if (position.current) {
        place('older');
        place('redline');
      }
    });
    resized.observe(scrollers.older);
    resized.observe(scrollers.redline);
    if (position.current) {
      place('older');
      place('redline');
    } else {
      read('redline');
      place('older');
    }
    return () => {
      scrollers.older?.removeEventListener('scroll', listeners.older);
      scrollers.redline?.removeEventListener('scroll', listeners.redline);
      resized.disconnect();
      cancelAnimationFrame(settle);
    };
  }, [data, olderPane, redlinePane, renders.older, renders.redline, shown]);
}

/**
 * The current entry on the older side: the older paragraphs its redline paragraphs come from,
 * highlighted; an entry wholly inserted marks the place it goes, after the older paragraph before it.
 * The redline side's highlight (DocumentView's, `.rl-here`) says which paragraphs the entry covers.
 */
function useOlderHighlight(data: SideBySideAnswer | undefined, olderPane: Pane, redlinePane: Pane, renders: Record<Side, number>, currentId: string | null, members: readonly EntryMember[]) {
  const membersKey = members.map((m) => m.id).join(' ');
  useEffect(() => {
    const older = scrollerOf(olderPane.current);
    const redline = scrollerOf(redlinePane.current);
    if (!data || !older || !redline || !currentId) return;
    const paragraphs = new Set<number>();
    for (const el of redline.querySelectorAll('.rl-here, .rl-here-mark')) {
      const i = redlineParagraphOf(redline, el);
      if (i !== null) paragraphs.add(i);
    }
    const map = data.redline.olderParagraph;
    const here = new Set<number>();
    for (const i of paragraphs) if (map[i] !== null && map[i] !== undefined) here.add(map[i]);
    let gap: number | null = null;
    if (here.size === 0 && paragraphs.size > 0) {
      // Wholly inserted: it goes after the older paragraph the redline paragraph before it comes from.
      for (let i = Math.min(...paragraphs) - 1; i >= 0 && gap === null; i--) gap = map[i] ?? null;
      gap ??= -1;
    }
    const marked: [HTMLElement, string][] = [];
    for (const j of here) {
      const p = olderParagraphElement(older, j);
      if (p) marked.push([p, 'rl-sbs-here']);
    }
    if (gap !== null) {
      const p = gap >= 0 ? olderParagraphElement(older, gap) : olderParagraphElement(older, 0);
      if (p) marked.push([p, gap >= 0 ? 'rl-sbs-gap-after' : 'rl-sbs-gap-before']);
    }
    for (const [p, cls] of marked) p.classList.add(cls);
    // On a phone showing the older side, the redline cannot scroll it there: bring the place into view here.
    const first = marked[0]?.[0];
    if (first && redline.offsetParent === null && older.offsetParent !== null) {
      const pane = older.getBoundingClientRect();
      const box = first.getBoundingClientRect();
      if (box.top < pane.top + 40 || box.bottom > pane.bottom - 40) older.scrollTop += box.top - pane.top - older.clientHeight / 3;
    }
    older.dataset.currentOlder = [...here].sort((a, b) => a - b).join(' ') || (gap !== null ? `after ${gap}` : '');
    return () => {
      for (const [p, cls] of marked) p.classList.remove(cls);
      delete older.dataset.currentOlder;
    };
  }, [data, olderPane, redlinePane, renders.older, renders.redline, currentId, membersKey]);
}
