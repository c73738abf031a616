import { repeatedLetters as letters, romanNumeral as roman } from '../../../contract/number-text';

/**
 * Numbers as Word writes them for a page number (w:pgNumType/@w:fmt, a field's \* switch) or a
 * note reference (w:footnotePr/w:numFmt). Formats Word has that are not listed fall back to decimal.
 */
export type NumberFormat = 'decimal' | 'upperRoman' | 'lowerRoman' | 'upperLetter' | 'lowerLetter' | 'numberInDash' | 'decimalZero' | 'chicago';

/** Chicago Manual of Style note marks: *, †, ‡, §, then doubled, tripled. */
const CHICAGO = ['*', '†', '‡', '§'];

export function formatNumber(n: number, format: string | undefined): string {
  // Roman numerals and letters have no zero or negatives: Word shows those as decimal.
  if (n < 1 && format !== 'decimalZero' && format !== 'numberInDash') return String(n);
  switch (format) {
    case 'upperRoman':
      return roman(n);
    case 'lowerRoman':
      return roman(n).toLowerCase();
    case 'upperLetter':
      return letters(n);
    case 'lowerLetter':
      return letters(n).toLowerCase();
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

/** The format a field's general switch asks for (`PAGE \* roman`), if any. */
export function fieldSwitchFormat(instruction: string): NumberFormat | undefined {
  const m = /\\\*\s*(\w+)/.exec(instruction);
  switch (m?.[1]) {
    case 'roman':
      return 'lowerRoman';
    case 'ROMAN':
      return 'upperRoman';
    case 'alphabetic':
      return 'lowerLetter';
    case 'ALPHABETIC':
      return 'upperLetter';
    case 'Arabic':
      return 'decimal';
    case 'ArabicDash':
      return 'numberInDash';
    default:
      return undefined;
  }
}
