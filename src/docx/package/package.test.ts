import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { codeOf, del, dr, ins, minimalDocx, otherWriterDocx, r, readPart } from '../../../test/support/docx-files';
import { ingestDocx, openDocx } from '../index';
import { parseXml } from '../xml/parse';
import { contentTypeOf } from './package';

const BODY = `<w:p>${r('Kept ')}${ins(1, r('added'))}${del(2, dr(' gone'))}</w:p>`;

describe('packages other writers make (issue 11.4, 17.4)', () => {
  const variants: [string, Parameters<typeof otherWriterDocx>[1]][] = [
    ['main part typed by Default Extension="xml"', { defaultTyped: true }],
    ['absolute officeDocument target "/word/document.xml"', { absoluteTarget: true }],
    ['Override PartName in other letter case', { overrideCase: true }],
    ['parts starting with a UTF-8 byte-order mark', { bom: ['[Content_Types].xml', '_rels/.rels', 'word/document.xml', 'word/_rels/document.xml.rels'] }],
    ['all of these at once', { defaultTyped: true, absoluteTarget: true, bom: ['[Content_Types].xml', '_rels/.rels', 'word/document.xml'] }],
  ];
  for (const [what, opts] of variants) {
    it(`opens, lists and decides a package with ${what}`, () => {
      const bytes = ingestDocx(otherWriterDocx(BODY, opts)).bytes;
      const doc = openDocx(bytes);
      expect(doc.revisions().map((x) => x.kind)).toEqual(['insert', 'delete']);
      const out = doc.apply({ accept: doc.changeIds(), reject: [] }).toBytes();
      expect(openDocx(out).revisionCount).toBe(0);
      expect(readPart(out)).toContain('Kept ');
      expect(readPart(out)).toContain('added');
      expect(readPart(out)).not.toContain('gone');
    });
  }

  it('still refuses a package whose main part is another Office type, by Override or Default', () => {
    const excel = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml';
    const retype = (bytes: Uint8Array, from: RegExp, to: string) => {
      const files = unzipSync(bytes);
      files['[Content_Types].xml'] = strToU8(strFromU8(files['[Content_Types].xml']!).replace(from, to));
      return zipSync(files);
    };
    expect(codeOf(() => ingestDocx(retype(minimalDocx(BODY), /document\.main\+xml/, excel.replace(/^application\//, ''))))).toBe('not_docx');
    expect(codeOf(() => ingestDocx(retype(otherWriterDocx(BODY, { defaultTyped: true }), /document\.main\+xml/, 'xml')))).toBe('not_docx');
  });
});

describe('contentTypeOf', () => {
  const types = parseXml(
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="XML" ContentType="application/xml"/><Default Extension="rels" ContentType="rels"/>' +
      '<Override PartName="/WORD/document.xml" ContentType="main"/></Types>',
  );
  it('takes the Override by part name, ignoring letter case', () => {
    expect(contentTypeOf(types, 'word/document.xml')).toBe('main');
    expect(contentTypeOf(types, 'Word/Document.xml')).toBe('main');
  });
  it('else the Default by extension, ignoring letter case', () => {
    expect(contentTypeOf(types, 'word/styles.xml')).toBe('application/xml');
    expect(contentTypeOf(types, 'word/styles.Xml')).toBe('application/xml');
    expect(contentTypeOf(types, '_rels/.rels')).toBe('rels');
  });
  it('else nothing: no extension or no Default for it', () => {
    expect(contentTypeOf(types, 'word/document')).toBeNull();
    expect(contentTypeOf(types, 'word.d/media')).toBeNull();
    expect(contentTypeOf(types, 'word/image.png')).toBeNull();
  });
});
