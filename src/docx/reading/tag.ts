/**
 * A short tag of a string (53 bits, base 36): block ids derived from content and block versions.
 * Not a security hash: a collision only makes two derived ids equal, which the reader numbers apart.
 */
export function contentTag(s: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  return finish(h1, h2);
}

/**
 * contentTag(`${first}\u0001${second}`) without building that string: the reader tags every
 * paragraph by its story and text, and the joined copy of each text was garbage at once.
 */
export function contentTagJoined(first: string, second: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < first.length; i++) {
    const c = first.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ 1, 2654435761);
  h2 = Math.imul(h2 ^ 1, 1597334677);
  for (let i = 0; i < second.length; i++) {
    const c = second.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  return finish(h1, h2);
}

function finish(h1: number, h2: number): string {
  const a = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  const b = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
  return base36(4294967296 * (2097151 & b) + (a >>> 0));
}

const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz';
/** Every two-digit base-36 string ("00" to "zz"), and the same without a leading zero. */
const PAIRS = Array.from({ length: 36 * 36 }, (_, i) => DIGITS[Math.floor(i / 36)]! + DIGITS[i % 36]!);
const PAIRS_UNPADDED = PAIRS.map((p) => (p[0] === '0' ? p[1]! : p));
/** 36^6: a 53-bit integer is at most two chunks of six base-36 digits. */
const CHUNK = 2176782336;

/**
 * `n.toString(36)` for an integer 0 <= n < 2^53, written out by two-digit pairs: V8's toString
 * with a radix takes its general floating-point path (about 3 µs a call, most of a paragraph id's
 * cost, and the reader tags every paragraph of every view it reads).
 */
export function base36(n: number): string {
  const low = n % CHUNK;
  const high = (n - low) / CHUNK;
  return high > 0 ? sixDigits(high, false) + sixDigits(low, true) : sixDigits(low, false);
}

/** Up to six base-36 digits of 0 <= n < 36^6, padded with zeros to six or not. */
function sixDigits(n: number, padded: boolean): string {
  const last = n % 1296;
  const rest = (n - last) / 1296;
  const middle = rest % 1296;
  const first = (rest - middle) / 1296;
  if (padded) return PAIRS[first]! + PAIRS[middle]! + PAIRS[last]!;
  if (first > 0) return PAIRS_UNPADDED[first]! + PAIRS[middle]! + PAIRS[last]!;
  if (middle > 0) return PAIRS_UNPADDED[middle]! + PAIRS[last]!;
  return PAIRS_UNPADDED[last]!;
}
