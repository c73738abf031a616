import type { TrackCounts, TrackItem, TrackState } from './track';

/**
 * The unit of review progress: the entry, one per edit as Word groups them (TrackItem.group, a
 * change with no group its own), as the review lists and decides them. The track counts changes
 * (the interface's counts); the review page's progress and the documents page both count entries,
 * through these two functions, so "12 of 40 decided" is the same 40 on both.
 */

/** An entry's state from its changes' states (its first member's first): open while any of them is. */
export function entryState(states: readonly TrackState[]): TrackState {
  return states.includes('open') ? 'open' : (states[0] ?? 'open');
}

/** Open and decided entries of a track's items (in track order). */
export function countEntries(items: readonly Pick<TrackItem, 'id' | 'state' | 'group'>[]): TrackCounts {
  const groups = new Map<string, TrackState[]>();
  for (const item of items) {
    const key = item.group ?? item.id;
    const states = groups.get(key);
    if (states) states.push(item.state);
    else groups.set(key, [item.state]);
  }
  const counts = { open: 0, in: 0, back: 0, total: groups.size };
  for (const states of groups.values()) counts[entryState(states)]++;
  return counts;
}
