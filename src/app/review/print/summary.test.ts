import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Comment } from '../../../contract/comments';
import type { TrackState } from '../../../contract/track';
import type { ShownItem } from '../entries';
import { printNotes, printSummary } from './summary';

const iso = (s: string) => `on ${s}`;

function comment(id: string, parentId: string | null, extra: Partial<Comment> = {}): Comment {
  return { id, parentId, author: `A${id}`, initials: null, date: '2026-01-02T03:04:05Z', text: `text ${id}`, resolved: false, changeIds: [], anchorText: `on ${id}`, justification: false, ...extra };
}

describe('the printed notes', () => {
  it('number every thread 1..n in the order of its place in the pages, threads with no place last, in file order', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.nat(50), { nil: null }), { maxLength: 12 }), (places) => {
        const comments = places.map((_, i) => comment(String(i), null));
        const notes = printNotes(comments, (id) => places[Number(id)] ?? null, iso);
        expect(notes.map((n) => n.number)).toEqual(places.map((_, i) => i + 1));
        const at = notes.map((n) => places[Number(n.commentId)] ?? Infinity);
        for (let i = 1; i < at.length; i++) {
          expect(at[i]).toBeGreaterThanOrEqual(at[i - 1]!);
          // Equal places (and the unplaced) keep the file's order.
          if (at[i] === at[i - 1]) expect(Number(notes[i]!.commentId)).toBeGreaterThan(Number(notes[i - 1]!.commentId));
        }
      }),
    );
  });

  it('hold a thread\'s replies under its first comment, say when it is resolved, and leave out justifications', () => {
    const notes = printNotes(
      [comment('1', null, { resolved: true }), comment('2', '1'), comment('3', null, { justification: true })],
      () => 7,
      iso,
    );
    expect(notes).toEqual([
      { number: 1, commentId: '1', lines: [{ who: 'A1, on 2026-01-02T03:04:05Z', text: 'text 1' }, { who: 'A2, on 2026-01-02T03:04:05Z', text: 'text 2' }], on: 'on 1', resolved: true },
    ]);
  });
});

describe('the printed summary', () => {
  const entry = (id: string, state: TrackState, members?: string[]): ShownItem => ({
    item: { id, state, label: `Change ${id}`, kind: 'insertion', author: 'Ann', clause: '7.3(a)', textPreview: `  text\n of ${id}  ` },
    state,
    pending: false,
    members: members?.map((m) => ({ item: { id: m, state, label: `Change ${m}` }, state, pending: false })),
  });

  it('counts the entries by state and cites the page of an entry\'s first member on the pages', () => {
    const summary = printSummary({
      fileName: 'NDA.docx',
      versions: [['Versions compared', 'v1 (older) with v2 (newer)']],
      printedAt: new Date('2026-11-27T10:00:00Z'),
      printedBy: 'Dana Demo (demo@example.com)',
      entries: [entry('1', 'open', ['1', '2']), entry('3', 'in'), entry('4', 'back')],
      pageOf: (id) => ({ '2': 'iv', '3': '12' })[id] ?? null,
      formatDate: iso,
    });
    expect(summary.title).toBe('Redline of NDA.docx');
    expect(summary.counts).toBe('3 entries: 1 open, 1 accepted, 1 rejected.');
    expect(summary.facts).toContainEqual(['Versions compared', 'v1 (older) with v2 (newer)']);
    expect(summary.facts).toContainEqual(['By', 'Dana Demo (demo@example.com)']);
    expect(summary.entries.map((e) => [e.label, e.page, e.clause, e.state])).toEqual([
      ['Change 1', 'iv', '7.3(a)', 'open'],
      ['Change 3', '12', '7.3(a)', 'accepted'],
      ['Change 4', null, '7.3(a)', 'rejected'],
    ]);
    expect(summary.entries[0]!.text).toBe('text of 1');
  });
});
