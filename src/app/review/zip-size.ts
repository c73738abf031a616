/**
 * The uncompressed size of one part of a zip package, read from its central directory (no
 * inflating): how long a draft is, whatever it compresses to. Null when it cannot be read.
 */
export function uncompressedSize(zip: Uint8Array, path: string): number | null {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  // The end-of-central-directory record: within the last 64 KiB + 22 bytes (its comment may be that long).
  let end = -1;
  for (let i = zip.byteLength - 22; i >= Math.max(0, zip.byteLength - 65_557); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  const entries = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const decoder = new TextDecoder();
  for (let n = 0; n < entries && at + 46 <= zip.byteLength; n++) {
    if (view.getUint32(at, true) !== 0x02014b50) return null;
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    if (decoder.decode(zip.subarray(at + 46, at + 46 + nameLength)) === path) return size;
    at += 46 + nameLength + extraLength + commentLength;
  }
  return null;
}
