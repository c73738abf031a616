import { portableCodec, type DeflateLevel, type ZipCodec } from './codec';
import type { ZipEntry } from './read';

/**
 * Writes a zip. Entries the engine did not change are copied with their original compressed bytes
 * (no re-deflate, byte-identical); changed entries are deflated afresh. Order is preserved, so
 * [Content_Types].xml stays first as Office expects.
 */
export type OutEntry = { kind: 'copy'; entry: ZipEntry } | { kind: 'data'; name: string; data: Uint8Array; like?: ZipEntry };

interface Rec { name: Uint8Array; method: number; crc: number; csize: number; size: number; time: number; date: number; flags: number; offset: number; body: Uint8Array }

const utf8 = new TextEncoder();

export function writeZip(items: readonly OutEntry[], level: DeflateLevel = 6, codec: ZipCodec = portableCodec): Uint8Array {
  return assemble(items.map((it) => (it.kind === 'copy' ? copied(it.entry) : deflated(it, codec.deflateRaw(it.data, level), codec))));
}

/**
 * `writeZip` with the deflating done off the calling thread when the codec can (Node's zlib runs
 * it on the libuv pool), so the caller can do other work meanwhile; otherwise as writeZip.
 */
export async function writeZipAsync(items: readonly OutEntry[], level: DeflateLevel = 6, codec: ZipCodec = portableCodec): Promise<Uint8Array> {
  const deflateAsync = codec.deflateRawAsync;
  if (!deflateAsync) return writeZip(items, level, codec);
  const recs = await Promise.all(items.map(async (it) => (it.kind === 'copy' ? copied(it.entry) : deflated(it, await deflateAsync(it.data, level), codec))));
  return assemble(recs);
}

function copied(e: ZipEntry): Rec {
  // Bit 3 (sizes in a trailing data descriptor) is dropped: the local header below carries them.
  return { name: utf8.encode(e.name), method: e.method, crc: e.crc, csize: e.raw.length, size: e.size, time: e.dosTime, date: e.dosDate, flags: e.flags & 0x0800, offset: 0, body: e.raw };
}

function deflated(it: Extract<OutEntry, { kind: 'data' }>, body: Uint8Array, codec: ZipCodec): Rec {
  return {
    name: utf8.encode(it.name), method: 8, crc: codec.crc32(it.data), csize: body.length, size: it.data.length,
    time: it.like?.dosTime ?? 0, date: it.like?.dosDate ?? 0x21, flags: 0x0800, offset: 0, body,
  };
}

function assemble(recs: Rec[]): Uint8Array {
  let offset = 0;
  for (const r of recs) {
    r.offset = offset;
    offset += 30 + r.name.length + r.body.length;
  }
  let cdSize = 0;
  for (const r of recs) cdSize += 46 + r.name.length;
  const out = new Uint8Array(offset + cdSize + 22);
  const v = new DataView(out.buffer);
  let p = 0;
  for (const r of recs) {
    v.setUint32(p, 0x04034b50, true);
    v.setUint16(p + 4, 20, true);
    v.setUint16(p + 6, r.flags, true);
    v.setUint16(p + 8, r.method, true);
    v.setUint16(p + 10, r.time, true);
    v.setUint16(p + 12, r.date, true);
    v.setUint32(p + 14, r.crc, true);
    v.setUint32(p + 18, r.csize, true);
    v.setUint32(p + 22, r.size, true);
    v.setUint16(p + 26, r.name.length, true);
    v.setUint16(p + 28, 0, true);
    out.set(r.name, p + 30);
    out.set(r.body, p + 30 + r.name.length);
    p += 30 + r.name.length + r.body.length;
  }
  const cdStart = p;
  for (const r of recs) {
    v.setUint32(p, 0x02014b50, true);
    v.setUint16(p + 4, 20, true);
    v.setUint16(p + 6, 20, true);
    v.setUint16(p + 8, r.flags, true);
    v.setUint16(p + 10, r.method, true);
    v.setUint16(p + 12, r.time, true);
    v.setUint16(p + 14, r.date, true);
    v.setUint32(p + 16, r.crc, true);
    v.setUint32(p + 20, r.csize, true);
    v.setUint32(p + 24, r.size, true);
    v.setUint16(p + 28, r.name.length, true);
    v.setUint32(p + 42, r.offset, true);
    out.set(r.name, p + 46);
    p += 46 + r.name.length;
  }
  v.setUint32(p, 0x06054b50, true);
  v.setUint16(p + 8, recs.length, true);
  v.setUint16(p + 10, recs.length, true);
  v.setUint32(p + 12, cdSize, true);
  v.setUint32(p + 16, cdStart, true);
  return out;
}
