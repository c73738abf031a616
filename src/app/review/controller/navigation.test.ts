import { describe, expect, it } from 'vitest';
import type { Track, TrackItem, TrackState } from '../../../contract/track';
import { leaderOf, nextOpenAfter, stepFrom } from './navigation';
import type { ShownItem } from './types';

const items: TrackItem[] = ['c1', 'c2', 'c3', 'c4', 'c5'].map((id, i) => ({ id, state: 'open', label: `Change ${i + 1}`, kind: 'insert', ...(id === 'c4' ? { group: 'c3' } : {}) }));
const track: Track = { items, hereId: 'c1', counts: { open: 5, in: 0, back: 0, total: 5 } };
const shown = (ids: string[], states: Record<string, TrackState> = {}): ShownItem[] =>
  ids.map((id) => ({ item: items.find((i) => i.id === id)!, state: states[id] ?? 'open', pending: false }));

describe('navigation', () => {
  it('steps among the entries shown and says which edge it reached', () => {
    const list = shown(['c1', 'c2', 'c3', 'c5']);
    expect(stepFrom(list, track, 'c2', 1)).toEqual({ id: 'c3' });
    expect(stepFrom(list, track, 'c5', 1)).toEqual({ edge: 'last' });
    expect(stepFrom(list, track, 'c1', -1)).toEqual({ edge: 'first' });
    expect(stepFrom([], track, 'c1', 1)).toBeNull();
  });

  it('steps from where a filtered-out current change sits in the track', () => {
    const list = shown(['c1', 'c5']);
    expect(stepFrom(list, track, 'c3', 1)).toEqual({ id: 'c5' });
    expect(stepFrom(list, track, 'c3', -1)).toEqual({ id: 'c1' });
  });

  it('goes on to the next open entry, saying when it wrapped round to the top', () => {
    const list = shown(['c1', 'c2', 'c3', 'c5'], { c2: 'in', c5: 'back' });
    expect(nextOpenAfter(list, 'c1')).toEqual({ id: 'c3', wrapped: false });
    expect(nextOpenAfter(list, 'c3')).toEqual({ id: 'c1', wrapped: true });
    expect(nextOpenAfter(shown(['c2'], { c2: 'in' }), 'c2')).toBeNull();
  });

  it("names an edit by its first change", () => {
    expect(leaderOf(track, 'c4')).toBe('c3');
    expect(leaderOf(track, 'c2')).toBe('c2');
    expect(leaderOf(track, null)).toBeNull();
  });
});
