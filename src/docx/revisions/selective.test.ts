/**
 * Issue 11's constructs, one fixture each: what used to make selective decisions depend on order
 * or batching (the property test, test/conformance/decision-properties.test.ts, combines them).
 */
import { describe, expect, it } from 'vitest';
import { bodyOf, minimalDocx, r } from '../../../test/support/docx-files';
import { applyDecisions, listRevisions, openDocx } from '../index';

const A = 'w:author="Ann" w:date="2025-01-01T00:00:00Z"';
const ids = (docx: Uint8Array) => listRevisions(docx).map((x) => x.change_id);
const decide = (docx: Uint8Array, accept: string[], reject: string[] = []) => applyDecisions(docx, { accept, reject });
const inBatches = (docx: Uint8Array, ...batches: { accept?: string[]; reject?: string[] }[]) => {
  const doc = openDocx(docx);
  for (const b of batches) {
    const listed = new Set(doc.changeIds());
    doc.apply({ accept: (b.accept ?? []).filter((id) => listed.has(id)), reject: (b.reject ?? []).filter((id) => listed.has(id)) });
  }
  return doc.toBytes();
};

describe('revision marks inside old properties belong to the live change', () => {
  it('a deleted cell whose w:tcPrChange holds its own w:cellDel: rejecting the property change brings no second deletion back', () => {
    const docx = minimalDocx(
      `<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid><w:tr><w:tc><w:p>${r('keep')}</w:p></w:tc>` +
        `<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/><w:cellDel w:id="1" ${A}/><w:tcPrChange w:id="2" ${A}><w:tcPr><w:tcW w:w="9000" w:type="dxa"/><w:cellDel w:id="3" ${A}/></w:tcPr></w:tcPrChange></w:tcPr><w:p>${r('gone')}</w:p></w:tc></w:tr></w:tbl><w:p/>`,
    );
    expect(ids(docx)).toEqual(['c1', 'c2']);
    const rejected = decide(docx, [], ['c2']);
    expect(ids(rejected)).toEqual(['c1']);
    expect(bodyOf(rejected)).toContain('<w:tcW w:w="9000" w:type="dxa"/><w:cellDel w:id="1"');
    // Property change first, then the deletion, equals both at once.
    expect(bodyOf(inBatches(docx, { reject: ['c2'] }, { accept: ['c1'] }))).toBe(bodyOf(decide(docx, ['c1'], ['c2'])));
    // The deletion decided first: the property change's marker does not bring it back.
    const afterDeletionRejected = decide(decide(docx, [], ['c1']), [], ['c2']);
    expect(ids(afterDeletionRejected)).toEqual([]);
  });

  it('a paragraph mark inserted, whose w:rPrChange holds the insertion again; and a row deleted, whose w:trPrChange holds the deletion again', () => {
    const docx = minimalDocx(
      `<w:p><w:pPr><w:rPr><w:ins w:id="1" ${A}/><w:b/><w:rPrChange w:id="2" ${A}><w:rPr><w:ins w:id="3" ${A}/></w:rPr></w:rPrChange></w:rPr></w:pPr>${r('one')}</w:p><w:p>${r('two')}</w:p>` +
        `<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="3000"/></w:tblGrid><w:tr><w:trPr><w:cantSplit/><w:del w:id="4" ${A}/><w:trPrChange w:id="5" ${A}><w:trPr><w:del w:id="6" ${A}/></w:trPr></w:trPrChange></w:trPr><w:tc><w:p>${r('row')}</w:p></w:tc></w:tr></w:tbl><w:p/>`,
    );
    expect(ids(docx)).toEqual(['c2', 'c1', 'c4', 'c5']); // a mark counts at its paragraph's end
    const rejected = decide(docx, [], ['c2', 'c5']);
    expect(ids(rejected)).toEqual(['c1', 'c4']);
    const all = decide(rejected, ['c1', 'c4']);
    expect(ids(all)).toEqual([]);
    expect(bodyOf(all)).toBe(bodyOf(decide(docx, ['c1', 'c4'], ['c2', 'c5'])));
  });
});

describe('a move is one change whatever holds its halves', () => {
  // The destination lies in an inserted row; the source in a paragraph before the table.
  const docx = minimalDocx(
    `<w:p>${r('Pay ')}<w:moveFromRangeStart w:id="1" ${A} w:name="m1"/><w:moveFrom w:id="2" ${A}><w:r><w:delText>promptly</w:delText></w:r></w:moveFrom><w:moveFromRangeEnd w:id="1"/></w:p>` +
      `<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="3000"/></w:tblGrid><w:tr><w:trPr><w:ins w:id="3" ${A}/></w:trPr><w:tc><w:p><w:moveToRangeStart w:id="4" ${A} w:name="m1"/><w:moveTo w:id="5" ${A}>${r('promptly')}</w:moveTo><w:moveToRangeEnd w:id="4"/></w:p></w:tc></w:tr></w:tbl><w:p/>`,
  );

  it('lists the move once; rejecting the row first leaves it listed as the same change, and deciding it later equals one batch', () => {
    expect(ids(docx)).toEqual(['c2', 'c3']);
    const rowFirst = decide(docx, [], ['c3']);
    expect(ids(rowFirst)).toEqual(['c2']);
    for (const verdict of ['accept', 'reject'] as const) {
      const oneBatch = applyDecisions(docx, verdict === 'accept' ? { accept: ['c2'], reject: ['c3'] } : { accept: [], reject: ['c2', 'c3'] });
      const later = applyDecisions(rowFirst, verdict === 'accept' ? { accept: ['c2'], reject: [] } : { accept: [], reject: ['c2'] });
      const moveFirst = inBatches(docx, verdict === 'accept' ? { accept: ['c2'] } : { reject: ['c2'] }, { reject: ['c3'] });
      expect(bodyOf(later)).toBe(bodyOf(oneBatch));
      expect(bodyOf(moveFirst)).toBe(bodyOf(oneBatch));
      expect(ids(later)).toEqual([]);
    }
  });
});

describe('a move across a content control boundary (issue 22.3)', () => {
  // The destination sits in a control with a tracked boundary; the source, outside it, is a whole
  // paragraph between block-level range markers, followed by the story's last paragraph, whose
  // inserted mark, rejected, joins it backward.
  const docx = minimalDocx(
    `<w:customXmlInsRangeStart w:id="1" ${A}/><w:sdt><w:sdtPr/><w:sdtContent><w:customXmlInsRangeEnd w:id="1"/><w:p>${r('near ')}</w:p>` +
      `<w:moveToRangeStart w:id="3" ${A} w:name="m1"/><w:p><w:moveTo w:id="4" ${A}>${r('Sentence. ')}</w:moveTo></w:p><w:moveToRangeEnd w:id="3"/>` +
      `<w:customXmlInsRangeStart w:id="2" ${A}/></w:sdtContent></w:sdt><w:customXmlInsRangeEnd w:id="2"/>` +
      `<w:moveFromRangeStart w:id="5" ${A} w:name="m1"/><w:p><w:moveFrom w:id="6" ${A}>${r('Sentence. ')}</w:moveFrom></w:p><w:moveFromRangeEnd w:id="5"/>` +
      `<w:p><w:pPr><w:rPr><w:ins w:id="7" ${A}/></w:rPr></w:pPr>${r('last')}</w:p>`,
  );

  it('a backward join keeps the moved text inside its range: the move stays one change, and batches equal one batch', () => {
    expect(ids(docx)).toEqual(['c1', 'c4', 'c7']);
    const markFirst = decide(docx, [], ['c7']);
    // The range end travels into the joined paragraph after the moved text: still the move's half.
    expect(ids(markFirst)).toEqual(['c1', 'c4']);
    for (const verdict of ['accept', 'reject'] as const) {
      const move = verdict === 'accept' ? { accept: ['c4'] } : { reject: ['c4'] };
      const oneBatch = inBatches(docx, { accept: move.accept ?? [], reject: ['c1', 'c7', ...(move.reject ?? [])] });
      const threeBatches = inBatches(docx, { reject: ['c7'] }, move, { reject: ['c1'] });
      expect(bodyOf(threeBatches)).toBe(bodyOf(oneBatch));
      expect(ids(threeBatches)).toEqual([]);
      // The sentence is kept once: at the destination when accepted, at the source when rejected.
      expect(bodyOf(oneBatch).match(/Sentence\. /g)).toHaveLength(1);
    }
  });
});

describe('a moved paragraph mark joined into a paragraph holding another move', () => {
  // A destination paragraph whose mark is moved too (c5's move), then the story's last paragraph:
  // an inserted mark (c7), a property change (c8) and the source half of another move (c10), whose
  // destination is missing. Rejecting c7 joins the last paragraph backward: the moved mark comes
  // to the end of a paragraph whose last move range is c10's source. The mark is a destination's:
  // it stays c5's half, so rejecting c10 later leaves it where one batch leaves it.
  const docx = minimalDocx(
    `<w:moveToRangeStart w:id="3" ${A} w:name="m1"/><w:p><w:pPr><w:rPr><w:moveTo w:id="4" ${A}/></w:rPr></w:pPr><w:moveTo w:id="5" ${A}>${r('Sentence. ')}</w:moveTo></w:p><w:moveToRangeEnd w:id="3"/>` +
      `<w:p><w:pPr><w:jc w:val="center"/><w:rPr><w:ins w:id="7" ${A}/></w:rPr><w:pPrChange w:id="8" ${A}><w:pPr><w:jc w:val="left"/></w:pPr></w:pPrChange></w:pPr>` +
      `<w:moveFromRangeStart w:id="9" ${A} w:name="m2"/><w:moveFrom w:id="10" ${A}><w:r><w:delText xml:space="preserve">moved </w:delText></w:r></w:moveFrom><w:moveFromRangeEnd w:id="9"/>${r('net 30')}</w:p>`,
  );

  it('rejecting the inserted mark, then the lone source, equals rejecting both at once', () => {
    expect(ids(docx)).toEqual(['c5', 'c8', 'c10', 'c7']);
    const markFirst = decide(docx, [], ['c7']);
    expect(ids(markFirst)).toEqual(['c8', 'c5', 'c10']);
    expect(bodyOf(decide(markFirst, [], ['c10']))).toBe(bodyOf(decide(docx, [], ['c7', 'c10'])));
    // The moved mark is still the destination's: rejecting the other move leaves it in place.
    expect(bodyOf(decide(markFirst, [], ['c10']))).toContain(`<w:moveTo w:id="4"`);
  });

  it('the same when the other move is a destination too: the moved mark stays its own move\'s half', () => {
    const sameSide = minimalDocx(
      `<w:moveToRangeStart w:id="3" ${A} w:name="m1"/><w:p><w:pPr><w:rPr><w:moveTo w:id="4" ${A}/></w:rPr></w:pPr><w:moveTo w:id="5" ${A}>${r('Sentence. ')}</w:moveTo></w:p><w:moveToRangeEnd w:id="3"/>` +
        `<w:p><w:pPr><w:rPr><w:ins w:id="7" ${A}/></w:rPr></w:pPr>` +
        `<w:moveToRangeStart w:id="9" ${A} w:name="m2"/><w:moveTo w:id="10" ${A}>${r('moved ')}</w:moveTo><w:moveToRangeEnd w:id="9"/>${r('net 30')}</w:p>`,
    );
    for (const verdict of ['accept', 'reject'] as const) {
      const other = verdict === 'accept' ? { accept: ['c10'] } : { reject: ['c10'] };
      const markFirst = decide(sameSide, [], ['c7']);
      expect(ids(markFirst)).toEqual(['c5', 'c10']);
      const twoBatches = inBatches(sameSide, { reject: ['c7'] }, other);
      expect(bodyOf(twoBatches)).toBe(bodyOf(inBatches(sameSide, { accept: other.accept ?? [], reject: ['c7', ...(other.reject ?? [])] })));
      expect(ids(twoBatches)).toEqual(['c5']);
    }
  });
});

describe('paragraph marks next to empty paragraphs', () => {
  // Text, then two empty paragraphs, each with a deleted mark, then text.
  const docx = minimalDocx(
    `<w:p><w:pPr><w:rPr><w:del w:id="1" ${A}/></w:rPr></w:pPr>${r('Fees ')}</w:p>` +
      `<w:p><w:pPr><w:rPr><w:del w:id="2" ${A}/></w:rPr></w:pPr></w:p>` +
      `<w:p><w:pPr><w:rPr><w:del w:id="3" ${A}/></w:rPr></w:pPr></w:p>` +
      `<w:p>${r('are due.')}</w:p>`,
  );

  it('accepting the marks in one batch, in two, or one at a time in any order leaves the same paragraphs', () => {
    const once = bodyOf(decide(docx, ['c1', 'c2', 'c3']));
    expect(once).toContain('Fees ');
    expect(once.match(/<w:p[ >]/g)).toHaveLength(1);
    for (const order of [['c1', 'c2', 'c3'], ['c3', 'c2', 'c1'], ['c2', 'c1', 'c3'], ['c2', 'c3', 'c1']]) {
      expect(bodyOf(inBatches(docx, ...order.map((id) => ({ accept: [id] })))), order.join(' ')).toBe(once);
    }
    expect(bodyOf(inBatches(docx, { accept: ['c1', 'c3'] }, { accept: ['c2'] }))).toBe(once);
  });

  it('the same before a table: the last mark, with nothing to join forward, takes the paragraph before it, in one batch or several', () => {
    const beforeTable = minimalDocx(
      `<w:p><w:pPr><w:rPr><w:del w:id="1" ${A}/></w:rPr></w:pPr>${r('Fees')}</w:p><w:p><w:pPr><w:rPr><w:del w:id="2" ${A}/></w:rPr></w:pPr></w:p>` +
        `<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="3000"/></w:tblGrid><w:tr><w:tc><w:p>${r('cell')}</w:p></w:tc></w:tr></w:tbl><w:p/>`,
    );
    const once = bodyOf(decide(beforeTable, ['c1', 'c2']));
    expect(bodyOf(inBatches(beforeTable, { accept: ['c1'] }, { accept: ['c2'] }))).toBe(once);
    expect(bodyOf(inBatches(beforeTable, { accept: ['c2'] }, { accept: ['c1'] }))).toBe(once);
  });
});

describe('a paragraph standing alone beside content controls (issue 34 item 3)', () => {
  // The lone paragraph: its mark inserted (c1), its text inserted (c2), its properties changed (c3);
  // no paragraph before or after it in its container, only controls and tables.
  const sdt = (text: string) => `<w:sdt><w:sdtPr><w:id w:val="7"/></w:sdtPr><w:sdtEndPr/><w:sdtContent><w:p>${r(text)}</w:p></w:sdtContent></w:sdt>`;
  const table = `<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="3000"/></w:tblGrid><w:tr><w:tc><w:p>${r('cell')}</w:p></w:tc></w:tr></w:tbl>`;
  const lone = (mark = 'ins', content = `<w:ins w:id="2" ${A}>${r('Lone')}</w:ins>`) =>
    `<w:p><w:pPr><w:jc w:val="center"/><w:rPr><w:${mark} w:id="1" ${A}/></w:rPr><w:pPrChange w:id="3" ${A}><w:pPr/></w:pPrChange></w:pPr>${content}</w:p>`;
  const shapes: [string, (l: string) => string][] = [
    ['between a control and a table', (l) => `<w:p>${r('A')}</w:p>${sdt('In')}${l}${table}<w:p>${r('Z')}</w:p>`],
    ['between a table and a control', (l) => `<w:p>${r('A')}</w:p>${table}${l}${sdt('In')}<w:p>${r('Z')}</w:p>`],
    ['between two controls', (l) => `<w:p>${r('A')}</w:p>${sdt('In')}${l}${sdt('Two')}<w:p>${r('Z')}</w:p>`],
    ['first in the body, before a control', (l) => `${l}${sdt('In')}<w:p>${r('Z')}</w:p>`],
    ['after a control ending a cell', (l) => `<w:p>${r('A')}</w:p>${table.replace('</w:tc>', `${sdt('In')}${l}</w:tc>`)}<w:p>${r('Z')}</w:p>`],
    ['after a control ending the body', (l) => `<w:p>${r('A')}</w:p>${sdt('In')}${l}`],
  ];

  it.each(shapes)('%s: rejected whole it goes, in one batch or mark and text apart in either order', (_, make) => {
    const docx = minimalDocx(make(lone()));
    const once = bodyOf(decide(docx, [], ['c1', 'c2']));
    expect(once).toBe(bodyOf(minimalDocx(make(''))));
    expect(bodyOf(inBatches(docx, { reject: ['c1'] }, { reject: ['c2'] }))).toBe(once);
    expect(bodyOf(inBatches(docx, { reject: ['c2'] }, { reject: ['c1'] }))).toBe(once);
    // Its text accepted, it stays (nothing to join), whichever came first.
    const kept = bodyOf(decide(docx, ['c2'], ['c1']));
    expect(kept).toContain('Lone');
    expect(bodyOf(inBatches(docx, { reject: ['c1'] }, { accept: ['c2'] }))).toBe(kept);
    // Its properties' change goes with it: the mark's rejection takes it.
    expect(openDocx(docx).takers().get('c3')).toContainEqual({ changeId: 'c1', removedOn: 'reject' });
  });

  it.each(shapes)('%s: a deleted one accepted goes too', (_, make) => {
    const docx = minimalDocx(make(lone('del', `<w:del w:id="2" ${A}><w:r><w:delText>Lone</w:delText></w:r></w:del>`)));
    expect(bodyOf(decide(docx, ['c1', 'c2']))).toBe(bodyOf(minimalDocx(make(''))));
    expect(bodyOf(inBatches(docx, { accept: ['c1'] }, { accept: ['c2'] }))).toBe(bodyOf(minimalDocx(make(''))));
  });

  it('at its container\'s end its bookmark goes before the control, and the cell still ends with the control', () => {
    const docx = minimalDocx(`${table.replace('</w:tc>', `${sdt('In')}${lone('ins', `<w:bookmarkStart w:id="9" w:name="B"/><w:ins w:id="2" ${A}>${r('Lone')}</w:ins><w:bookmarkEnd w:id="9"/>`)}</w:tc>`)}<w:p/>`);
    expect(bodyOf(decide(docx, [], ['c1', 'c2']))).toContain('<w:bookmarkStart w:id="9" w:name="B"/><w:bookmarkEnd w:id="9"/><w:sdt>');
    expect(bodyOf(decide(docx, [], ['c1', 'c2']))).toMatch(/<\/w:sdt><\/w:tc>/);
  });

  it('its mark decided before a paragraph before it that may still join it, emptied: it waits, and the result is the same in any order', () => {
    // c4/c5: an inserted paragraph (mark and text) before the lone one, first in the body.
    const before = `<w:p><w:pPr><w:rPr><w:ins w:id="4" ${A}/></w:rPr></w:pPr><w:ins w:id="5" ${A}>${r('Before')}</w:ins></w:p>`;
    const docx = minimalDocx(`${before}${lone()}${sdt('In')}<w:p>${r('Z')}</w:p>`);
    const once = bodyOf(decide(docx, [], ['c1', 'c2', 'c4', 'c5']));
    expect(once).toBe(bodyOf(minimalDocx(`${sdt('In')}<w:p>${r('Z')}</w:p>`)));
    for (const order of [[['c1', 'c2'], ['c4', 'c5']], [['c4', 'c5'], ['c1', 'c2']], [['c1'], ['c5'], ['c2'], ['c4']]]) {
      expect(bodyOf(inBatches(docx, ...order.map((reject) => ({ reject })))), order.join(' | ')).toBe(once);
    }
    // The paragraph before it keeps its text: the lone one, joined by it, stays, whichever came first.
    const kept = bodyOf(decide(docx, ['c5'], ['c1', 'c2', 'c4']));
    expect(kept).toContain('Before');
    expect(bodyOf(inBatches(docx, { reject: ['c1', 'c2'] }, { accept: ['c5'], reject: ['c4'] }))).toBe(kept);
  });

  it('stays where taking it away would leave two tables together, or a cell ending with a table', () => {
    const between = minimalDocx(`<w:p>${r('A')}</w:p>${table}${lone()}${table}<w:p>${r('Z')}</w:p>`);
    expect(bodyOf(decide(between, [], ['c1', 'c2'])).match(/<w:p[ >/]/g)).toHaveLength(5);
    const cellEnd = minimalDocx(`${table.replace('</w:tc>', `${table}${lone()}</w:tc>`)}<w:p/>`);
    expect(bodyOf(decide(cellEnd, [], ['c1', 'c2']))).toMatch(/<\/w:tbl><w:p[ >/].*<\/w:tc>/);
  });
});

describe('w:numberingChange', () => {
  const para = (numPrExtra: string, pPrTail = '') =>
    minimalDocx(`<w:p><w:pPr><w:numPr><w:ilvl w:val="1"/><w:numId w:val="2"/>${numPrExtra}</w:numPr>${pPrTail}</w:pPr>${r('Item')}</w:p>`);

  it('rejecting restores the numbering the old paragraph properties record', () => {
    const docx = para(`<w:numberingChange w:id="1" ${A} w:original="%1."/>`, `<w:pPrChange w:id="2" ${A}><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr></w:pPrChange>`);
    const body = bodyOf(decide(docx, [], ['c1']));
    expect(body).toContain('<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>');
    expect(ids(decide(docx, [], ['c1']))).toEqual(['c2']);
  });

  it('rejecting removes the numbering when the record says there was none (old properties without it, or an empty w:original)', () => {
    const unnumbered = para(`<w:numberingChange w:id="1" ${A} w:original="%1."/>`, `<w:pPrChange w:id="2" ${A}><w:pPr/></w:pPrChange>`);
    expect(bodyOf(decide(unnumbered, [], ['c1']))).not.toContain('w:numPr');
    expect(bodyOf(decide(para(`<w:numberingChange w:id="1" ${A} w:original=""/>`), [], ['c1']))).not.toContain('w:numPr');
  });

  it('keeps the list when only the previous number text is recorded, and accepting keeps it too', () => {
    const docx = para(`<w:numberingChange w:id="1" ${A} w:original="%1:3:0:."/>`);
    expect(bodyOf(decide(docx, [], ['c1']))).toContain('<w:numPr><w:ilvl w:val="1"/><w:numId w:val="2"/></w:numPr>');
    expect(bodyOf(decide(docx, ['c1']))).toContain('<w:numPr><w:ilvl w:val="1"/><w:numId w:val="2"/></w:numPr>');
  });
});

describe('a paragraph mark beside a table a later decision removes', () => {
  // c1: the mark of "before" deleted; the table's only row inserted (c2), or deleted (c3 in the second form).
  const table = (rowMark: string) =>
    `<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="3000"/></w:tblGrid><w:tr><w:trPr>${rowMark}</w:trPr><w:tc><w:p>${r('cell')}</w:p></w:tc></w:tr></w:tbl>`;
  const docx = minimalDocx(
    `<w:p>${r('first')}</w:p><w:p><w:pPr><w:jc w:val="center"/><w:rPr><w:del w:id="1" ${A}/></w:rPr></w:pPr>${r('before')}</w:p>` +
      `${table(`<w:ins w:id="2" ${A}/>`)}<w:p><w:pPr><w:jc w:val="right"/></w:pPr>${r('after')}</w:p>`,
  );

  it('joins against the final neighbour whatever the order: the mark first waits for the row', () => {
    for (const rowVerdict of ['accept', 'reject'] as const) {
      const row = rowVerdict === 'accept' ? { accept: ['c2'] } : { reject: ['c2'] };
      const once = decide(docx, ['c1', ...(row.accept ?? [])], row.reject ?? []);
      expect(bodyOf(inBatches(docx, { accept: ['c1'] }, row)), rowVerdict).toBe(bodyOf(once));
      expect(bodyOf(inBatches(docx, row, { accept: ['c1'] })), rowVerdict).toBe(bodyOf(once));
    }
    // The row rejected: the table goes and "before" joins "after" (keeping its properties); kept: "first" joins "before".
    expect(bodyOf(decide(docx, ['c1'], ['c2']))).toContain('<w:jc w:val="right"/></w:pPr><w:r><w:t xml:space="preserve">before</w:t></w:r><w:r><w:t xml:space="preserve">after');
    expect(bodyOf(decide(docx, ['c1', 'c2']))).toContain('<w:jc w:val="center"/></w:pPr><w:r><w:t xml:space="preserve">first</w:t></w:r><w:r><w:t xml:space="preserve">before');
  });

  it('waits visibly unchanged, with a hidden bookmark, and lists nothing new', () => {
    const waiting = decide(docx, ['c1']);
    expect(ids(waiting)).toEqual(['c2']);
    expect(bodyOf(waiting)).toMatch(/before<\/w:t><\/w:r><w:bookmarkStart w:id="\d+" w:name="_RedlineJoin_document_1"\/><w:bookmarkEnd w:id="\d+"\/><\/w:p>/);
    expect(bodyOf(decide(waiting, ['c2']))).not.toContain('_RedlineJoin');
  });
});

describe('what a decision takes', () => {
  it("a paragraph's properties go with its own mark and with the next mark joining backward: both take them", () => {
    const docx = minimalDocx(
      `<w:p><w:pPr><w:jc w:val="center"/><w:rPr><w:ins w:id="1" ${A}/></w:rPr><w:pPrChange w:id="2" ${A}><w:pPr/></w:pPrChange></w:pPr>${r('one')}</w:p>` +
        `<w:p><w:pPr><w:rPr><w:del w:id="3" ${A}/></w:rPr></w:pPr>${r('two')}</w:p><w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="3000"/></w:tblGrid><w:tr><w:tc><w:p>${r('cell')}</w:p></w:tc></w:tr></w:tbl><w:p/>`,
    );
    expect(openDocx(docx).takers().get('c2')).toEqual([{ changeId: 'c1', removedOn: 'reject' }, { changeId: 'c3', removedOn: 'accept' }]);
  });

  it('rejecting a paragraph property change takes the numbering change it restores away', () => {
    const docx = minimalDocx(
      `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/><w:numberingChange w:id="1" ${A} w:original=""/></w:numPr><w:jc w:val="center"/><w:pPrChange w:id="2" ${A}><w:pPr/></w:pPrChange></w:pPr>${r('one')}</w:p>`,
    );
    expect(openDocx(docx).takers().get('c1')).toEqual([{ changeId: 'c2', removedOn: 'reject' }]);
    expect(ids(decide(docx, [], ['c2']))).toEqual([]);
  });
});

describe('when other decisions remove a change whatever its own verdict (goneWhen)', () => {
  const TABLE = '<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>';
  const cell = (text: string, tcPr = '') => `<w:tc>${tcPr ? `<w:tcPr>${tcPr}</w:tcPr>` : ''}<w:p>${r(text)}</w:p></w:tc>`;

  it('an inserted row goes when every one of its cells goes: the condition says so, and applying it removes the row', () => {
    const docx = minimalDocx(
      `${TABLE}<w:tr>${cell('keep')}${cell('keep')}</w:tr><w:tr><w:trPr><w:ins w:id="1" ${A}/></w:trPr>` +
        `${cell('a', `<w:cellDel w:id="2" ${A}/>`)}${cell('b', `<w:cellIns w:id="3" ${A}/>`)}</w:tr></w:tbl><w:p/>`,
    );
    // Either the row's own rejection (not counted: it is the change itself) or both cells going.
    expect(openDocx(docx).goneWhen().get('c1')).toEqual({ all: [{ id: 'c2', on: 'accept' }, { id: 'c3', on: 'reject' }] });
    expect(ids(decide(docx, ['c2'], ['c3']))).toEqual([]);
    expect(ids(decide(docx, ['c2', 'c3']))).toEqual(['c1']);
  });

  it('a change nothing can remove has no condition', () => {
    const docx = minimalDocx(`<w:p><w:ins w:id="1" ${A}>${r('new')}</w:ins></w:p>`);
    expect(openDocx(docx).goneWhen().size).toBe(0);
  });
});
