/** The hash's two lanes while a tag is made: module state so that absorbing a string allocates nothing (tags are made synchronously, one at a time). */
let h1 = 0;
let h2 = 0;

/**
 * A short tag of a string (53 bits, base 36): block ids derived from content and block versions.
 * Not a security hash: a collision only makes two derived ids equal, which the reader numbers apart.
 */
export function contentTag(s: string): string {
  h1 = 0xdeadbeef;
  h2 = 0x41c6ce57;
  absorb(s);
  return finish();
}

/**
 * contentTag(`${first}\u0001${second}`) without building that string: the reader tags every
 * paragraph by its story and text, and the joined copy of each text was garbage at once.
 */
export function contentTagJoined(first: string, second: string): string {
  h1 = 0xdeadbeef;
  h2 = 0x41c6ce57;
  absorb(first);
  absorb('\u0001');
  absorb(second);
  return finish();
}

/** Mixes the UTF-16 code units of `s` into the lanes; the loop runs on locals. */
function absorb(s: string): void {
  let a = h1;
  let b = h2;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 2654435761);
    b = Math.imul(b ^ c, 1597334677);
  }
  h1 = a;
  h2 = b;
}

/** The tag of the lanes as they stand. */
function finish(): string {
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
