import { portableCodec, type DeflateLevel, type ZipCodec } from './codec';
import type { ZipEntry } from './read';

/**
 * Writes a zip. Entries the engine did not change are copied with their original compressed bytes
 * (no re-deflate, byte-identical); changed entries are deflated afresh. Order is preserved, so
 * [Content_Types].xml stays first as Office expects.
 */
export type OutEntry = { kind: 'copy'; entry: ZipEntry } | { kind: 'data'; name: string; data: Uint8Array; like?: ZipEntry };

export function writeZip(items: readonly OutEntry[], level: DeflateLevel = 6, codec: ZipCodec = portableCodec): Uint8Array {
  const enc = new TextEncoder();
  interface Rec { name: Uint8Array; method: number; crc: number; csize: number; size: number; time: number; date: number; flags: number; offset: number; body: Uint8Array }
  const recs: Rec[] = [];
  let offset = 0;
  for (const it of items) {
    let r: Rec;
    if (it.kind === 'copy') {
      const e = it.entry;
      // Bit 3 (sizes in a trailing data descriptor) is dropped: the local header below carries them.
      r = { name: enc.encode(e.name), method: e.method, crc: e.crc, csize: e.raw.length, size: e.size, time: e.dosTime, date: e.dosDate, flags: e.flags & 0x0800, offset, body: e.raw };
    } else {
      const body = codec.deflateRaw(it.data, level);
      r = {
        name: enc.encode(it.name), method: 8, crc: codec.crc32(it.data), csize: body.length, size: it.data.length,
        time: it.like?.dosTime ?? 0, date: it.like?.dosDate ?? 0x21, flags: 0x0800, offset, body,
      };
    }
    recs.push(r);
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
