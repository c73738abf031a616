import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base36, contentTag, contentTagJoined } from './tag';

/** The tag as it was first written (toString(36)): ids and versions kept by clients must not change. */
function contentTagAsFirstWritten(s: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

describe('contentTag', () => {
  it('writes every 53-bit integer in base 36 as toString(36) does', () => {
    fc.assert(fc.property(fc.maxSafeNat(), (n) => base36(n) === n.toString(36)), { numRuns: 20_000 });
    // The chunk and pair boundaries, where a digit is carried or a zero padded.
    const edges = [0, 1, 35, 36, 1295, 1296, 36 ** 3, 36 ** 4 - 1, 36 ** 6 - 1, 36 ** 6, 36 ** 6 + 1, 36 ** 7, 36 ** 10, Number.MAX_SAFE_INTEGER];
    for (const n of edges) expect(base36(n)).toBe(n.toString(36));
  });

  it('gives the tags it always gave', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => contentTag(s) === contentTagAsFirstWritten(s)), { numRuns: 5_000 });
    expect(contentTag('')).toBe(contentTagAsFirstWritten(''));
  });

  it('tags two strings joined by \\u0001 as it tags the joined string', () => {
    const text = fc.string({ unit: 'binary', maxLength: 120 });
    fc.assert(fc.property(text, text, (a, b) => contentTagJoined(a, b) === contentTagAsFirstWritten(`${a}\u0001${b}`)), { numRuns: 5_000 });
  });
});
