import { describe, expect, it } from 'vitest';
import type { TrackItem } from '../../contract/track';
import { entriesOf, groupLabel, membersOf, type ShownItem } from './entries';

function shown(id: string, n: number, kind: string, group?: string, state: ShownItem['state'] = 'open'): ShownItem {
  const item: TrackItem = { id, label: `Change ${n}`, state, kind, ...(group ? { group, groupSummary: `summary of ${group}` } : {}) };
  return { item, state, pending: false };
}

describe('list entries: one per edit group', () => {
  it('joins a group into one entry named for its members, and leaves lone changes as they are', () => {
    const items = [shown('a', 1, 'insert'), shown('b', 2, 'delete', 'b'), shown('c', 3, 'insert', 'b'), shown('d', 4, 'paragraph_mark')];
    const entries = entriesOf(items, new Map());
    expect(entries.map((e) => e.item.label)).toEqual(['Change 1', 'Changes 2–3', 'Change 4']);
    expect(entries[0]).toBe(items[0]);
    expect(entries[1]!.item).toMatchObject({ id: 'b', kind: 'replace', textPreview: 'summary of b' });
    expect(membersOf(entries[1]!).map((m) => m.item.id)).toEqual(['b', 'c']);
  });

  it('an edit partly decided is still open; wholly decided, it takes its members\' state; unchanged members keep the entry object', () => {
    const partly = entriesOf([shown('b', 2, 'delete', 'b', 'in'), shown('c', 3, 'insert', 'b')], new Map());
    expect(partly[0]!.state).toBe('open');
    const members = [shown('b', 2, 'delete', 'b', 'back'), shown('c', 3, 'insert', 'b', 'back')];
    const whole = entriesOf(members, new Map());
    expect(whole[0]!.state).toBe('back');
    expect(entriesOf(members, new Map([['b', whole[0]!]]))[0]).toBe(whole[0]);
  });

  it('labels consecutive members as a range and others as a list', () => {
    expect(groupLabel(['Change 16', 'Change 17', 'Change 18', 'Change 19'])).toBe('Changes 16–19');
    expect(groupLabel(['Change 16', 'Change 18'])).toBe('Changes 16, 18');
  });
});
