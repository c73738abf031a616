import { describe, expect, it } from 'vitest';
import { REVISION_KINDS } from '../../contract/revision';
import { ConflictingChangeIdsError, UnknownChangeIdsError } from '../errors';
import { buildDemoContract, buildKindSample } from '../fixture';
import { applyDecisions, ingestDocx, listRevisions, openDocx } from '../index';
import { bodyOf, commentsPart, del, dr, ins, minimalDocx, r } from '../../../test/support/docx-files';

const DATE = 'w:date="2025-01-01T00:00:00Z"';

describe('ingest', () => {
  it('gives duplicate and missing ids fresh numbers above the largest, keeping unique ones', () => {
    const docx = minimalDocx(`<w:p>${ins(5, r('a'))}${del(5, dr('b'))}<w:ins w:author="X">${r('c')}</w:ins></w:p>`);
    const once = ingestDocx(docx);
    expect(once.revisionCount).toBe(3);
    expect(once.bytes).not.toBe(docx);
    expect(listRevisions(once.bytes).map((x) => x.change_id)).toEqual(['c5', 'c6', 'c7']);
    const twice = ingestDocx(once.bytes);
    expect(twice.bytes).toBe(once.bytes); // nothing to renumber: the very same bytes come back
  });

  it('returns the original bytes for a file whose ids are already unique', () => {
    const docx = minimalDocx(`<w:p>${ins(1, r('a'))}${del(2, dr('b'))}</w:p>`);
    expect(ingestDocx(docx).bytes).toBe(docx);
  });

  it('keeps change ids stable when another change is decided', () => {
    const docx = ingestDocx(buildDemoContract()).bytes;
    const ids = listRevisions(docx).map((x) => x.change_id);
    const after = applyDecisions(docx, { accept: [ids[3]!], reject: [ids[5]!] });
    const left = listRevisions(after).map((x) => x.change_id);
    expect(left.every((id) => ids.includes(id))).toBe(true);
    expect(left).not.toContain(ids[3]);
    expect(left).not.toContain(ids[5]);
  });
});

describe('listing', () => {
  it("gives the demo's proposals the author and date they were proposed with (their tracked insertion)", () => {
    const proposals = listRevisions(ingestDocx(buildDemoContract()).bytes).filter((x) => x.kind === 'proposed');
    expect(proposals).toHaveLength(2);
    for (const p of proposals) expect(p).toMatchObject({ author: 'Redline Assistant', date: '2025-03-10T14:05:00Z' });
  });

  it('takes the author and date of a proposal without a tracked insertion from the comment that justifies it', () => {
    const sdt = `<w:sdt><w:sdtPr><w:tag w:val="redline:proposed:4"/></w:sdtPr><w:sdtContent>${r('at its own cost')}</w:sdtContent></w:sdt>`;
    const anchored = `<w:commentRangeStart w:id="9"/>${sdt}<w:commentRangeEnd w:id="9"/><w:r><w:commentReference w:id="9"/></w:r>`;
    const comments = '<?xml version="1.0" encoding="UTF-8"?><w:comments xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
      '<w:comment w:id="9" w:author="Assistant" w:date="2025-02-03T10:00:00Z"><w:p><w:r><w:t>Cost falls on the party in breach.</w:t></w:r></w:p></w:comment></w:comments>';
    const [alone] = listRevisions(minimalDocx(`<w:p>${r('Provider acts ')}${sdt}</w:p>`));
    expect(alone).toMatchObject({ kind: 'proposed', author: null, date: null });
    const [justified] = listRevisions(minimalDocx(`<w:p>${r('Provider acts ')}${anchored}</w:p>`, { 'word/comments.xml': comments }));
    expect(justified).toMatchObject({ kind: 'proposed', author: 'Assistant', date: '2025-02-03T10:00:00Z', justification: 'Cost falls on the party in breach.' });
  });

  it.each(REVISION_KINDS)('finds a %s change in its kind sample', (kind) => {
    const revs = listRevisions(ingestDocx(buildKindSample(kind)).bytes);
    expect(revs.map((x) => x.kind)).toContain(kind);
    for (const x of revs) expect(x.text_preview.length).toBeGreaterThan(0);
  });

  it('lists every kind in the demo contract, in order, with authors and dates', () => {
    const revs = listRevisions(ingestDocx(buildDemoContract()).bytes);
    expect(new Set(revs.map((x) => x.kind))).toEqual(new Set(REVISION_KINDS));
    expect(revs.map((x) => x.ordinal)).toEqual(revs.map((_, i) => i + 1));
    expect(new Set(revs.map((x) => x.change_id)).size).toBe(revs.length);
    expect(revs.filter((x) => x.justification).length).toBeGreaterThan(3);
  });

  it('describes changes readably', () => {
    const docx = minimalDocx(
      `<w:p><w:pPr><w:rPr><w:del w:id="1" w:author="A" ${DATE}/></w:rPr></w:pPr>${ins(2, r('new words'))}` +
        `<w:r><w:rPr><w:b/><w:rPrChange w:id="3" w:author="A"><w:rPr/></w:rPrChange></w:rPr><w:t>x</w:t></w:r></w:p><w:p/>`,
    );
    const byId = new Map(listRevisions(docx).map((x) => [x.change_id, x]));
    expect(byId.get('c2')!.text_preview).toBe('new words');
    expect(byId.get('c3')!.text_preview).toBe('Formatting: bold');
    expect(byId.get('c1')!.text_preview).toBe('Paragraph mark deleted (joins with next)');
    expect(listRevisions(docx).map((x) => x.change_id)).toEqual(['c2', 'c3', 'c1']); // a mark ends its paragraph
  });

  it('takes the justification from the map, else from a comment anchored exactly on the change', () => {
    const docx = minimalDocx(
      `<w:p><w:commentRangeStart w:id="9"/>${ins(1, r('a'))}<w:commentRangeEnd w:id="9"/>${del(2, dr('b'))}</w:p>`,
      { 'word/comments.xml': commentsPart({ 9: 'Because.' }) },
    );
    const revs = listRevisions(docx);
    expect(revs.map((x) => x.justification)).toEqual(['Because.', null]);
    const mapped = listRevisions(docx, { justifications: new Map([['c2', 'Recorded.'], ['c1', 'Override.']]) });
    expect(mapped.map((x) => x.justification)).toEqual(['Override.', 'Recorded.']);
  });

  it('lists revisions in headers, footnotes and comments after the body', () => {
    const revs = listRevisions(ingestDocx(buildDemoContract()).bytes);
    expect(revs[revs.length - 1]!.text_preview).toMatch(/taxes/); // the demo's footnote insertion
  });
});

describe('applying decisions', () => {
  const nested = minimalDocx(`<w:p>${r('A ')}${ins(1, r('in ') + del(2, dr('out ')) + r('kept'), 'Ann')}</w:p>`);

  it('is atomic: unknown or conflicting ids throw and name the ids', () => {
    expect(() => applyDecisions(nested, { accept: ['c1', 'c99'], reject: [] })).toThrow(UnknownChangeIdsError);
    try {
      applyDecisions(nested, { accept: ['c1'], reject: ['c1', 'c2'] });
    } catch (e) {
      expect(e).toBeInstanceOf(ConflictingChangeIdsError);
      expect((e as ConflictingChangeIdsError).ids).toEqual(['c1']);
    }
    try {
      applyDecisions(nested, { accept: ['zz'], reject: [] });
    } catch (e) {
      expect((e as UnknownChangeIdsError).ids).toEqual(['zz']);
    }
  });

  it('rejecting an insertion removes a deletion inside it; accepting the inner deletion keeps the insertion', () => {
    expect(bodyOf(applyDecisions(nested, { accept: [], reject: ['c1'] }))).toBe(`<w:p>${r('A ')}</w:p>`);
    const innerAccepted = applyDecisions(nested, { accept: ['c2'], reject: [] });
    expect(listRevisions(innerAccepted).map((x) => x.change_id)).toEqual(['c1']);
    expect(bodyOf(innerAccepted)).not.toContain('out');
    const innerRejected = applyDecisions(nested, { accept: ['c1'], reject: ['c2'] });
    expect(bodyOf(innerRejected)).toBe(`<w:p>${r('A ')}${r('in ')}<w:r><w:t xml:space="preserve">out </w:t></w:r>${r('kept')}</w:p>`);
  });

  it('rejecting a deleted field code restores w:instrText', () => {
    const docx = minimalDocx(`<w:p>${del(1, `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:delInstrText> DATE </w:delInstrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`)}</w:p>`);
    const out = bodyOf(applyDecisions(docx, { accept: [], reject: ['c1'] }));
    expect(out).toContain('<w:instrText> DATE </w:instrText>');
    expect(out).not.toContain('w:del');
  });

  it('accepting a deleted paragraph mark joins with the next paragraph, which keeps its properties', () => {
    const docx = minimalDocx(
      `<w:p><w:pPr><w:jc w:val="center"/><w:rPr><w:del w:id="1" w:author="A" ${DATE}/></w:rPr></w:pPr>${r('one ')}</w:p>` +
        `<w:bookmarkStart w:id="7" w:name="b"/><w:p><w:pPr><w:jc w:val="right"/></w:pPr>${r('two')}</w:p><w:bookmarkEnd w:id="7"/>`,
    );
    expect(bodyOf(applyDecisions(docx, { accept: ['c1'], reject: [] }))).toBe(
      `<w:p><w:pPr><w:jc w:val="right"/></w:pPr>${r('one ')}<w:bookmarkStart w:id="7" w:name="b"/>${r('two')}</w:p><w:bookmarkEnd w:id="7"/>`,
    );
    // Rejecting keeps both paragraphs and drops only the marker (and the mark properties it leaves empty).
    expect(bodyOf(applyDecisions(docx, { accept: [], reject: ['c1'] }))).toContain(`<w:pPr><w:jc w:val="center"/></w:pPr>${r('one ')}</w:p>`);
  });

  it('writes every run of a joined paragraph whose moved properties and runs were neighbours in the source', () => {
    // The writer copies source neighbours as one slice; here the next paragraph's w:pPr and run are
    // neighbours with a rebuilt run between them after the join (a regression: the run was lost).
    const docx = minimalDocx(
      `<w:p><w:pPr><w:rPr><w:del w:id="1" w:author="A" ${DATE}/></w:rPr></w:pPr>` +
        `<w:r><w:rPr><w:b/><w:rPrChange w:id="2" w:author="A" ${DATE}><w:rPr/></w:rPrChange></w:rPr><w:t>one </w:t></w:r></w:p>` +
        `<w:p><w:pPr><w:rPr/></w:pPr>${r('two')}</w:p>`,
    );
    expect(bodyOf(applyDecisions(docx, { accept: ['c1'], reject: ['c2'] }))).toBe(`<w:p><w:pPr><w:rPr/></w:pPr><w:r><w:rPr/><w:t>one </w:t></w:r>${r('two')}</w:p>`);
  });

  it('keeps the last paragraph of a cell and before a table, and the body ends with a paragraph', () => {
    const mark = (id: number) => `<w:pPr><w:rPr><w:ins w:id="${id}" w:author="A" ${DATE}/></w:rPr></w:pPr>`;
    const row = (id: number, text: string) => `<w:tr><w:trPr><w:ins w:id="${id}" w:author="A" ${DATE}/></w:trPr><w:tc><w:p>${mark(id + 100)}${r(text)}</w:p></w:tc></w:tr>`;
    const docx = minimalDocx(`<w:p>${mark(1)}${r('before')}</w:p><w:tbl><w:tblGrid><w:gridCol/></w:tblGrid>${row(2, 'x')}${row(3, 'y')}</w:tbl>`);
    const ids = listRevisions(docx).map((x) => x.change_id);
    const rejected = applyDecisions(docx, { accept: [], reject: ids });
    expect(bodyOf(rejected)).toBe(`<w:p>${r('before')}</w:p>`);
    const accepted = bodyOf(applyDecisions(docx, { accept: ids, reject: [] }));
    expect(accepted).toContain(`<w:tc><w:p>${r('x')}</w:p>`);
    expect(accepted.endsWith('</w:tbl><w:p/>')).toBe(true);
  });

  it('rejecting a paragraph property change restores the old properties in schema order, keeping w:sectPr and the mark run properties', () => {
    const docx = minimalDocx(
      `<w:p><w:pPr><w:pStyle w:val="New"/><w:jc w:val="center"/><w:rPr><w:b/></w:rPr>` +
        `<w:sectPr><w:headerReference w:type="default" r:id="rId9" xmlns:r="urn:r"/><w:pgSz w:w="1"/></w:sectPr>` +
        `<w:pPrChange w:id="1" w:author="A" ${DATE}><w:pPr><w:jc w:val="left"/><w:keepNext/></w:pPr></w:pPrChange></w:pPr>${r('t')}</w:p><w:p/>`,
    );
    const out = bodyOf(applyDecisions(docx, { accept: [], reject: ['c1'] }));
    expect(out).toBe(
      `<w:p><w:pPr><w:keepNext/><w:jc w:val="left"/><w:rPr><w:b/></w:rPr><w:sectPr><w:headerReference w:type="default" r:id="rId9" xmlns:r="urn:r"/><w:pgSz w:w="1"/></w:sectPr></w:pPr>${r('t')}</w:p><w:p/>`,
    );
    expect(bodyOf(applyDecisions(docx, { accept: ['c1'], reject: [] }))).not.toContain('pPrChange');
  });

  it('rejecting a section change keeps the header and footer references', () => {
    const docx = minimalDocx(
      `<w:p/><w:sectPr><w:headerReference w:type="default" r:id="rId3" xmlns:r="urn:r"/><w:pgSz w:w="2"/><w:pgMar w:top="1"/>` +
        `<w:sectPrChange w:id="1" w:author="A" ${DATE}><w:sectPr><w:pgMar w:top="9"/></w:sectPr></w:sectPrChange></w:sectPr><w:p/>`,
    );
    const out = bodyOf(applyDecisions(docx, { accept: [], reject: ['c1'] }));
    expect(out).toContain('<w:sectPr><w:headerReference w:type="default" r:id="rId3" xmlns:r="urn:r"/><w:pgMar w:top="9"/></w:sectPr>');
  });

  it('decides both halves of a move together and removes its range markers', () => {
    const from = `<w:moveFromRangeStart w:id="10" w:name="m1" w:author="A" ${DATE}/><w:moveFrom w:id="1" w:author="A" ${DATE}>${r('moved')}</w:moveFrom><w:moveFromRangeEnd w:id="10"/>`;
    const to = `<w:moveToRangeStart w:id="11" w:name="m1" w:author="A" ${DATE}/><w:moveTo w:id="2" w:author="A" ${DATE}>${r('moved')}</w:moveTo><w:moveToRangeEnd w:id="11"/>`;
    const docx = minimalDocx(`<w:p>${r('a ')}${from}</w:p><w:p>${r('b ')}${to}</w:p>`);
    const revs = listRevisions(docx);
    expect(revs).toHaveLength(1);
    expect(revs[0]!.text_preview).toBe('Moved: moved');
    expect(bodyOf(applyDecisions(docx, { accept: ['c1'], reject: [] }))).toBe(`<w:p>${r('a ')}</w:p><w:p>${r('b ')}${r('moved')}</w:p>`);
    expect(bodyOf(applyDecisions(docx, { accept: [], reject: ['c1'] }))).toBe(`<w:p>${r('a ')}${r('moved')}</w:p><w:p>${r('b ')}</w:p>`);
  });

  it('accepting a proposed control keeps its content; rejecting removes both', () => {
    const sdt = `<w:sdt><w:sdtPr><w:tag w:val="redline:proposed:4"/></w:sdtPr><w:sdtContent>${r('offer')}</w:sdtContent></w:sdt>`;
    const docx = minimalDocx(`<w:p>${r('a ')}${sdt}</w:p>`);
    expect(listRevisions(docx).map((x) => [x.change_id, x.kind])).toEqual([['c4', 'proposed']]);
    expect(bodyOf(applyDecisions(docx, { accept: ['c4'], reject: [] }))).toBe(`<w:p>${r('a ')}${r('offer')}</w:p>`);
    expect(bodyOf(applyDecisions(docx, { accept: [], reject: ['c4'] }))).toBe(`<w:p>${r('a ')}</w:p>`);
  });

  it('decides inserted and deleted cells', () => {
    const cell = (change: string, text: string) => `<w:tc><w:tcPr><w:tcW w:w="1"/>${change}</w:tcPr><w:p>${r(text)}</w:p></w:tc>`;
    const docx = minimalDocx(
      `<w:tbl><w:tr>${cell('', 'keep')}${cell(`<w:cellIns w:id="1" w:author="A" ${DATE}/>`, 'new')}${cell(`<w:cellDel w:id="2" w:author="A" ${DATE}/>`, 'old')}</w:tr></w:tbl><w:p/>`,
    );
    const accepted = bodyOf(applyDecisions(docx, { accept: ['c1', 'c2'], reject: [] }));
    expect(accepted).toContain('new');
    expect(accepted).not.toContain('old');
    expect(accepted).not.toContain('cellIns');
    const rejected = bodyOf(applyDecisions(docx, { accept: [], reject: ['c1', 'c2'] }));
    expect(rejected).not.toContain('new');
    expect(rejected).toContain('old');
  });

  it('leaves no revision after accept-all or reject-all of the demo contract', () => {
    const docx = ingestDocx(buildDemoContract()).bytes;
    const ids = listRevisions(docx).map((x) => x.change_id);
    expect(openDocx(applyDecisions(docx, { accept: ids, reject: [] })).revisionCount).toBe(0);
    expect(openDocx(applyDecisions(docx, { accept: [], reject: ids })).revisionCount).toBe(0);
  });
});

describe('mc:AlternateContent', () => {
  it('lists a revision in a text box once and decides its mc:Fallback copy with it', () => {
    const box = (id: number) => `<w:txbxContent><w:p>${ins(id, r('boxed'))}</w:p></w:txbxContent>`;
    const docx = minimalDocx(
      `<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing>${box(1)}</w:drawing></mc:Choice>` +
        `<mc:Fallback><w:pict>${box(1)}</w:pict></mc:Fallback></mc:AlternateContent></w:r>${ins(2, r('x'))}</w:p>`,
    );
    expect(ingestDocx(docx).bytes).toBe(docx); // the Fallback twin's id is not a duplicate
    expect(listRevisions(docx).map((x) => x.change_id)).toEqual(['c1', 'c2']);
    const rejected = bodyOf(applyDecisions(docx, { accept: [], reject: ['c1'] }));
    expect(rejected).not.toContain('boxed');
    expect(rejected).toContain('x');
  });
});

describe('rescanning after a decision', () => {
  it('lists what a scan from scratch lists, one decision at a time, across every kind and the demo contract', () => {
    for (const docx of [ingestDocx(buildDemoContract()).bytes, ...REVISION_KINDS.map((k) => ingestDocx(buildKindSample(k)).bytes)]) {
      const kept = openDocx(docx);
      let step = 0;
      while (kept.revisionCount > 0) {
        const ids = kept.changeIds();
        const id = ids[[0, Math.floor(ids.length / 2), ids.length - 1][step % 3]!]!;
        kept.apply(step++ % 2 === 0 ? { accept: [id], reject: [] } : { accept: [], reject: [id] });
        expect(kept.revisions()).toEqual(openDocx(kept.toBytes()).revisions());
      }
    }
  });

  it('walks a block with a move again even when it did not change, since its move depends on markers elsewhere', () => {
    // The move's range opens inside an insertion two paragraphs up and closes a paragraph down.
    // Rejecting the insertion removes the opening marker (and so the orphaned closing one): the
    // middle paragraph is untouched, yet its w:moveFrom no longer lies in a named move range.
    const D = `w:author="A" ${DATE}`;
    const docx = minimalDocx(
      `<w:p><w:ins w:id="1" ${D}><w:moveFromRangeStart w:id="10" w:name="m" ${D}/>${r('new ')}</w:ins></w:p>` +
        `<w:p><w:moveFrom w:id="2" ${D}>${r('moved')}</w:moveFrom></w:p>` +
        `<w:p>${r('end')}<w:moveFromRangeEnd w:id="10"/></w:p>` +
        `<w:p><w:moveToRangeStart w:id="11" w:name="m" ${D}/><w:moveTo w:id="3" ${D}>${r('moved')}</w:moveTo><w:moveToRangeEnd w:id="11"/></w:p>`,
    );
    const kept = openDocx(docx);
    kept.apply({ accept: [], reject: ['c1'] });
    expect(kept.revisions()).toEqual(openDocx(kept.toBytes()).revisions());
  });
});
