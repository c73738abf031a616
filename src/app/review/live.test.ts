import { describe, expect, it } from 'vitest';
import type { DraftLogEvent } from '../../contract/events';
import type { Track } from '../../contract/track';
import { applyLogEvent, describeLogEvent } from './live';

const track: Track = {
  items: [
    { id: 'c1', state: 'open', label: 'Change 1', kind: 'insert', justification: 'why', date: '2026-01-01T00:00:00Z' },
    { id: 'c2', state: 'in', label: 'Change 2', kind: 'delete', decidedAt: '2026-01-02T00:00:00.000Z', decidedByUserId: 'u1' },
    { id: 'c3', state: 'open', label: 'Change 3', kind: 'insert' },
  ],
  hereId: 'c1',
  counts: { open: 2, in: 1, back: 0, total: 3 },
};

const entry = (over: Partial<DraftLogEvent>): DraftLogEvent => ({
  seq: 1, kind: 'decide', at: '2026-01-03T00:00:00.000Z', userId: 'u2', userName: 'Priya', batchKey: null,
  decided: {}, withdrawn: [], undoesSeq: null, reopened: [], proposed: [], ...over,
});

describe('a live log entry laid onto the track', () => {
  it('decides, reopens and withdraws, recounting and moving hereId', () => {
    const decided = applyLogEvent(track, entry({ decided: { c1: { state: 'back', decidedAt: '2026-01-03T00:00:00.000Z', decidedByUserId: 'u2' } } }))!;
    expect(decided.items.map((i) => i.state)).toEqual(['back', 'in', 'open']);
    expect(decided.items[0]).toMatchObject({ decidedByUserId: 'u2', justification: undefined });
    expect(decided).toMatchObject({ hereId: 'c3', counts: { open: 1, in: 1, back: 1, total: 3 } });

    const reopened = applyLogEvent(track, entry({ kind: 'undo', undoesSeq: 1, reopened: ['c2'] }))!;
    expect(reopened.items[1]).toEqual({ id: 'c2', state: 'open', label: 'Change 2', kind: 'delete' });
    expect(reopened.counts).toEqual({ open: 3, in: 0, back: 0, total: 3 });

    const withdrawn = applyLogEvent(track, entry({ withdrawn: ['c3'] }))!;
    expect(withdrawn.items.map((i) => i.id)).toEqual(['c1', 'c2']);
  });

  it("changes nothing when the track already shows it (the tab's own batch, reconciled)", () => {
    expect(applyLogEvent(track, entry({ decided: { c2: { state: 'in', decidedAt: 'x', decidedByUserId: 'u1' } } }))).toBeNull();
    expect(applyLogEvent(track, entry({ kind: 'redline', proposed: ['c9'] }))).toBeNull();
  });

  it('says what happened in words', () => {
    const label = (id: string) => `Change ${id.slice(1)}`;
    expect(describeLogEvent(entry({ decided: { c12: { state: 'in', decidedAt: 'x', decidedByUserId: 'u2' } } }), label, 'u1')).toBe('Priya accepted Change 12.');
    expect(describeLogEvent(entry({ decided: { c1: { state: 'back', decidedAt: 'x', decidedByUserId: 'u1' } }, userId: 'u1' }), label, 'u1')).toBe('You (in another window) rejected Change 1.');
    expect(describeLogEvent(entry({ kind: 'undo', reopened: ['c2', 'c3'] }), label, 'u1')).toBe('Priya undid a batch: Change 2, Change 3 are open again.');
    expect(describeLogEvent(entry({ kind: 'redline', proposed: ['c7', 'c8'] }), label, 'u1')).toBe('Priya proposed 2 new changes.');
    expect(describeLogEvent(entry({ withdrawn: ['c7'] }), label, 'u1')).toBe('Priya withdrew 1 proposal.');
  });
});
