/**
 * The pages Word recorded (pages/recorded-pages.ts): each page's printed label from its section's
 * numbering, and each body block's page, as the report, the reading API and the track cite them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { minimalDocx, r } from '../../../test/support/docx-files';
import { openDocx } from '../index';

const BY = 'w:author="Ann" w:date="2025-01-01T00:00:00Z"';
const PAGE = '<w:r><w:lastRenderedPageBreak/></w:r>';
const para = (text: string, opts: { breakBefore?: boolean; sectPr?: string } = {}) =>
  `<w:p>${opts.sectPr ? `<w:pPr>${opts.sectPr}</w:pPr>` : ''}${opts.breakBefore ? PAGE : ''}${r(text)}</w:p>`;
const sect = (inner: string) => `<w:sectPr>${inner}<w:pgSz w:w="12240" w:h="15840"/></w:sectPr>`;

describe('pages as Word recorded them', () => {
  it('labels roman front matter and a section that restarts at 1, and gives each body block its page', () => {
    const doc = openDocx(minimalDocx(
      para('Cover') +
        para('Contents', { breakBefore: true, sectPr: sect('<w:type w:val="nextPage"/><w:pgNumType w:fmt="lowerRoman" w:start="1"/>') }) +
        `<w:p>${PAGE}${r('1. Definitions ')}<w:ins w:id="1" ${BY}>${r('added')}</w:ins></w:p>` +
        `<w:tbl><w:tblGrid><w:gridCol w:w="5000"/></w:tblGrid><w:tr><w:tc><w:p>${PAGE}${r('A cell on page 4')}</w:p></w:tc></w:tr></w:tbl>` +
        `<w:p/>` +
        sect('<w:pgNumType w:start="1"/>'),
    ));
    const pages = doc.recordedPages()!;
    expect(pages.labels).toEqual(['i', 'ii', '1', '2']);
    expect(doc.pages().get('c1')).toBe(3);
    const body = doc.blocks().filter((b) => b.story === 'body');
    expect(body.map((b) => [b.page, b.pageLabel])).toEqual([[1, 'i'], [2, 'ii'], [3, '1'], [4, '2'], [4, '2']]);
  });

  it('gives a section that must start on an odd page the number after Word\'s blank page', () => {
    const doc = openDocx(minimalDocx(
      para('Title', { sectPr: sect('') }) + para('Part one', { breakBefore: true }) + sect('<w:type w:val="oddPage"/>'),
    ));
    // Page 1 ends the first section; the second would be numbered 2, an even page: Word adds a blank page 2.
    expect(doc.recordedPages()!.labels).toEqual(['1', '3']);
  });

  it('does not count a text box\'s breaks or a fallback copy\'s as pages', () => {
    const box = `<w:r><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="wps"><w:drawing><w:txbxContent><w:p>${PAGE}${r('in a box')}</w:p></w:txbxContent></w:drawing></mc:Choice>` +
      `<mc:Fallback><w:pict><w:txbxContent><w:p>${PAGE}${r('in a box')}</w:p></w:txbxContent></w:pict></mc:Fallback></mc:AlternateContent></w:r>`;
    const doc = openDocx(minimalDocx(`<w:p>${box}${r('anchor')}</w:p>${para('next', { breakBefore: true })}<w:p><w:ins w:id="1" ${BY}>${r('x')}</w:ins></w:p>`));
    expect(doc.recordedPages()!.labels).toEqual(['1', '2']);
    expect(doc.pages().get('c1')).toBe(2);
  });

  it('says nothing for a file Word never laid out', () => {
    expect(openDocx(minimalDocx(para('one') + para('two'))).recordedPages()).toBeNull();
    expect(openDocx(minimalDocx(para('one'))).blocks().every((b) => b.page === undefined && b.pageLabel === undefined)).toBe(true);
  });

  it('property: without page numbering, labels count 1..n and each block is on 1 + the breaks before its text', () => {
    fc.assert(fc.property(fc.array(fc.record({ breaks: fc.integer({ min: 0, max: 2 }), empty: fc.boolean() }), { minLength: 1, maxLength: 30 }), (paras) => {
      const xml = paras.map((p, i) => `<w:p>${PAGE.repeat(p.breaks)}${p.empty ? '' : r(`P${i}`)}</w:p>`).join('');
      const doc = openDocx(minimalDocx(xml));
      const total = paras.reduce((n, p) => n + p.breaks, 0);
      const pages = doc.recordedPages();
      if (total === 0) return pages === null;
      expect(pages!.labels).toEqual(Array.from({ length: total + 1 }, (_, i) => String(i + 1)));
      let before = 0;
      const expected = paras.map((p) => (before += p.breaks) + 1);
      expect(doc.blocks().map((b) => b.page)).toEqual(expected);
      return true;
    }), { numRuns: 100 });
  });
});
