import { describe, expect, it } from 'vitest';
import { changeBookmarkName, MARK_PREFIX, moveOtherHalfBookmarkName } from '../../contract/bookmark';
import { buildDemoContract } from '../fixture';
import { parseXml } from '../xml/parse';
import { describeParagraphChange, describeRunChange } from './formatting';
import { buildRenderVariant, ingestDocx, listRevisions, openDocx } from '../index';
import { bodyOf, minimalDocx, r, readPart } from '../../../test/support/docx-files';

describe('render variant', () => {
  it('puts a bookmark named from the change id at every change of the demo contract', () => {
    const docx = ingestDocx(buildDemoContract()).bytes;
    const revs = listRevisions(docx);
    const variant = buildRenderVariant(docx);
    const xml = ['word/document.xml', 'word/footnotes.xml', 'word/header1.xml', 'word/footer1.xml']
      .map((n) => {
        try {
          return readPart(variant, n);
        } catch {
          return '';
        }
      })
      .join('');
    for (const rev of revs) expect(xml, rev.change_id).toContain(`w:name="${changeBookmarkName(rev.change_id)}"`);
    // Every bookmark sits inside a paragraph, where docx-preview renders it.
    const body = readPart(variant, 'word/document.xml');
    expect(body).not.toMatch(/<\/w:p><w:bookmarkStart w:id="\d+" w:name="_rl_/);
  });

  it('turns moves into plain deletions and insertions and marks a paragraph mark change', () => {
    const D = 'w:author="A" w:date="2025-01-01T00:00:00Z"';
    const docx = minimalDocx(
      `<w:p><w:moveFromRangeStart w:id="10" w:name="m" ${D}/><w:moveFrom w:id="1" ${D}>${r('x')}</w:moveFrom><w:moveFromRangeEnd w:id="10"/></w:p>` +
        `<w:p><w:pPr><w:rPr><w:del w:id="3" ${D}/></w:rPr></w:pPr><w:moveToRangeStart w:id="11" w:name="m" ${D}/><w:moveTo w:id="2" ${D}>${r('x')}</w:moveTo><w:moveToRangeEnd w:id="11"/></w:p><w:p/>`,
    );
    const body = bodyOf(buildRenderVariant(docx));
    expect(body).not.toMatch(/<w:move(From|To) /);
    expect(body).toContain(`<w:del w:id="1" ${D}><w:r><w:delText xml:space="preserve">x</w:delText></w:r></w:del>`);
    expect(body).toContain(`<w:ins w:id="2" ${D}>`);
    expect(body).toContain('¶');
    // One change, two places: a bookmark at the source (where it is listed) and one at the destination.
    const [move] = listRevisions(docx).filter((rev) => rev.text_preview.startsWith('Moved'));
    expect(move).toBeDefined();
    const source = body.indexOf(`w:name="${changeBookmarkName(move!.change_id)}"`);
    const destination = body.indexOf(`w:name="${moveOtherHalfBookmarkName(move!.change_id)}"`);
    expect(source).toBeGreaterThan(-1);
    expect(destination).toBeGreaterThan(source);
    expect(body.indexOf('<w:ins w:id="2"')).toBeGreaterThan(destination);
  });

  it('leaves the opened document untouched, so it can go on taking decisions', () => {
    const docx = ingestDocx(buildDemoContract()).bytes;
    const doc = openDocx(docx);
    const before = doc.revisions();
    const variant = doc.renderVariant();
    expect(doc.toBytes()).toBe(docx);
    expect(doc.revisions()).toEqual(before);
    expect(doc.renderVariant()).toEqual(variant);

    const first = before[0]!.change_id;
    doc.apply({ accept: [first], reject: [] });
    expect(doc.revisions().map((r) => r.change_id)).not.toContain(first);
    expect(readPart(doc.renderVariant(), 'word/document.xml')).not.toContain(`w:name="${changeBookmarkName(first)}"`);
  });

  it('names what each mark is: formatting described on its run and paragraph, both halves of a move, a proposal from start to end', () => {
    const D = 'w:author="A" w:date="2025-01-01T00:00:00Z"';
    const docx = minimalDocx(
      `<w:p><w:pPr><w:ind w:left="720"/><w:pPrChange w:id="5" ${D}><w:pPr/></w:pPrChange></w:pPr>` +
        `<w:r><w:rPr><w:b/><w:rPrChange w:id="4" ${D}><w:rPr><w:i/></w:rPr></w:rPrChange></w:rPr><w:t>bold now</w:t></w:r></w:p>` +
        `<w:p><w:moveFrom w:id="1" ${D}>${r('x')}</w:moveFrom></w:p><w:p><w:moveTo w:id="2" ${D}>${r('x')}</w:moveTo></w:p>`,
    );
    const body = bodyOf(buildRenderVariant(docx));
    const names = [...body.matchAll(/w:name="([^"]+)"/g)].map((m) => decodeURIComponent(m[1]!));
    expect(names.find((n) => n.startsWith(MARK_PREFIX.run))).toMatch(/Formatted: Bold, not Italic$/);
    expect(names.find((n) => n.startsWith(MARK_PREFIX.paragraph))).toMatch(/Formatted: Indent: Left 0.5 in$/);
    // The run's mark stands right before the run it describes.
    expect(body).toMatch(/w:name="_rlfmt_[^"]+"\/><w:bookmarkEnd w:id="\d+"\/><w:r><w:rPr><w:b\/>/);
    expect(names.filter((n) => n.startsWith(MARK_PREFIX.moveFrom))).toHaveLength(1);
    expect(names.filter((n) => n.startsWith(MARK_PREFIX.moveTo))).toHaveLength(1);
  });

  it('describes formatting changes in Word\'s words', () => {
    const el = (xml: string) => parseXml(xml).root;
    expect(describeRunChange(el('<w:rPr><w:b/><w:sz w:val="24"/></w:rPr>'), el('<w:rPr><w:i/></w:rPr>'))).toBe('Formatted: Bold, not Italic, Font size: 12 pt');
    expect(describeRunChange(el('<w:rPr><w:b w:val="0"/></w:rPr>'), el('<w:rPr><w:b/></w:rPr>'))).toBe('Formatted: not Bold');
    expect(describeParagraphChange(el('<w:pPr><w:jc w:val="both"/><w:spacing w:after="160"/></w:pPr>'), el('<w:pPr/>'))).toBe('Formatted: Justified, Space After: 8 pt');
    expect(describeRunChange(el('<w:rPr/>'), el('<w:rPr/>'))).toBe('Formatted');
  });
});
