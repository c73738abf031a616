/**
 * Numbers written as Word writes them in roman numerals and letters: the list labels the engine
 * counts (docx/numbering) and the page and note numbers the app lays out (app/review/layout)
 * must read the same, so both use these.
 */
const ROMAN: readonly [number, string][] = [
  [1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'], [90, 'XC'],
  [50, 'L'], [40, 'XL'], [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I'],
];

/** Upper-case roman numerals; 0 and negatives in decimal, and beyond 3999 Word repeats M. */
export function romanNumeral(value: number): string {
  if (value <= 0) return String(value);
  let n = value;
  let out = '';
  for (const [v, s] of ROMAN) {
    while (n >= v) {
      out += s;
      n -= v;
    }
  }
  return out;
}

/** Word's letters: A..Z, then AA..ZZ, AAA..: the letter repeated, not base 26 (0 and negatives in decimal). */
export function repeatedLetters(value: number): string {
  if (value <= 0) return String(value);
  const letter = String.fromCharCode(65 + ((value - 1) % 26));
  return letter.repeat(Math.floor((value - 1) / 26) + 1);
}

/**
 * Numbers as Word writes them for a page number (w:pgNumType/@w:fmt, a field's \* switch) or a
 * note reference (w:footnotePr/w:numFmt). Formats Word has that are not listed fall back to decimal.
 */
export type NumberFormat = 'decimal' | 'upperRoman' | 'lowerRoman' | 'upperLetter' | 'lowerLetter' | 'numberInDash' | 'decimalZero' | 'chicago';

/** Chicago Manual of Style note marks: *, †, ‡, §, then doubled, tripled. */
const CHICAGO = ['*', '†', '‡', '§'];

export function pageNumberText(n: number, format: string | undefined): string {
  // Roman numerals and letters have no zero or negatives: Word shows those as decimal.
  if (n < 1 && format !== 'decimalZero' && format !== 'numberInDash') return String(n);
  switch (format) {
    case 'upperRoman':
      return romanNumeral(n);
    case 'lowerRoman':
      return romanNumeral(n).toLowerCase();
    case 'upperLetter':
      return repeatedLetters(n);
    case 'lowerLetter':
      return repeatedLetters(n).toLowerCase();
    case 'numberInDash':
      return `- ${n} -`;
    case 'decimalZero':
      return n < 10 && n >= 0 ? `0${n}` : String(n);
    case 'chicago':
      return CHICAGO[(n - 1) % 4]!.repeat(Math.floor((n - 1) / 4) + 1);
    default:
      return String(n);
  }
}
