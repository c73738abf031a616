/**
 * Track states as the service records them (batchVerdicts on the baseline's facts, then
 * effectiveState) for the causes that made one batch and several disagree: a verdict that other
 * decisions make moot (the change goes whatever it says); a taker decided before the change it
 * takes, whose paragraph waits (joins.ts) so the change is still listed when it is decided; a
 * join across a control or a revision around paragraphs that a later decision unwraps; a taker
 * whose own verdict was moot; and two revisions of one mark, which take each other.
 */
import { describe, expect, it } from 'vitest';
import { minimalDocx, r } from '../../../test/support/docx-files';
import { trackStateDifferences, trackStatesOf, type TrialPlan } from '../../../test/conformance/decision-trials';
import { openDocx } from '../../docx';
import { effectiveState, type DecidedChange } from './track-projection';

const A = 'w:author="Ann" w:date="2025-01-01T00:00:00Z"';
const TABLE_START = '<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>';
const plain = (text: string) => `<w:tc><w:p>${r(text)}</w:p></w:tc>`;

/** Every order of the batches, each batch a list of ids. */
function orders(batches: string[][]): string[][][] {
  if (batches.length <= 1) return [batches];
  return batches.flatMap((b, i) => orders([...batches.slice(0, i), ...batches.slice(i + 1)]).map((rest) => [b, ...rest]));
}

/** The same verdicts as one batch and as these batches in every order: no track state may differ. */
function expectOrderFree(docx: Uint8Array, verdicts: Record<string, 'accept' | 'reject'>, batches: string[][]) {
  for (const ordering of orders(batches)) {
    const plan: TrialPlan = { verdicts: new Map(Object.entries(verdicts)), batches: ordering };
    expect(trackStateDifferences(docx, plan), JSON.stringify(ordering)).toEqual([]);
  }
}

describe('a verdict other decisions make moot', () => {
  it('an accepted inserted row whose every cell is deleted goes as a rejected one, in one batch as in several', () => {
    const docx = minimalDocx(
      `${TABLE_START}<w:tr>${plain('keep')}${plain('keep too')}</w:tr>` +
        `<w:tr><w:trPr><w:ins w:id="1" ${A}/></w:trPr><w:tc><w:tcPr><w:cellDel w:id="2" ${A}/></w:tcPr><w:p>${r('a')}</w:p></w:tc>` +
        `<w:tc><w:tcPr><w:cellDel w:id="3" ${A}/></w:tcPr><w:p>${r('b')}</w:p></w:tc></w:tr></w:tbl><w:p/>`,
    );
    expect(openDocx(docx).goneWhen().get('c1')).toEqual({ all: [{ id: 'c2', on: 'accept' }, { id: 'c3', on: 'accept' }] });
    expectOrderFree(docx, { c1: 'accept', c2: 'accept', c3: 'accept' }, [['c1'], ['c2', 'c3']]);
    // One cell kept: the row stays, and the lawyer's verdict with it.
    expectOrderFree(docx, { c1: 'accept', c2: 'accept', c3: 'reject' }, [['c1'], ['c2'], ['c3']]);
  });

  it('a move whose halves go with two rejected rows goes as rejected, whatever its own verdict', () => {
    const row = (id: number, half: string) => `<w:tr><w:trPr><w:ins w:id="${id}" ${A}/></w:trPr><w:tc><w:p>${half}</w:p></w:tc>${plain('x')}</w:tr>`;
    const docx = minimalDocx(
      `${TABLE_START}<w:tr>${plain('keep')}${plain('keep too')}</w:tr>` +
        row(1, `<w:moveFromRangeStart w:id="10" ${A} w:name="m1"/><w:moveFrom w:id="11" ${A}><w:r><w:delText>moved</w:delText></w:r></w:moveFrom><w:moveFromRangeEnd w:id="10"/>`) +
        row(2, `<w:moveToRangeStart w:id="12" ${A} w:name="m1"/><w:moveTo w:id="13" ${A}>${r('moved')}</w:moveTo><w:moveToRangeEnd w:id="12"/>`) +
        `</w:tbl><w:p/>`,
    );
    const doc = openDocx(docx);
    const move = doc.changeIds().find((id) => id !== 'c1' && id !== 'c2')!;
    expect(doc.takers().get(move)).toBeUndefined();
    expect(doc.goneWhen().get(move)).toEqual({ all: [{ id: 'c1', on: 'reject' }, { id: 'c2', on: 'reject' }] });
    expectOrderFree(docx, { c1: 'reject', c2: 'reject', [move]: 'accept' }, [['c1'], ['c2'], [move]]);
  });

  it('shows the state the change went as only while every decision that removes it stands', () => {
    const base = { kind: null, textPreview: '', author: null, decidedAt: '', decidedByUserId: 'u', after: null };
    const decided = new Map<string, DecidedChange>([
      ['row', { ...base, state: 'in', goneWhen: { all: [{ id: 'a', on: 'accept' }, { id: 'b', on: 'accept' }] }, goneAs: 'back' }],
      ['a', { ...base, state: 'in' }],
    ]);
    expect(effectiveState(decided, 'row')).toBe('in');
    decided.set('b', { ...base, state: 'back' });
    expect(effectiveState(decided, 'row')).toBe('in');
    decided.set('b', { ...base, state: 'in' });
    expect(effectiveState(decided, 'row')).toBe('back');
  });
});

describe('a taker decided before the change it takes', () => {
  it("a paragraph property change in a paragraph whose mark went and waits for a table's rows shows the mark's verdict", () => {
    const docx = minimalDocx(
      `<w:p><w:pPr><w:jc w:val="center"/><w:rPr><w:del w:id="1" ${A}/></w:rPr><w:pPrChange w:id="2" ${A}><w:pPr/></w:pPrChange></w:pPr>${r('before')}</w:p>` +
        `${TABLE_START}<w:tr><w:trPr><w:ins w:id="3" ${A}/></w:trPr>${plain('cell')}${plain('cell too')}</w:tr></w:tbl><w:p>${r('after')}</w:p>`,
    );
    expect(openDocx(docx).takers().get('c2')).toContainEqual({ changeId: 'c1', removedOn: 'accept' });
    const waiting = openDocx(docx).apply({ accept: ['c1'], reject: [] });
    expect(waiting.changeIds()).toContain('c2');
    expectOrderFree(docx, { c1: 'accept', c2: 'reject' }, [['c1'], ['c2']]);
    // The rows decided after both (decided first, they settle where the mark joins: see the report
    // of issue 11 on takers that over-approximate a join's direction).
    for (const row of ['accept', 'reject'] as const) {
      const plan: TrialPlan = { verdicts: new Map([['c1', 'accept'], ['c2', 'reject'], ['c3', row]]), batches: [['c1'], ['c2'], ['c3']] };
      expect(trackStateDifferences(docx, plan)).toEqual([]);
    }
  });
});

describe('a paragraph joined backward keeps its tracked mark', () => {
  it('deleted paragraphs accepted before a table join the paragraph before them, whose deleted mark moves on with its verdict', () => {
    const docx = minimalDocx(
      `<w:p><w:pPr><w:rPr><w:del w:id="1" ${A}/></w:rPr></w:pPr>${r('before')}</w:p>` +
        `<w:del w:id="2" ${A}><w:p><w:r><w:delText>gone</w:delText></w:r></w:p><w:p/></w:del>` +
        `${TABLE_START}<w:tr>${plain('cell')}${plain('cell too')}</w:tr></w:tbl><w:p>${r('after')}</w:p>`,
    );
    expect(openDocx(docx).takers().get('c1')).toBeUndefined();
    expect(openDocx(docx).apply({ accept: ['c2'], reject: [] }).changeIds()).toEqual(['c1']);
    expect(trackStatesOf(docx, { c1: 'reject', c2: 'accept' }, [['c1', 'c2']]).get('c1')).toBe('back');
    expectOrderFree(docx, { c1: 'reject', c2: 'accept' }, [['c1'], ['c2']]);
  });
});

describe('two revisions on one paragraph mark', () => {
  it('an inserted mark deleted again: the decision that removes the mark takes the other revision of it', () => {
    const docx = minimalDocx(`<w:p><w:pPr><w:rPr><w:ins w:id="1" ${A}/><w:del w:id="2" ${A}/></w:rPr></w:pPr>${r('one')}</w:p><w:p>${r('two')}</w:p>`);
    expect(openDocx(docx).takers().get('c1')).toEqual([{ changeId: 'c2', removedOn: 'accept' }]);
    expect(openDocx(docx).takers().get('c2')).toEqual([{ changeId: 'c1', removedOn: 'reject' }]);
    expectOrderFree(docx, { c1: 'accept', c2: 'accept' }, [['c1'], ['c2']]);
    expectOrderFree(docx, { c1: 'reject', c2: 'reject' }, [['c1'], ['c2']]);
    // Rejecting the insertion and accepting the deletion both remove the mark: whichever comes
    // first takes the other, which a later batch cannot name. Each shows as it went.
    expectOrderFree(docx, { c1: 'reject', c2: 'accept' }, [['c1'], ['c2']]);
    const states = trackStatesOf(docx, { c1: 'reject', c2: 'accept' }, [['c2'], ['c1']]);
    expect(states).toEqual(new Map([['c1', 'back'], ['c2', 'in']]));
  });
});


describe('joins a later decision settles, read on the baseline', () => {
  it('a paragraph mark at the end of a control whose tracked boundary is rejected takes the properties of the paragraph before the control', () => {
    const docx = minimalDocx(
      `<w:p><w:pPr><w:jc w:val="center"/><w:pPrChange w:id="2" ${A}><w:pPr/></w:pPrChange></w:pPr>${r('before')}</w:p>` +
        `<w:customXmlInsRangeStart w:id="3" ${A}/><w:sdt><w:sdtPr/><w:sdtContent><w:customXmlInsRangeEnd w:id="3"/>` +
        `<w:p><w:pPr><w:rPr><w:ins w:id="1" ${A}/></w:rPr></w:pPr>${r('inside')}</w:p></w:sdtContent></w:sdt>` +
        `${TABLE_START}<w:tr>${plain('cell')}${plain('cell too')}</w:tr></w:tbl><w:p>${r('after')}</w:p>`,
    );
    // Only once the control is unwrapped (its inserted boundary rejected) does the mark reach it.
    expect(openDocx(docx).takers().get('c2')).toEqual([{ changeId: 'c1', removedOn: 'reject', when: { id: 'c3', on: 'reject' } }]);
    for (const boundary of ['accept', 'reject'] as const) {
      expectOrderFree(docx, { c1: 'reject', c2: 'accept', c3: boundary }, [['c1'], ['c2'], ['c3']]);
    }
  });

  it('a paragraph mark before a control with a tracked boundary takes its own formatting only when the control is unwrapped', () => {
    const docx = minimalDocx(
      `<w:p><w:pPr><w:rPr><w:del w:id="1" ${A}/><w:b/><w:rPrChange w:id="2" ${A}><w:rPr/></w:rPrChange></w:rPr></w:pPr>${r('before')}</w:p>` +
        `<w:customXmlInsRangeStart w:id="3" ${A}/><w:sdt><w:sdtPr/><w:sdtContent><w:customXmlInsRangeEnd w:id="3"/>` +
        `<w:p>${r('inside')}</w:p></w:sdtContent></w:sdt><w:p>${r('after')}</w:p>`,
    );
    // Rejecting the inserted boundary unwraps the control: the mark then joins forward.
    expect(openDocx(docx).takers().get('c2')).toEqual([{ changeId: 'c1', removedOn: 'accept', when: { id: 'c3', on: 'reject' } }]);
    for (const boundary of ['accept', 'reject'] as const) {
      expectOrderFree(docx, { c1: 'accept', c2: 'reject', c3: boundary }, [['c1'], ['c2'], ['c3']]);
    }
    // The control stays: the mark does not join, and the formatting keeps the lawyer's verdict.
    expect(trackStatesOf(docx, { c1: 'accept', c2: 'reject', c3: 'accept' }, [['c1', 'c2', 'c3']]).get('c2')).toBe('back');
    expect(trackStatesOf(docx, { c1: 'accept', c2: 'reject', c3: 'reject' }, [['c1', 'c2', 'c3']]).get('c2')).toBe('in');
  });

  it('a paragraph mark at the end of a control followed by a paragraph never reaches the paragraph before the control', () => {
    const docx = minimalDocx(
      `<w:p><w:pPr><w:jc w:val="center"/><w:pPrChange w:id="2" ${A}><w:pPr/></w:pPrChange></w:pPr>${r('before')}</w:p>` +
        `<w:customXmlDelRangeStart w:id="3" ${A}/><w:sdt><w:sdtPr/><w:sdtContent><w:customXmlDelRangeEnd w:id="3"/>` +
        `<w:p><w:pPr><w:rPr><w:del w:id="1" ${A}/></w:rPr></w:pPr>${r('inside')}</w:p></w:sdtContent></w:sdt><w:p>${r('after')}</w:p>`,
    );
    // Unwrapped (its deleted boundary accepted), the mark joins forward into "after"; kept, it does not join.
    expect(openDocx(docx).takers().get('c2')).toBeUndefined();
    for (const boundary of ['accept', 'reject'] as const) {
      expect(trackStatesOf(docx, { c1: 'accept', c2: 'reject', c3: boundary }, [['c1', 'c2', 'c3']]).get('c2')).toBe('back');
      expectOrderFree(docx, { c1: 'accept', c2: 'reject', c3: boundary }, [['c1'], ['c2'], ['c3']]);
    }
  });

  it('a paragraph mark after a block of inserted paragraphs takes the properties of the paragraph before the block once it goes', () => {
    const docx = minimalDocx(
      `<w:p><w:pPr><w:jc w:val="center"/><w:pPrChange w:id="2" ${A}><w:pPr/></w:pPrChange></w:pPr>${r('before')}</w:p>` +
        `<w:ins w:id="3" ${A}><w:p>${r('inserted one')}</w:p><w:p>${r('inserted two')}</w:p></w:ins>` +
        `<w:p><w:pPr><w:rPr><w:ins w:id="1" ${A}/></w:rPr></w:pPr>${r('last')}</w:p>` +
        `${TABLE_START}<w:tr>${plain('cell')}${plain('cell too')}</w:tr></w:tbl><w:p>${r('after')}</w:p>`,
    );
    // Only once the inserted block goes (rejected) does the mark reach it; accepted, its last paragraph stands between.
    expect(openDocx(docx).takers().get('c2')).toEqual([{ changeId: 'c1', removedOn: 'reject', when: { id: 'c3', on: 'reject' } }]);
    for (const block of ['accept', 'reject'] as const) {
      expectOrderFree(docx, { c1: 'reject', c2: 'accept', c3: block }, [['c1', 'c3'], ['c2']]);
      expectOrderFree(docx, { c1: 'reject', c2: 'accept', c3: block }, [['c1'], ['c2'], ['c3']]);
    }
  });

  it('a paragraph mark before a rejected block of inserted paragraphs joins into the first of them, whatever follows the block', () => {
    const docx = minimalDocx(
      `<w:p><w:pPr><w:jc w:val="center"/><w:rPr><w:ins w:id="1" ${A}/></w:rPr><w:pPrChange w:id="2" ${A}><w:pPr/></w:pPrChange></w:pPr>${r('first')}</w:p>` +
        `<w:ins w:id="3" ${A}><w:p>${r('inserted')}</w:p></w:ins>` +
        `<w:customXmlDelRangeStart w:id="4" ${A}/><w:sdt><w:sdtPr/><w:sdtContent><w:customXmlDelRangeEnd w:id="4"/><w:p>${r('inside')}</w:p>` +
        `<w:customXmlDelRangeStart w:id="5" ${A}/></w:sdtContent></w:sdt><w:customXmlDelRangeEnd w:id="5"/><w:p>${r('after')}</w:p>`,
    );
    // Rejected, the block leaves an emptied paragraph whose mark goes: the first paragraph's mark
    // joins into it (its own properties go) whether or not the control after it is unwrapped.
    expect(openDocx(docx).takers().get('c2')).toEqual([{ changeId: 'c1', removedOn: 'reject', when: { any: [{ id: 'c3', on: 'accept' }, { id: 'c3', on: 'reject' }] } }]);
    for (const control of ['accept', 'reject'] as const) {
      expectOrderFree(docx, { c1: 'reject', c2: 'reject', c3: 'reject', c4: control }, [['c1', 'c3'], ['c2'], ['c4']]);
    }
  });

  it('marks that go one after the other at the end of the story join back to the paragraph before them, only when both go', () => {
    const mark = (id: number, kind: 'ins' | 'del') => `<w:pPr><w:rPr><w:${kind} w:id="${id}" ${A}/></w:rPr></w:pPr>`;
    const docx = minimalDocx(
      `<w:p><w:pPr><w:jc w:val="center"/><w:pPrChange w:id="3" ${A}><w:pPr/></w:pPrChange></w:pPr>${r('first')}</w:p>` +
        `<w:p>${mark(1, 'del')}${r('second')}</w:p><w:p>${mark(2, 'del')}${r('last')}</w:p>`,
    );
    expect(openDocx(docx).takers().get('c3')).toEqual([{ changeId: 'c2', removedOn: 'accept', when: { id: 'c1', on: 'accept' } }]);
    for (const second of ['accept', 'reject'] as const) {
      for (const props of ['accept', 'reject'] as const) {
        expectOrderFree(docx, { c1: second, c2: 'accept', c3: props }, [['c1'], ['c2'], ['c3']]);
      }
    }
    // Only the last mark goes: the first paragraph keeps its properties, and the lawyer's verdict on them.
    expect(trackStatesOf(docx, { c1: 'reject', c2: 'accept', c3: 'reject' }, [['c3'], ['c2'], ['c1']]).get('c3')).toBe('back');
  });

  it('an empty first paragraph before a table, whose mark goes, vanishes with its property change', () => {
    const docx = minimalDocx(
      `<w:p><w:pPr><w:jc w:val="center"/><w:rPr><w:del w:id="1" ${A}/></w:rPr><w:pPrChange w:id="2" ${A}><w:pPr/></w:pPrChange></w:pPr></w:p>` +
        `${TABLE_START}<w:tr>${plain('cell')}${plain('cell too')}</w:tr></w:tbl><w:p>${r('after')}</w:p>`,
    );
    expect(openDocx(docx).takers().get('c2')).toEqual([{ changeId: 'c1', removedOn: 'accept' }]);
    expectOrderFree(docx, { c1: 'accept', c2: 'reject' }, [['c1'], ['c2']]);
  });

  it("an empty cell's only paragraph keeps its mark and its properties: its property change keeps the lawyer's verdict", () => {
    const docx = minimalDocx(
      `${TABLE_START}<w:tr><w:tc><w:p><w:pPr><w:jc w:val="center"/><w:rPr><w:del w:id="1" ${A}/></w:rPr>` +
        `<w:pPrChange w:id="2" ${A}><w:pPr/></w:pPrChange></w:pPr></w:p></w:tc>${plain('cell too')}</w:tr></w:tbl><w:p/>`,
    );
    expect(openDocx(docx).takers().get('c2')).toBeUndefined();
    expect(trackStatesOf(docx, { c1: 'accept', c2: 'reject' }, [['c1', 'c2']]).get('c2')).toBe('back');
  });

  it('an empty paragraph that becomes first once the inserted paragraphs before it go vanishes with its mark formatting', () => {
    const docx = minimalDocx(
      `<w:ins w:id="4" ${A}><w:p>${r('inserted')}</w:p><w:p/></w:ins>` +
        `<w:p><w:pPr><w:rPr><w:ins w:id="1" ${A}/><w:b/><w:rPrChange w:id="2" ${A}><w:rPr/></w:rPrChange></w:rPr></w:pPr></w:p>` +
        `${TABLE_START}<w:tr>${plain('cell')}${plain('cell too')}</w:tr></w:tbl><w:p>${r('after')}</w:p>`,
    );
    expect(openDocx(docx).takers().get('c2')).toContainEqual({ changeId: 'c1', removedOn: 'reject' });
    expectOrderFree(docx, { c1: 'reject', c2: 'reject', c4: 'reject' }, [['c1'], ['c4'], ['c2']]);
    expectOrderFree(docx, { c1: 'reject', c2: 'reject', c4: 'reject' }, [['c1'], ['c2', 'c4']]);
  });
});

describe('a taker whose own verdict was moot', () => {
  it('an accepted inserted row whose only cell is rejected takes its row property change as the row went, in any order', () => {
    const docx = minimalDocx(
      `${TABLE_START}<w:tr>${plain('keep')}${plain('keep too')}</w:tr>` +
        `<w:tr><w:trPr><w:cantSplit/><w:ins w:id="1" ${A}/><w:trPrChange w:id="2" ${A}><w:trPr/></w:trPrChange></w:trPr>` +
        `<w:tc><w:tcPr><w:cellIns w:id="3" ${A}/></w:tcPr><w:p>${r('a')}</w:p></w:tc></w:tr></w:tbl><w:p/>`,
    );
    for (const row of ['accept', 'reject'] as const) {
      for (const props of ['accept', 'reject'] as const) {
        expectOrderFree(docx, { c1: row, c2: props, c3: 'reject' }, [['c1'], ['c2'], ['c3']]);
        expectOrderFree(docx, { c1: row, c2: props, c3: 'reject' }, [['c1', 'c3'], ['c2']]);
      }
    }
  });

  it('an inserted row and its only cell, deleted: each removes the other, and neither counts as taking the other', () => {
    const docx = minimalDocx(
      `${TABLE_START}<w:tr>${plain('keep')}${plain('keep too')}</w:tr>` +
        `<w:tr><w:trPr><w:ins w:id="1" ${A}/></w:trPr><w:tc><w:tcPr><w:cellDel w:id="2" ${A}/></w:tcPr><w:p>${r('a')}</w:p></w:tc></w:tr></w:tbl><w:p/>`,
    );
    for (const row of ['accept', 'reject'] as const) {
      for (const cell of ['accept', 'reject'] as const) expectOrderFree(docx, { c1: row, c2: cell }, [['c1'], ['c2']]);
    }
    // Rejecting the row and accepting the cell's deletion both remove the row: each shows as it went.
    expect(trackStatesOf(docx, { c1: 'reject', c2: 'accept' }, [['c1', 'c2']])).toEqual(new Map([['c1', 'back'], ['c2', 'in']]));
    // The row accepted and its cell kept: the lawyer's verdicts stand.
    expect(trackStatesOf(docx, { c1: 'accept', c2: 'reject' }, [['c1', 'c2']])).toEqual(new Map([['c1', 'in'], ['c2', 'back']]));
  });

  it('a deleted row whose only cell is deleted too: both accepted, the changes inside show as accepted in any order', () => {
    const docx = minimalDocx(
      `${TABLE_START}<w:tr>${plain('keep')}${plain('keep too')}</w:tr>` +
        `<w:tr><w:trPr><w:del w:id="1" ${A}/></w:trPr><w:tc><w:tcPr><w:cellDel w:id="2" ${A}/></w:tcPr>` +
        `<w:p><w:ins w:id="3" ${A}>${r('inside')}</w:ins></w:p></w:tc></w:tr></w:tbl><w:p/>`,
    );
    for (const inside of ['accept', 'reject'] as const) {
      expectOrderFree(docx, { c1: 'accept', c2: 'accept', c3: inside }, [['c1'], ['c2'], ['c3']]);
    }
  });
});
