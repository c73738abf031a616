import { describe, expect, it } from 'vitest';
import { EditNotFoundError } from '../errors';
import { applyDecisions, listRevisions, openDocx, writeRedlines } from '../index';
import { documentParagraphs } from '../../../test/conformance/doctext';
import { bodyOf, minimalDocx, r } from '../../../test/support/docx-files';

const opts = { author: 'Assistant', date: '2025-02-02T10:00:00Z' };
const docx = minimalDocx(`<w:p>${r('The fee is ')}${r('sixty', '<w:b/>')}${r(' (60) days net.')}</w:p><w:p>${r('Pay in sixty days.')}</w:p>`);

describe('redline edits', () => {
  it('replaces text across run boundaries, keeping each piece’s formatting, as a tracked change', () => {
    const out = writeRedlines(docx, [{ op: 'replace', find: 'sixty (60)', text: 'thirty (30)', justification: 'Shorter.' }], opts);
    expect(out.changes).toHaveLength(1);
    expect(out.changes[0]!.changeIds).toHaveLength(2);
    const revs = listRevisions(out.bytes);
    expect(revs.map((x) => [x.kind, x.text_preview, x.author])).toEqual([
      ['delete', 'sixty (60)', 'Assistant'],
      ['insert', 'thirty (30)', 'Assistant'],
    ]);
    expect(bodyOf(out.bytes)).toContain('<w:rPr><w:b/></w:rPr><w:delText xml:space="preserve">sixty</w:delText>');
    const ids = revs.map((x) => x.change_id);
    expect(documentParagraphs(applyDecisions(out.bytes, { accept: ids, reject: [] }))).toEqual(['The fee is thirty (30) days net.', 'Pay in sixty days.']);
    expect(documentParagraphs(applyDecisions(out.bytes, { accept: [], reject: ids }))).toEqual(['The fee is sixty (60) days net.', 'Pay in sixty days.']);
  });

  it('chooses the occurrence, inserts after and deletes', () => {
    const out = writeRedlines(
      docx,
      [
        { op: 'insert', find: 'sixty', occurrence: 2, text: ' (60)' },
        { op: 'delete', find: ' net' },
      ],
      opts,
    );
    const ids = listRevisions(out.bytes).map((x) => x.change_id);
    expect(out.changes.flatMap((c) => c.changeIds).sort()).toEqual([...ids].sort());
    expect(documentParagraphs(applyDecisions(out.bytes, { accept: ids, reject: [] }))).toEqual(['The fee is sixty (60) days.', 'Pay in sixty (60) days.']);
  });

  it('inserts before the found text when asked, with the formatting of its first run', () => {
    const out = writeRedlines(docx, [{ op: 'insert', position: 'before', find: 'sixty (60)', text: 'about ' }, { op: 'insert', position: 'before', find: 'Pay', text: 'Then: ' }], opts);
    const revs = listRevisions(out.bytes);
    expect(revs.map((x) => [x.kind, x.text_preview])).toEqual([['insert', 'about'], ['insert', 'Then:']]);
    const ids = revs.map((x) => x.change_id);
    expect(documentParagraphs(applyDecisions(out.bytes, { accept: ids, reject: [] }))).toEqual(['The fee is about sixty (60) days net.', 'Then: Pay in sixty days.']);
    expect(bodyOf(out.bytes)).toContain('<w:rPr><w:b/></w:rPr><w:t xml:space="preserve">about </w:t>');
    expect(documentParagraphs(applyDecisions(out.bytes, { accept: [], reject: ids }))).toEqual(['The fee is sixty (60) days net.', 'Pay in sixty days.']);
  });

  it('wraps proposed text in a content control that accept keeps and reject removes', () => {
    const out = writeRedlines(docx, [{ op: 'insert', find: 'Pay', text: ' promptly' }], { ...opts, proposed: true });
    const revs = listRevisions(out.bytes);
    expect(revs.map((x) => [x.kind, x.author])).toEqual([['proposed', 'Assistant']]);
    expect(revs[0]!.change_id).toBe(out.changes[0]!.changeIds[0]);
    expect(documentParagraphs(applyDecisions(out.bytes, { accept: [revs[0]!.change_id], reject: [] }))[1]).toBe('Pay promptly in sixty days.');
    expect(documentParagraphs(applyDecisions(out.bytes, { accept: [], reject: [revs[0]!.change_id] }))[1]).toBe('Pay in sixty days.');
  });

  it('throws EditNotFoundError naming the edit and changes nothing', () => {
    try {
      writeRedlines(docx, [{ op: 'delete', find: 'fee' }, { op: 'delete', find: 'ninety' }], opts);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(EditNotFoundError);
      expect((e as EditNotFoundError).editIndex).toBe(1);
      expect((e as EditNotFoundError).find).toBe('ninety');
    }
    expect(() => writeRedlines(docx, [{ op: 'delete', find: 'sixty', occurrence: 3 }], opts)).toThrow(EditNotFoundError);
  });

  it('gives new changes ids that do not collide with existing ones', () => {
    const first = writeRedlines(docx, [{ op: 'delete', find: 'fee' }], opts);
    const second = writeRedlines(first.bytes, [{ op: 'delete', find: 'Pay' }], opts);
    const ids = listRevisions(second.bytes).map((x) => x.change_id);
    expect(new Set(ids).size).toBe(2);
    expect(ids).toContain(first.changes[0]!.changeIds[0]);
  });

  it('on a document kept open, writes what a reopened document writes, after a render variant and a failed edit', () => {
    const kept = openDocx(docx);
    const edits = [{ op: 'replace' as const, find: 'sixty (60)', text: 'thirty (30)' }, { op: 'insert' as const, find: 'Pay', text: ' promptly' }];
    kept.renderVariant();
    expect(() => kept.writeRedlines([{ op: 'delete', find: 'nowhere' }], opts)).toThrow(EditNotFoundError);
    const keptChanges = kept.writeRedlines(edits, opts);
    const fresh = writeRedlines(docx, edits, opts);
    expect(keptChanges).toEqual(fresh.changes);
    expect(kept.toBytes()).toEqual(fresh.bytes);
    const ids = kept.changeIds();
    kept.apply({ accept: [ids[0]!], reject: [ids[1]!] });
    expect(kept.toBytes()).toEqual(applyDecisions(fresh.bytes, { accept: [ids[0]!], reject: [ids[1]!] }));
  });
});
