import { repeatedLetters as letters, romanNumeral as roman } from '../../contract/number-text';

/**
 * How Word writes a list number in each w:numFmt (ECMA-376 17.18.59 ST_NumberFormat). Formats not
 * listed here (East Asian counting systems, enclosed digits) are written as decimal, as Word does
 * where the font lacks them.
 */
export function formatNumber(value: number, format: string): string {
  switch (format) {
    case 'none':
      return '';
    case 'decimalZero':
      return value >= 0 && value < 10 ? `0${value}` : String(value);
    case 'upperRoman':
      return roman(value);
    case 'lowerRoman':
      return roman(value).toLowerCase();
    case 'upperLetter':
      return letters(value);
    case 'lowerLetter':
      return letters(value).toLowerCase();
    case 'ordinal':
      return `${value}${ordinalSuffix(value)}`;
    case 'cardinalText':
      return capitalise(cardinal(value));
    case 'ordinalText':
      return capitalise(ordinalWords(value));
    case 'decimalEnclosedParen':
      return `(${value})`;
    default:
      return String(value);
  }
}

function ordinalSuffix(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return 'th';
  return ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
}

const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen',
  'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

function cardinal(n: number): string {
  if (n < 0 || n >= 1000) return String(n);
  if (n < 20) return ONES[n]!;
  if (n < 100) return TENS[Math.floor(n / 10)]! + (n % 10 ? `-${ONES[n % 10]}` : '');
  return `${ONES[Math.floor(n / 100)]} hundred${n % 100 ? ` ${cardinal(n % 100)}` : ''}`;
}

function ordinalWords(n: number): string {
  const words = cardinal(n);
  const irregular: Record<string, string> = { one: 'first', two: 'second', three: 'third', five: 'fifth', eight: 'eighth', nine: 'ninth', twelve: 'twelfth' };
  const m = /([a-z]+)$/.exec(words);
  if (!m) return words;
  const last = m[1]!;
  const ord = irregular[last] ?? (last.endsWith('y') ? `${last.slice(0, -1)}ieth` : `${last}th`);
  return words.slice(0, -last.length) + ord;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * Bullet characters as Word shows them: a bullet set in Symbol or Wingdings is stored as a
 * private-use code point (U+F0xx) that means something only in that font.
 */
const SYMBOL_BULLETS: Record<string, string> = {
  '\uF0B7': '•', '\uF0A7': '▪', '\uF0D8': '➢', '\uF0FC': '✓', '\uF076': '❖', '\uF0A8': '□', '\uF06F': '□', '\uF06E': '■', '\uF0E0': '→',
  '\uF02D': '-', '\uF0B0': '°', '\uF0A9': '©', '\uF02A': '∗', '\uF06C': '●', '\uF071': '❑',
};

/** Fonts whose characters mean their own glyphs, not Unicode (SYMBOL_BULLETS maps their bullets). */
export const SYMBOL_FONTS = /^(Symbol|Wingdings( [23])?)$/i;

/**
 * Text set in a symbol font as the Unicode characters Word shows, or null when one of its
 * characters has no mapping (then only the font can draw it). A symbol font's character is
 * stored either as U+F0xx or as its byte (U+00xx); both mean U+F0xx.
 */
export function symbolFontText(text: string, font: string): string | null {
  if (!SYMBOL_FONTS.test(font.trim())) return null;
  let out = '';
  for (const c of text) {
    const code = c.codePointAt(0)!;
    const mapped = SYMBOL_BULLETS[code < 0x100 ? String.fromCharCode(0xf000 + code) : c];
    if (mapped === undefined) return null;
    out += mapped;
  }
  return out;
}

export function bulletText(text: string): string {
  return [...text].map((c) => SYMBOL_BULLETS[c] ?? c).join('');
}
