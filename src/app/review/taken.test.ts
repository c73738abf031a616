import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changeNumbers } from '../../contract/entries';
import type { TrackItem, TrackState } from '../../contract/track';
import { citedPage } from './labels';
import { newlyTaken, takenWithText, takesLine } from './taken';

const item = (n: number, kind: string, state: TrackState = 'open', extra: Partial<TrackItem> = {}): TrackItem => ({ id: `c${n}`, label: `Change ${n}`, kind, state, ...extra });

describe('what deciding an entry also decides', () => {
  const items = new Map([item(45, 'insert'), item(46, 'tr-prop-change'), item(47, 'delete'), item(48, 'p-prop-change')].map((i) => [i.id, i]));
  const open = () => true;

  it('names the taken changes and says what they are', () => {
    expect(takesLine({ accept: [], reject: ['c45', 'c46'] }, 'reject', items, open, true)).toBe('Rejecting this move also rejects Changes 45–46: the rows it carried.');
    expect(takesLine({ accept: ['c47'], reject: [] }, 'accept', items, open, false)).toBe('Accepting this also accepts Change 47: the deletion inside it.');
    expect(takesLine({ accept: [], reject: ['c48'] }, 'reject', items, open, false)).toBe('Rejecting this also rejects Change 48: the paragraph formatting inside it.');
  });

  it('says nothing when the verdict takes nothing still open', () => {
    expect(takesLine({ accept: [], reject: ['c45'] }, 'accept', items, open, false)).toBeNull();
    expect(takesLine({ accept: [], reject: ['c45'] }, 'reject', items, () => false, false)).toBeNull();
    expect(takesLine(undefined, 'reject', items, open, false)).toBeNull();
  });

  it('names every open taken change and no other, whatever the ids', () => {
    fc.assert(fc.property(fc.subarray(['c45', 'c46', 'c47', 'c48']), fc.subarray(['c45', 'c46', 'c47', 'c48']), (taken, closed) => {
      const line = takesLine({ accept: taken, reject: [] }, 'accept', items, (id) => !closed.includes(id), false);
      const said = taken.filter((id) => !closed.includes(id));
      if (said.length === 0) {
        expect(line).toBeNull();
        return;
      }
      const title = said.length === 1 ? `Change ${said[0]!.slice(1)}` : `Changes ${changeNumbers(said.map((id) => `Change ${id.slice(1)}`))}`;
      expect(line).toMatch(new RegExp(`^Accepting this also accepts ${title}: the .+ inside it\\.$`));
    }));
  });
});

describe('a change another decision took', () => {
  const labelOf = (id: string) => (id === 'c44' ? 'Change 44' : undefined);

  it('says which decision took it, and nothing for a change decided by someone', () => {
    expect(takenWithText({ implied: true, takenWith: 'c44' }, 'back', labelOf)).toBe('Rejected with Change 44');
    expect(takenWithText({ implied: true, takenWith: 'c44' }, 'in', labelOf)).toBe('Accepted with Change 44');
    expect(takenWithText({ implied: true }, 'back', labelOf)).toBe('Rejected with another change');
    expect(takenWithText({}, 'back', labelOf)).toBeNull();
    expect(takenWithText({ implied: true, takenWith: 'c44' }, 'open', labelOf)).toBeNull();
  });

  it('counts only the changes this decision newly took', () => {
    const before = [item(44, 'moveFrom'), item(45, 'insert'), item(46, 'insert'), item(47, 'delete', 'back', { implied: true, takenWith: 'c40' })];
    const after = [
      item(44, 'moveFrom', 'back'),
      item(45, 'insert', 'back', { implied: true, takenWith: 'c44' }),
      item(46, 'insert', 'back', { implied: true, takenWith: 'c9' }),
      item(47, 'delete', 'back', { implied: true, takenWith: 'c40' }),
    ];
    expect(newlyTaken(before, after, new Set(['c44']))).toEqual(['Change 45']);
  });
});

describe('the page a change is cited on', () => {
  it("is the layout's, else the page Word last laid it out on, the same object each time", () => {
    const layout = { label: 'ii', physical: 2 };
    expect(citedPage(layout, 5)).toBe(layout);
    expect(citedPage(null, 5)).toEqual({ label: '5', physical: 5 });
    expect(citedPage(undefined, 5)).toBe(citedPage(null, 5));
    expect(citedPage(null, undefined)).toBeNull();
    // Word's recorded page with the label it prints (roman front matter): cited by the label, the page counted beside it.
    expect(citedPage(null, 3, 'iii')).toEqual({ label: 'iii', physical: 3 });
    expect(citedPage(null, 3, 'iii')).toBe(citedPage(null, 3, 'iii'));
  });
});
