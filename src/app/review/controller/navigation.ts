import type { Track } from '../../../contract/track';
import type { ShownItem } from './types';

/**
 * Where the keys go among the entries shown: pure functions of the list, the track and the
 * current change, so each can be read (and tested) without the queue behind them.
 */

/** j / k from `currentId`: the entry to make current, or the edge reached (the keys stay put there). */
export function stepFrom(shown: readonly ShownItem[], track: Track | null, currentId: string | null, delta: 1 | -1): { id: string } | { edge: 'first' | 'last' } | null {
  if (shown.length === 0) return null;
  const index = shown.findIndex((s) => s.item.id === currentId);
  let next: number;
  if (index !== -1) next = index + delta;
  else {
    // The current change is filtered out: step from where it sits in the whole track.
    const after = firstShownAfter(shown, track, currentId);
    next = delta > 0 ? after : after - 1;
  }
  if (next < 0) return { edge: 'first' };
  if (next >= shown.length) return { edge: 'last' };
  const target = shown[next];
  return target ? { id: target.item.id } : null;
}

/** Index in `shown` of the first entry after `currentId` in track order (length if none). */
function firstShownAfter(shown: readonly ShownItem[], track: Track | null, currentId: string | null): number {
  const order = new Map(track?.items.map((item, i) => [item.id, i]));
  const here = order.get(currentId ?? '') ?? -1;
  const after = shown.findIndex((s) => (order.get(s.item.id) ?? -1) > here);
  return after === -1 ? shown.length : after;
}

/** The next open entry shown after `fromId`, wrapping round to the top; whether it wrapped. */
export function nextOpenAfter(shown: readonly ShownItem[], fromId: string | null): { id: string; wrapped: boolean } | null {
  const start = fromId ? shown.findIndex((s) => s.item.id === fromId) : -1;
  for (let step = 1; step <= shown.length; step++) {
    const at = (start + step + shown.length) % shown.length;
    const candidate = shown[at];
    if (candidate && candidate.state === 'open') return { id: candidate.item.id, wrapped: start !== -1 && at < start };
  }
  return null;
}

export { leaderOf } from '../../../contract/track';
