import { DocxError } from '../errors';
import { portableCodec, type ZipCodec } from './codec';
import { DEFAULT_LIMITS, type ReadLimits } from './limits';

/**
 * A zip reader that checks before it trusts: it reads the central directory itself, refuses the
 * archive when declared sizes, entry count or compression ratio exceed the limits, and enforces
 * the declared size again while inflating (a lying header cannot smuggle a bomb through).
 * Entries are inflated only when asked for; the rest keep their compressed bytes for the writer.
 */
export interface ZipEntry {
  name: string;
  method: number;
  crc: number;
  flags: number;
  dosTime: number;
  dosDate: number;
  compressedSize: number;
  size: number;
  /** The compressed data as stored in the archive. */
  raw: Uint8Array;
}

const EOCD = 0x06054b50;
const CEN = 0x02014b50;
const LOC = 0x04034b50;
const SMALL_ENTRY = 1024 * 1024;

export class ZipArchive {
  private inflated = new Map<string, Uint8Array>();
  private inflatedTotal = 0;

  constructor(
    readonly entries: ZipEntry[],
    private readonly limits: Required<ReadLimits>,
    readonly codec: ZipCodec,
  ) {}

  has(name: string): boolean {
    return this.entries.some((e) => e.name === name);
  }

  entry(name: string): ZipEntry | undefined {
    return this.entries.find((e) => e.name === name);
  }

  /** The uncompressed content of an entry, inflated once under the size limits. */
  read(name: string): Uint8Array | null {
    const cached = this.inflated.get(name);
    if (cached) return cached;
    const e = this.entry(name);
    if (!e) return null;
    const data = inflateEntry(e, this.limits.maxUncompressedBytes - this.inflatedTotal, this.codec);
    this.inflatedTotal += data.length;
    this.inflated.set(name, data);
    return data;
  }
}

export function readZip(bytes: Uint8Array, partial?: Partial<ReadLimits>, codec: ZipCodec = portableCodec): ZipArchive {
  const limits = { ...DEFAULT_LIMITS, ...stripUndefined(partial) };
  if (bytes.length > limits.maxCompressedBytes) {
    throw new DocxError('too_large', `The file is larger than the ${mb(limits.maxCompressedBytes)} limit.`);
  }
  if (bytes.length >= 8 && bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) {
    throw new DocxError('not_docx', 'The file is an OLE compound document (an encrypted or legacy .doc file), not a .docx.');
  }
  if (bytes.length < 22 || bytes[0] !== 0x50 || bytes[1] !== 0x4b) {
    throw new DocxError('not_docx', 'The file is not a .docx (it is not a zip package).');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65535); i--) {
    if (view.getUint32(i, true) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new DocxError('not_docx', 'The file is not a .docx (no zip directory found).');
  const count = view.getUint16(eocd + 10, true);
  const cdOffset = view.getUint32(eocd + 16, true);
  if (count > limits.maxEntries) {
    throw new DocxError('too_large', `The package has ${count} entries; the limit is ${limits.maxEntries}.`);
  }
  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  const decoder = new TextDecoder();
  let p = cdOffset;
  let declared = 0;
  for (let n = 0; n < count; n++) {
    if (p + 46 > bytes.length || view.getUint32(p, true) !== CEN) throw corrupt();
    const flags = view.getUint16(p + 8, true);
    const method = view.getUint16(p + 10, true);
    const dosTime = view.getUint16(p + 12, true);
    const dosDate = view.getUint16(p + 14, true);
    const crc = view.getUint32(p + 16, true);
    let compressedSize = view.getUint32(p + 20, true);
    let size = view.getUint32(p + 24, true);
    const nameLen = view.getUint16(p + 28, true);
    const extraLen = view.getUint16(p + 30, true);
    const commentLen = view.getUint16(p + 32, true);
    let local = view.getUint32(p + 42, true);
    const name = decoder.decode(bytes.subarray(p + 46, p + 46 + nameLen));
    if (size === 0xffffffff || compressedSize === 0xffffffff || local === 0xffffffff) {
      // Zip64: the real values follow, in this order, in extra field 0x0001.
      let x = p + 46 + nameLen;
      const xEnd = x + extraLen;
      while (x + 4 <= xEnd) {
        const id = view.getUint16(x, true);
        const len = view.getUint16(x + 2, true);
        if (id === 1) {
          let q = x + 4;
          const big = () => {
            const v = Number(view.getBigUint64(q, true));
            q += 8;
            return v;
          };
          if (size === 0xffffffff) size = big();
          if (compressedSize === 0xffffffff) compressedSize = big();
          if (local === 0xffffffff) local = big();
        }
        x += 4 + len;
      }
    }
    p += 46 + nameLen + extraLen + commentLen;
    if (flags & 1) throw new DocxError('not_docx', 'The package is encrypted; an encrypted .docx cannot be read.');
    if (method !== 0 && method !== 8) throw new DocxError('invalid_docx', `Entry ${name} uses an unsupported compression method.`);
    if (names.has(name)) throw new DocxError('invalid_docx', `The package holds entry ${name} twice.`);
    names.add(name);
    declared += size;
    if (declared > limits.maxUncompressedBytes) {
      throw new DocxError('too_large', `The package would expand beyond the ${mb(limits.maxUncompressedBytes)} limit.`);
    }
    if (size > SMALL_ENTRY && size > compressedSize * limits.maxCompressionRatio) {
      throw new DocxError('too_large', `Entry ${name} is compressed suspiciously well (a zip bomb?); it was refused.`);
    }
    if (local + 30 > bytes.length || view.getUint32(local, true) !== LOC) throw corrupt();
    const dataStart = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (dataStart + compressedSize > bytes.length) throw corrupt();
    entries.push({ name, method, crc, flags, dosTime, dosDate, compressedSize, size, raw: bytes.subarray(dataStart, dataStart + compressedSize) });
  }
  return new ZipArchive(entries, limits, codec);
}

function inflateEntry(e: ZipEntry, budget: number, codec: ZipCodec): Uint8Array {
  if (e.method === 0) {
    if (e.raw.length !== e.size) throw corrupt();
    return e.raw;
  }
  let result: { bytes: Uint8Array; filled: number } | null;
  try {
    result = codec.inflateRaw(e.raw, e.size, Math.min(e.size, budget));
  } catch {
    throw new DocxError('invalid_docx', `Entry ${e.name} is damaged (its compressed data cannot be read).`);
  }
  if (!result) {
    throw new DocxError('too_large', `Entry ${e.name} expands beyond its declared size or the size limit; it was refused.`);
  }
  if (result.filled !== e.size) throw new DocxError('invalid_docx', `Entry ${e.name} is damaged (it is shorter than declared).`);
  return result.bytes;
}

function corrupt(): DocxError {
  return new DocxError('not_docx', 'The file is not a readable zip package.');
}

function mb(n: number): string {
  return `${Math.round(n / (1024 * 1024))} MB`;
}

function stripUndefined<T extends object>(o: T | undefined): Partial<T> {
  const out: Partial<T> = {};
  if (o) for (const [k, v] of Object.entries(o)) if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}
