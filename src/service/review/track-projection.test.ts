import { describe, expect, it } from 'vitest';
import type { Revision } from '../../contract/revision';
import { predecessors, projectTrack, replayLog, type DecidedChange, type LogEntry } from './track-projection';

const rev = (id: string, n: number): Revision => ({ ordinal: n, change_id: id, kind: 'insert', author: 'A', date: null, text_preview: id, justification: `why ${id}` });
const decided = (state: 'in' | 'back', after: string | null): DecidedChange =>
  ({ state, kind: 'insert', textPreview: 'x', author: 'A', decidedAt: '2026-01-01T00:00:00.000Z', decidedByUserId: 'u', after });
const entry = (seq: number, decidedMap: Record<string, DecidedChange>, withdrawn: Record<string, string | null> = {}): LogEntry =>
  ({ seq, kind: 'decide', undoesSeq: null, decided: decidedMap, withdrawn });

describe('the track projection', () => {
  it('lists open revisions in document order with labels, counts and hereId', () => {
    const track = projectTrack(replayLog([]), [rev('a', 1), rev('b', 2)]);
    expect(track.items.map((i) => [i.id, i.label, i.state])).toEqual([['a', 'Change 1', 'open'], ['b', 'Change 2', 'open']]);
    expect(track.hereId).toBe('a');
    expect(track.counts).toEqual({ open: 2, in: 0, back: 0, total: 2 });
    expect(track.items[0]).toMatchObject({ justification: 'why a', author: 'A' });
  });

  it('keeps decided items in place and places later changes at their document position', () => {
    // Track was a, b, c; b was accepted (it followed a).
    const state = replayLog([entry(1, { b: decided('in', 'a') })]);
    const track = projectTrack(state, [rev('new0', 1), rev('a', 2), rev('c', 3), rev('new1', 4)]);
    expect(track.items.map((i) => i.id)).toEqual(['new0', 'a', 'b', 'c', 'new1']);
    expect(track.items.find((i) => i.id === 'b')).toMatchObject({ state: 'in', decidedByUserId: 'u', label: 'Change 3' });
    expect(track.items.find((i) => i.id === 'b')).not.toHaveProperty('justification');
    expect(track.hereId).toBe('new0');
  });

  it('carries group, clause and move: open items from their revision, decided ones as the log recorded them', () => {
    const moved: Revision = { ...rev('m', 3), move: true, group: 'm', group_summary: 'Moved: x', clause: null };
    const state = replayLog([entry(1, { b: { ...decided('back', 'a'), group: 'a', groupSummary: "Replaced 'x' with 'y'", clause: '7.3(a)' } })]);
    const track = projectTrack(state, [{ ...rev('a', 1), group: 'a', group_summary: "Replaced 'x' with 'y'", clause: '7.3(a)' }, moved]);
    expect(track.items.map((i) => [i.id, i.group, i.groupSummary, i.clause, i.move])).toEqual([
      ['a', 'a', "Replaced 'x' with 'y'", '7.3(a)', undefined],
      ['b', 'a', "Replaced 'x' with 'y'", '7.3(a)', undefined],
      ['m', 'm', 'Moved: x', null, true],
    ]);
    // Entries logged before groups existed: each its own group, its own words.
    const old = projectTrack(replayLog([entry(1, { b: decided('in', null) })]), []);
    expect(old.items[0]).toMatchObject({ id: 'b', group: 'b', groupSummary: 'x', clause: null });
  });

  it('keeps a run of decided items in order, however they were decided', () => {
    // Track a, b, c, d: d decided first (after c), then b and c in one batch.
    const state = replayLog([entry(1, { d: decided('back', 'c') }), entry(2, { b: decided('in', 'a'), c: decided('in', 'b') })]);
    const track = projectTrack(state, [rev('a', 1)]);
    expect(track.items.map((i) => i.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(track.counts).toEqual({ open: 1, in: 2, back: 1, total: 4 });
  });

  it('drops withdrawn proposals, keeps what hung on them, and reopens what an undo cancelled', () => {
    const log: LogEntry[] = [entry(1, {}, { w: 'a' }), entry(2, { b: decided('in', 'w') })];
    expect(projectTrack(replayLog(log), [rev('a', 1)]).items.map((i) => i.id)).toEqual(['a', 'b']);
    const undone = replayLog([...log, { seq: 3, kind: 'undo', undoesSeq: 2, decided: {}, withdrawn: {} }]);
    expect(undone.effective).toEqual([1]);
    const track = projectTrack(undone, [rev('a', 1), rev('b', 2)]);
    expect(track.items.map((i) => [i.id, i.state])).toEqual([['a', 'open'], ['b', 'open']]);
  });

  it('answers hereId null when nothing is open, and records predecessors', () => {
    const track = projectTrack(replayLog([entry(1, { a: decided('in', null) })]), []);
    expect(track.hereId).toBeNull();
    expect(predecessors(projectTrack(replayLog([]), [rev('a', 1), rev('b', 2)]))).toEqual(new Map([['a', null], ['b', 'a']]));
  });
});
