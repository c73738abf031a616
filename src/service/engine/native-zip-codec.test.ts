import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { unzipSync, zipSync } from 'fflate';
import { ingestDocx, openDocx, portableCodec } from '../../docx';
import { buildDemoContract } from '../../docx/fixture';
import { codeOf, lieAboutSizes, minimalDocx, partsOf } from '../../../test/support/docx-files';
import { readZip } from '../../docx/zip/read';
import { nativeZipCodec } from './native-zip-codec';


/** Start and size of an entry's compressed data, from its local header. */
function dataOf(docx: Uint8Array, name: string): { start: number; size: number } {
  const e = readZip(docx).entry(name)!;
  return { start: e.raw.byteOffset - docx.byteOffset, size: e.raw.length };
}

describe('the native zip codec', () => {
  it('computes the same CRC-32 as the portable codec', () => {
    const data = new Uint8Array(100_003);
    for (let i = 0; i < data.length; i++) data[i] = (i * 2654435761) >>> 11;
    for (const n of [0, 1, 7, 8, 9, 64, 100_003]) expect(nativeZipCodec.crc32(data.subarray(0, n))).toBe(portableCodec.crc32(data.subarray(0, n)));
  });

  it('writes the same parts as the portable codec, and each reads what the other wrote', () => {
    const source = buildDemoContract();
    const ids = openDocx(source).changeIds();
    const decision = { accept: ids.filter((_, i) => i % 2 === 0), reject: ids.filter((_, i) => i % 2 === 1) };
    const native = openDocx(source, { codec: nativeZipCodec }).apply(decision).toBytes();
    const portable = openDocx(source).apply(decision).toBytes();
    expect(partsOf(native)).toEqual(partsOf(portable));
    expect(openDocx(native).revisionCount).toBe(0);
    expect(openDocx(portable, { codec: nativeZipCodec }).revisionCount).toBe(0);
  });

  it('writes off the main thread exactly what it writes on it, while the document is rendered meanwhile', async () => {
    const source = buildDemoContract();
    const ids = openDocx(source).changeIds();
    const decision = { accept: ids.slice(0, 5), reject: ids.slice(5, 9) };
    const sync = openDocx(source, { codec: nativeZipCodec }).apply(decision);
    const kept = openDocx(source, { codec: nativeZipCodec }).apply(decision);
    const writing = kept.toBytesAsync();
    const variant = kept.renderVariantAsync();
    expect(Buffer.from(await writing).equals(sync.toBytes())).toBe(true);
    expect(partsOf(await variant)).toEqual(partsOf(sync.renderVariant()));
    // Nothing changed since: the written bytes are answered again, without a write.
    expect(kept.toBytes()).toBe(await writing);
  });

  it('refuses an entry that inflates beyond its lying declared size, or beyond the total limit', () => {
    const docx = minimalDocx(`<w:p><w:r><w:t>${'x'.repeat(200_000)}</w:t></w:r></w:p>`);
    const lying = lieAboutSizes(docx, 1000);
    expect(codeOf(() => ingestDocx(lying, { codec: nativeZipCodec }))).toBe('too_large');
    expect(codeOf(() => ingestDocx(docx, { codec: nativeZipCodec, limits: { maxUncompressedBytes: 100_000 } }))).toBe('too_large');
    expect(codeOf(() => ingestDocx(docx, { codec: nativeZipCodec }))).toBeNull();
  });

  it('decodes UTF-8 exactly as the fatal TextDecoder does, and refuses what it refuses', () => {
    const reference = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    const expected = (bytes: Uint8Array) => {
      try {
        return reference.decode(bytes);
      } catch {
        return null;
      }
    };
    // Text as parts hold it (mostly ASCII, some curly quotes, dashes, CJK, emoji, a BOM), and any bytes at all.
    const text = fc.array(fc.oneof(
      { weight: 6, arbitrary: fc.string({ unit: 'binary-ascii' }) },
      { weight: 2, arbitrary: fc.constantFrom('\u2019', '\u2013', '\u00e9', '\ufeff', '\u4e2d\u6587', '\u{1f600}') },
      { weight: 1, arbitrary: fc.string({ unit: 'binary' }) },
    ), { maxLength: 30 }).map((pieces) => new TextEncoder().encode(pieces.join('')));
    const damaged = fc.tuple(text, fc.nat(), fc.integer({ min: 0x80, max: 0xff })).map(([bytes, at, byte]) => {
      const copy = bytes.slice();
      if (copy.length) copy[at % copy.length] = byte;
      return copy;
    });
    fc.assert(fc.property(fc.oneof(text, damaged, fc.uint8Array({ maxLength: 64 })), (bytes) => {
      expect(nativeZipCodec.decodeUtf8!(bytes)).toBe(expected(bytes));
    }), { numRuns: 200 });
  });

  it('answers a part that is not UTF-8 with invalid_docx, as the portable codec does', () => {
    const files = unzipSync(minimalDocx('<w:p><w:r><w:t>caf\u00e9 \u2019</w:t></w:r></w:p>'));
    const xml = files['word/document.xml']!;
    const at = xml.indexOf(0xc3); // the first byte of the é
    files['word/document.xml'] = Uint8Array.from([...xml.subarray(0, at), 0xff, ...xml.subarray(at + 1)]);
    const damaged = zipSync(files);
    expect(codeOf(() => openDocx(damaged, { codec: nativeZipCodec }))).toBe('invalid_docx');
    expect(codeOf(() => openDocx(damaged))).toBe('invalid_docx');
  });

  it('answers damaged compressed data with a DocxError, never a zlib error', () => {
    const docx = minimalDocx(`<w:p><w:r><w:t>${'lorem ipsum '.repeat(5_000)}</w:t></w:r></w:p>`);
    const { start, size } = dataOf(docx, 'word/document.xml');
    const damaged = docx.slice();
    damaged.fill(0xff, start + Math.floor(size / 3), start + Math.floor(size / 3) + 32);
    expect(['invalid_docx', 'too_large']).toContain(codeOf(() => openDocx(damaged, { codec: nativeZipCodec })));
  });
});
