import { changeBookmarkName, moveOtherHalfBookmarkName } from '../../contract/bookmark';
import type { RevisionKind } from '../../contract/revision';

/** The engine lists a move once, with a "Moved: …" preview (or "Moved paragraph mark"). */
export function isMove(preview: string | null | undefined): boolean {
  return /^Moved\b/.test(preview ?? '');
}

/** Where each half of a move is in the rendered draft: the first half is where it is listed (kind delete: the source). */
function halves(changeId: string, kind: RevisionKind | string | null | undefined): { from: string; to: string } {
  const lead = changeBookmarkName(changeId);
  const other = moveOtherHalfBookmarkName(changeId);
  return kind === 'insert' ? { from: other, to: lead } : { from: lead, to: other };
}

function scrollToBookmark(name: string): boolean {
  const anchor = document.getElementById(name);
  if (!anchor) return false;
  const target = anchor.nextElementSibling instanceof HTMLElement ? anchor.nextElementSibling : anchor;
  target.scrollIntoView({ block: 'center' });
  return true;
}

/**
 * `m`: from one place of the current move to the other (whichever is farther from the middle
 * of the view is the one to go to).
 */
export function jumpToOtherHalf(changeId: string): void {
  const here = document.getElementById(changeBookmarkName(changeId));
  const there = document.getElementById(moveOtherHalfBookmarkName(changeId));
  if (!here || !there) return;
  const middle = window.innerHeight / 2;
  const distance = (el: HTMLElement) => Math.abs(el.getBoundingClientRect().top - middle);
  scrollToBookmark((distance(here) <= distance(there) ? there : here).id);
}

/** The two places of a moved passage, as two links in the current change's panel. */
export function MovePlaces({ changeId, kind, shortcut }: { changeId: string; kind: RevisionKind | string | null | undefined; shortcut?: string }) {
  const { from, to } = halves(changeId, kind);
  return (
    <p className="mt-1 flex flex-wrap items-center gap-1.5 text-sm" data-testid="move-places">
      <span className="text-ink-soft">One move, two places:</span>
      <button type="button" className="btn btn-quiet px-1.5 py-0" onClick={() => scrollToBookmark(from)}>where it was</button>
      <button type="button" className="btn btn-quiet px-1.5 py-0" onClick={() => scrollToBookmark(to)} aria-keyshortcuts={shortcut}>where it is now</button>
    </p>
  );
}
