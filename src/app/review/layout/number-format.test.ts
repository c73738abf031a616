import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fieldSwitchFormat, formatNumber } from './number-format';

function fromRoman(s: string): number {
  const v: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };
  let total = 0;
  for (let i = 0; i < s.length; i++) {
    const here = v[s[i]!]!;
    const next = v[s[i + 1] ?? ''] ?? 0;
    total += here < next ? -here : here;
  }
  return total;
}

describe('page and note number formats', () => {
  it('writes the formats Word writes', () => {
    expect([1, 4, 9, 14, 40, 90, 400, 1994].map((n) => formatNumber(n, 'upperRoman'))).toEqual(['I', 'IV', 'IX', 'XIV', 'XL', 'XC', 'CD', 'MCMXCIV']);
    expect(formatNumber(12, 'lowerRoman')).toBe('xii');
    expect([1, 26, 27, 28, 52, 53].map((n) => formatNumber(n, 'upperLetter'))).toEqual(['A', 'Z', 'AA', 'BB', 'ZZ', 'AAA']);
    expect(formatNumber(3, 'lowerLetter')).toBe('c');
    expect(formatNumber(7, 'numberInDash')).toBe('- 7 -');
    expect(formatNumber(7, 'decimal')).toBe('7');
    expect(formatNumber(7, undefined)).toBe('7');
    expect([1, 4, 5, 8].map((n) => formatNumber(n, 'chicago'))).toEqual(['*', '§', '**', '§§']);
  });

  it('roman numerals read back as the number, for every page number up to 3999', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 3999 }), (n) => fromRoman(formatNumber(n, 'upperRoman')) === n));
  });

  it('letters name each number once', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 1, max: 500 }), (a, b) => (a === b) === (formatNumber(a, 'upperLetter') === formatNumber(b, 'upperLetter'))),
    );
  });

  it("reads a field's format switch", () => {
    expect(fieldSwitchFormat('PAGE \\* roman')).toBe('lowerRoman');
    expect(fieldSwitchFormat(' PAGE  \\*  ROMAN \\* MERGEFORMAT')).toBe('upperRoman');
    expect(fieldSwitchFormat('NUMPAGES \\* Arabic')).toBe('decimal');
    expect(fieldSwitchFormat('PAGE \\* MERGEFORMAT')).toBeUndefined();
  });
});
