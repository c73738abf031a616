import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { DocxError } from '../errors';
import { buildDemoContract } from '../fixture';
import { ingestDocx, openDocx } from '../index';
import { codeOf, lieAboutSizes, minimalDocx } from '../../../test/support/docx-files';
import { readZip } from './read';
import { writeZip } from './write';

describe('safe zip reading', () => {
  it('refuses what is not a .docx with not_docx', () => {
    expect(codeOf(() => ingestDocx(strToU8('%PDF-1.7\n...')))).toBe('not_docx');
    expect(codeOf(() => ingestDocx(zipSync({ 'hello.txt': strToU8('hi') })))).toBe('not_docx');
    const ole = new Uint8Array(512);
    ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    expect(codeOf(() => ingestDocx(ole))).toBe('not_docx');
    expect(codeOf(() => ingestDocx(new Uint8Array(0)))).toBe('not_docx');
  });

  it('refuses a zip bomb by its declared size before inflating', () => {
    const bomb = zipSync({ 'word/document.xml': new Uint8Array(5 * 1024 * 1024) });
    expect(codeOf(() => readZip(bomb, { maxUncompressedBytes: 1024 * 1024 }))).toBe('too_large');
    expect(codeOf(() => readZip(bomb, { maxCompressionRatio: 100 }))).toBe('too_large');
  });

  it('refuses an entry that inflates beyond its (lying) declared size', () => {
    const docx = minimalDocx(`<w:p><w:r><w:t>${'x'.repeat(200_000)}</w:t></w:r></w:p>`);
    const lying = lieAboutSizes(docx, 1000);
    expect(codeOf(() => ingestDocx(lying))).toBe('too_large');
  });

  it('refuses too many entries and too many bytes', () => {
    const files: Record<string, Uint8Array> = {};
    for (let i = 0; i < 30; i++) files[`f${i}`] = strToU8('x');
    expect(codeOf(() => readZip(zipSync(files), { maxEntries: 20 }))).toBe('too_large');
    expect(codeOf(() => readZip(zipSync(files), { maxCompressedBytes: 100 }))).toBe('too_large');
  });

  it('refuses DTDs and broken XML with invalid_docx', () => {
    expect(codeOf(() => ingestDocx(minimalDocx('<w:p><w:r><w:t>&xxe;</w:t></w:r></w:p>')))).toBe('invalid_docx');
    expect(codeOf(() => ingestDocx(minimalDocx('<w:p><w:r></w:p>')))).toBe('invalid_docx');
    const dtd = zipSync({
      ...Object.fromEntries(Object.entries(readZip(minimalDocx('<w:p/>')).entries).map(([, e]) => [e.name, readZip(minimalDocx('<w:p/>')).read(e.name)!])),
      'word/document.xml': strToU8('<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body/></w:document>'),
    });
    const err = (() => {
      try {
        ingestDocx(dtd);
      } catch (e) {
        return e as DocxError;
      }
      return null;
    })();
    expect(err?.code).toBe('invalid_docx');
    expect(err?.message).toMatch(/DTD/);
  });

  it('writes unchanged entries byte-identically and round-trips content', () => {
    const docx = minimalDocx('<w:p><w:r><w:t>hello</w:t></w:r></w:p>');
    const zip = readZip(docx);
    const again = writeZip(zip.entries.map((entry) => ({ kind: 'copy' as const, entry })));
    const reread = readZip(again);
    for (const e of zip.entries) expect(reread.read(e.name)).toEqual(zip.read(e.name));
    const changed = writeZip([{ kind: 'data', name: 'a.txt', data: strToU8('abc') }]);
    expect(new TextDecoder().decode(readZip(changed).read('a.txt')!)).toBe('abc');
  });

  it('writes the same bytes asynchronously when the codec has no thread to offer', async () => {
    const docx = ingestDocx(buildDemoContract()).bytes;
    const ids = openDocx(docx).changeIds();
    const decision = { accept: ids.slice(0, 3), reject: ids.slice(3, 6) };
    expect(await openDocx(docx).apply(decision).toBytesAsync()).toEqual(openDocx(docx).apply(decision).toBytes());
    expect(await openDocx(docx).toBytesAsync()).toBe(docx);
  });
});
