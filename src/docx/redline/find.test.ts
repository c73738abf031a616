import { describe, expect, it } from 'vitest';
import { documentParagraphs } from '../../../test/conformance/doctext';
import { minimalDocx, r, readPart } from '../../../test/support/docx-files';
import { EditNotFoundError } from '../errors';
import { buildDocx, footnote, p } from '../fixture';
import { applyDecisions, ingestDocx, listRevisions, openDocx, writeRedlines } from '../index';

/** Issue 11.5: a find matches across runs and paragraph boundaries, in every story. */
const opts = { author: 'Assistant', date: '2025-02-02T10:00:00Z' };
const acceptAll = (bytes: Uint8Array) => applyDecisions(bytes, { accept: listRevisions(bytes).map((x) => x.change_id), reject: [] });
/** A part's text with the markup stripped (after accept-all or reject-all nothing is deleted text). */
const textOf = (bytes: Uint8Array, part: string) => readPart(bytes, part).replace(/<[^>]+>/g, '');
const rejectAll = (bytes: Uint8Array) => applyDecisions(bytes, { accept: [], reject: listRevisions(bytes).map((x) => x.change_id) });

describe('redline find across paragraph boundaries', () => {
  const docx = minimalDocx(`<w:p>${r('The fee is ')}${r('sixty', '<w:b/>')}${r(' days net.')}</w:p><w:p>${r('Pay in ')}${r('full', '<w:i/>')}${r('.')}</w:p>`);

  it('deletes text over a paragraph boundary ("\\n"), deleting the mark between, so accepting joins the paragraphs', () => {
    const out = writeRedlines(docx, [{ op: 'delete', find: ' net.\nPay in' }], opts);
    const revisions = listRevisions(out.bytes);
    expect(revisions.map((x) => x.kind).sort()).toEqual(['delete', 'delete', 'paragraph_mark']);
    expect(out.changes[0]!.changeIds.sort()).toEqual(revisions.map((x) => x.change_id).sort());
    expect(documentParagraphs(acceptAll(out.bytes))).toEqual(['The fee is sixty days full.']);
    expect(documentParagraphs(rejectAll(out.bytes))).toEqual(['The fee is sixty days net.', 'Pay in full.']);
  });

  it('replaces over a boundary, the new text taking the last matched run’s formatting', () => {
    const out = writeRedlines(docx, [{ op: 'replace', find: 'sixty days net.\nPay in full', text: 'thirty days net, paid in full' }], opts);
    expect(documentParagraphs(acceptAll(out.bytes))).toEqual(['The fee is thirty days net, paid in full.']);
    expect(documentParagraphs(rejectAll(out.bytes))).toEqual(['The fee is sixty days net.', 'Pay in full.']);
    expect(readPart(out.bytes)).toContain('<w:rPr><w:i/></w:rPr><w:t xml:space="preserve">thirty days net, paid in full</w:t>');
  });

  it('inserts after a find that ends at a boundary', () => {
    const out = writeRedlines(docx, [{ op: 'insert', find: 'net.\nPay', text: ' now' }], opts);
    expect(documentParagraphs(acceptAll(out.bytes))).toEqual(['The fee is sixty days net.', 'Pay now in full.']);
  });

  it('does not match across a table boundary or between cells', () => {
    const cell = (t: string) => `<w:tc><w:p>${r(t)}</w:p></w:tc>`;
    const withTable = minimalDocx(`<w:p>${r('Before')}</w:p><w:tbl><w:tr>${cell('Left')}${cell('Right')}</w:tr></w:tbl><w:p>${r('After')}</w:p>`);
    expect(() => writeRedlines(withTable, [{ op: 'delete', find: 'Before\nLeft' }], opts)).toThrow(EditNotFoundError);
    expect(() => writeRedlines(withTable, [{ op: 'delete', find: 'Left\nRight' }], opts)).toThrow(EditNotFoundError);
    const inCell = writeRedlines(withTable, [{ op: 'replace', find: 'Right', text: 'Centre' }], opts);
    expect(documentParagraphs(acceptAll(inCell.bytes))).toEqual(['Before', 'Left', 'Centre', 'After']);
  });
});

describe('redline find in every story', () => {
  const docx = ingestDocx(
    buildDocx({
      body: [p('The Supplier shall deliver', footnote(p('Delivery terms: the Supplier pays carriage.')), ' on time.')],
      header: [p('Draft for the Supplier')],
      footer: [p('Confidential: Supplier copy')],
    }),
  ).bytes;

  it('counts occurrences in document order: body, headers, footers, notes', () => {
    // Each edit sees what the one before left: the replaced word is no longer found, so the next
    // occurrence 1 is the next story's.
    const third = writeRedlines(docx, [{ op: 'replace', find: 'Supplier', occurrence: 3, text: 'Vendor' }], opts);
    expect(textOf(acceptAll(third.bytes), 'word/footer1.xml')).toContain('Confidential: Vendor copy');
    expect(textOf(acceptAll(third.bytes), 'word/header1.xml')).toContain('Draft for the Supplier');
    const edits = [1, 2, 3, 4].map(() => ({ op: 'replace' as const, find: 'Supplier', text: 'Vendor' }));
    const out = writeRedlines(docx, edits, opts);
    const parts = openDocx(out.bytes).revisions();
    expect(parts).toHaveLength(8);
    const accepted = acceptAll(out.bytes);
    expect(textOf(accepted, 'word/document.xml')).toContain('Vendor');
    expect(textOf(accepted, 'word/header1.xml')).toContain('Draft for the Vendor');
    expect(textOf(accepted, 'word/footer1.xml')).toContain('Confidential: Vendor copy');
    expect(textOf(accepted, 'word/footnotes.xml')).toContain('the Vendor pays carriage');
    expect(textOf(rejectAll(out.bytes), 'word/footnotes.xml')).toContain('the Supplier pays carriage');
    expect(() => writeRedlines(docx, [{ op: 'delete', find: 'Supplier', occurrence: 5 }], opts)).toThrow(EditNotFoundError);
  });

  it('finds text only a header or a footnote holds', () => {
    const out = writeRedlines(docx, [{ op: 'delete', find: 'Draft for ' }, { op: 'insert', find: 'carriage', text: ' and insurance' }], opts);
    const accepted = acceptAll(out.bytes);
    expect(textOf(accepted, 'word/header1.xml')).not.toContain('Draft for');
    expect(textOf(accepted, 'word/footnotes.xml')).toContain('carriage and insurance');
  });
});
