import { deflateSync, Inflate } from 'fflate';
import { crc32 } from './crc32';

/** Deflate levels the engine asks for: 6 for content that is stored, 1 for display copies sent once. */
export type DeflateLevel = 1 | 6;

/**
 * The compression primitives the zip layer needs, and the decoding of its XML entries' text. The
 * engine stays portable (browser, worker, Node) with the pure-TypeScript default; a host with a
 * native zlib can pass its own, which on a 7.5 MB document.xml deflates in 44 ms instead of 134
 * (bench/engine.ts prints both).
 *
 * Every implementation must produce a valid raw DEFLATE stream and the IEEE CRC-32; the bytes
 * may differ between codecs, the inflated content may not.
 */
export interface ZipCodec {
  /** Raw DEFLATE (no zlib or gzip header), as a zip entry stores it. */
  deflateRaw(data: Uint8Array, level: DeflateLevel): Uint8Array;
  /** The same, off the calling thread, where the host has threads to spare (optional). */
  deflateRawAsync?(data: Uint8Array, level: DeflateLevel): Promise<Uint8Array>;
  crc32(data: Uint8Array): number;
  /**
   * Inflates raw DEFLATE into exactly `size` bytes, stopping as soon as the output would pass
   * `cap` (a lying header cannot smuggle a bomb through). Answers null when the output passes
   * `cap`; throws when the data is damaged.
   */
  inflateRaw(data: Uint8Array, size: number, cap: number): { bytes: Uint8Array; filled: number } | null;
  /**
   * The text of UTF-8 bytes, or null when they are not valid UTF-8 (optional: without it, a fatal
   * TextDecoder). The string must be the one the TextDecoder gives, a byte-order mark kept.
   */
  decodeUtf8?(data: Uint8Array): string | null;
}

export const portableCodec: ZipCodec = {
  deflateRaw: (data, level) => deflateSync(data, { level }),
  crc32,
  inflateRaw(data, size, cap) {
    const out = new Uint8Array(size);
    let filled = 0;
    let over = false;
    const inflater = new Inflate((chunk) => {
      if (filled + chunk.length > cap) {
        over = true;
        return;
      }
      out.set(chunk, filled);
      filled += chunk.length;
    });
    const STEP = 64 * 1024; // at most ~64 MB of output per push, checked after each
    for (let i = 0; i < data.length && !over; i += STEP) inflater.push(data.subarray(i, i + STEP), i + STEP >= data.length);
    return over ? null : { bytes: out, filled };
  },
};
