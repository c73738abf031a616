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

/** The change numbers of an entry's labels ("Change 45" ...): "45–85" when consecutive, else "45, 48, 50". */
export function changeNumbers(labels: readonly string[]): string {
  const numbers = labels.map((l) => Number(/(\d+)$/.exec(l)?.[1]));
  if (numbers.some((n) => !Number.isFinite(n))) return labels.join(', ');
  const consecutive = numbers.every((n, i) => i === 0 || n === numbers[i - 1]! + 1);
  return consecutive && numbers.length > 1 ? `${numbers[0]}–${numbers[numbers.length - 1]}` : numbers.join(', ');
}

/**
 * An entry's short title: "Change 44", "Changes 45–85", and for changes not consecutive (a
 * decided one keeps its place between others) the first and last with how many: "Changes 45–61
 * (9 changes)", so the title never runs off; the full list is `changeNumbers`.
 */
export function entryTitle(labels: readonly string[]): string {
  if (labels.length === 1) return labels[0]!;
  const numbers = changeNumbers(labels);
  if (!numbers.includes(',')) return `Changes ${numbers}`;
  const all = numbers.split(', ');
  return `Changes ${all[0]}–${all[all.length - 1]} (${labels.length} changes)`;
}
