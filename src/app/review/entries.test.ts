import { describe, expect, it } from 'vitest';
import type { TrackItem } from '../../contract/track';
import fc from 'fast-check';
import { entriesOf, groupLabel, memberNumbers, membersOf, type ShownItem } from './entries';

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

  it('titles consecutive members as a range, two as a pair, and others as their span and count, listing those in ranges', () => {
    expect(groupLabel(['Change 16', 'Change 17', 'Change 18', 'Change 19'])).toBe('Changes 16–19');
    expect(groupLabel(['Change 16', 'Change 18'])).toBe('Changes 16 and 18');
    const scattered = ['Change 45', 'Change 48', 'Change 50', 'Change 51', 'Change 52', 'Change 85'];
    expect(groupLabel(scattered)).toBe('Changes 45–85 (6)');
    expect(memberNumbers(scattered)).toBe('45, 48, 50–52, 85');
    expect(memberNumbers(['Change 16', 'Change 17'])).toBeNull();
  });

  it('a title stays short however many members are scattered', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 99_999 }), { minLength: 1, maxLength: 400 }), (raw) => {
        const numbers = [...raw].sort((a, b) => a - b);
        const labels = numbers.map((n) => `Change ${n}`);
        const title = groupLabel(labels);
        expect(title.length).toBeLessThanOrEqual('Changes 99999–99999 (400)'.length);
        // The list under the entry names every member exactly once.
        const listed = memberNumbers(labels);
        if (listed === null) return;
        const expanded = listed.split(', ').flatMap((run) => {
          const [a, b] = run.split('–').map(Number);
          return b === undefined ? [a!] : Array.from({ length: b - a! + 1 }, (_, i) => a! + i);
        });
        expect(expanded).toEqual(numbers);
      }),
    );
  });
});
