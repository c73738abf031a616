import { describe, expect, it } from 'vitest';
import type { Revision } from '../../contract/revision';
import { projectTrack, replayLog, type DecidedChange, type LogEntry } from './track-projection';

const rev = (id: string, n: number): Revision => ({ ordinal: n, change_id: id, kind: 'insert', author: 'A', date: null, text_preview: id, justification: `why ${id}` });
const decided = (state: 'in' | 'back'): DecidedChange => ({ state, kind: 'insert', textPreview: 'x', author: 'A', decidedAt: '2026-01-01T00:00:00.000Z', decidedByUserId: 'u' });

describe('the track projection', () => {
  it('lists open revisions in document order with labels, counts and hereId', () => {
    const track = projectTrack(replayLog([]), [rev('a', 1), rev('b', 2)]);
    expect(track.items.map((i) => [i.id, i.label, i.state])).toEqual([['a', 'Change 1', 'open'], ['b', 'Change 2', 'open']]);
    expect(track.hereId).toBe('a');
    expect(track.counts).toEqual({ open: 2, in: 0, back: 0, total: 2 });
    expect(track.items[0]).toMatchObject({ justification: 'why a', author: 'A' });
  });

  it('keeps decided items in place and places later changes after their predecessor', () => {
    const log: LogEntry[] = [{ seq: 1, kind: 'decide', undoesSeq: null, order: ['a', 'b', 'c'], decided: { b: decided('in') }, unrecorded: [] }];
    const track = projectTrack(replayLog(log), [rev('new0', 1), rev('a', 2), rev('new1', 3), rev('c', 4)]);
    expect(track.items.map((i) => i.id)).toEqual(['new0', 'a', 'new1', 'b', 'c']);
    expect(track.items.find((i) => i.id === 'b')).toMatchObject({ state: 'in', decidedByUserId: 'u', label: 'Change 4' });
    expect(track.items.find((i) => i.id === 'b')).not.toHaveProperty('justification');
    expect(track.hereId).toBe('new0');
  });

  it('drops withdrawn proposals and reopens what an undo cancelled', () => {
    const log: LogEntry[] = [
      { seq: 1, kind: 'decide', undoesSeq: null, order: ['a', 'b'], decided: { a: decided('back') }, unrecorded: ['b'] },
      { seq: 2, kind: 'decide', undoesSeq: null, order: ['a'], decided: {}, unrecorded: [] },
    ];
    expect(projectTrack(replayLog(log), []).items.map((i) => i.id)).toEqual(['a']);
    const undone = replayLog([...log, { seq: 3, kind: 'undo', undoesSeq: 1, order: ['a', 'b'], decided: {}, unrecorded: [] }]);
    expect(undone.effective).toEqual([2]);
    const track = projectTrack(undone, [rev('a', 1), rev('b', 2)]);
    expect(track.items.map((i) => [i.id, i.state])).toEqual([['a', 'open'], ['b', 'open']]);
    expect(track.counts).toEqual({ open: 2, in: 0, back: 0, total: 2 });
  });

  it('answers hereId null when nothing is open', () => {
    const log: LogEntry[] = [{ seq: 1, kind: 'decide', undoesSeq: null, order: ['a'], decided: { a: decided('in') }, unrecorded: [] }];
    expect(projectTrack(replayLog(log), []).hereId).toBeNull();
  });
});
