import { describe, expect, it } from 'vitest';
import { countEntries, entryState } from './entries';
import type { TrackItem } from './track';

const item = (id: string, state: TrackItem['state'], group?: string): Pick<TrackItem, 'id' | 'state' | 'group'> => ({ id, state, ...(group ? { group } : {}) });

describe('entries: the unit of review progress', () => {
  it('counts an edit of several changes once, open while any of its changes is', () => {
    const counts = countEntries([
      item('c1', 'in'),
      item('c2', 'in', 'c2'), item('c3', 'open', 'c2'), // partly decided: open
      item('c4', 'back', 'c4'), item('c5', 'back', 'c4'), // a replacement rejected whole
      item('c6', 'open'),
    ]);
    expect(counts).toEqual({ open: 2, in: 1, back: 1, total: 4 });
  });

  it("takes a decided entry's state from its first change", () => {
    expect(entryState(['in', 'back'])).toBe('in');
    expect(entryState(['back', 'open'])).toBe('open');
    expect(countEntries([])).toEqual({ open: 0, in: 0, back: 0, total: 0 });
  });
});
