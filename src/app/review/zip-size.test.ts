import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { uncompressedSize } from './zip-size';

describe('uncompressedSize', () => {
  it('reads a part size from the central directory, whatever the compression', () => {
    const text = 'x'.repeat(123_456);
    const zip = zipSync({ 'a.txt': strToU8('hello'), 'word/document.xml': [strToU8(text), { level: 9 }] });
    expect(zip.byteLength).toBeLessThan(2000);
    expect(uncompressedSize(zip, 'word/document.xml')).toBe(123_456);
    expect(uncompressedSize(zip, 'a.txt')).toBe(5);
    expect(uncompressedSize(zip, 'missing.xml')).toBeNull();
    expect(uncompressedSize(new Uint8Array(10), 'a.txt')).toBeNull();
  });

  it('reads past other entries, comments and stored (uncompressed) parts', () => {
    const zip = zipSync({ 'z.bin': [new Uint8Array(70_000), { level: 0 }], 'word/document.xml': strToU8('<w:document/>') }, { comment: 'a comment' });
    expect(uncompressedSize(zip, 'z.bin')).toBe(70_000);
    expect(uncompressedSize(zip, 'word/document.xml')).toBe(13);
  });
});
