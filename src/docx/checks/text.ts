/**
 * Reading a paragraph's text as the term checks need it: its words with their offsets, which of
 * them start a sentence, and which ranges are quoted.
 */

export interface Word {
  text: string;
  start: number;
  end: number;
  /** First word of a sentence (paragraph start, after . ! ? : or a list marker). */
  sentenceStart: boolean;
  /** Only a single space (or no-break space) separates it from the word before. */
  joined: boolean;
  /** The word before it, lower-cased (for determiners). */
  before: string | null;
}

const OPENING_MARKS = new Set(['"', '“', '”', '‘', '’', "'", '(', '[']);
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** Whether the code point at `at` is a letter or digit (ASCII by its code, the rest by its Unicode class). */
function isWordStart(text: string, at: number, code: number): boolean {
  if (code < 128) return code >= 97 && code <= 122 || code >= 65 && code <= 90 || code >= 48 && code <= 57;
  return LETTER_OR_DIGIT.test(String.fromCodePoint(text.codePointAt(at)!));
}

/** Inside a word, a letter or digit continues it, and so do ' ’ & - (trimmed from its end: see wordsOf). */
function continuesWord(text: string, at: number, code: number): boolean {
  return code === 39 || code === 0x2019 || code === 38 || code === 45 || isWordStart(text, at, code);
}

/** Code units the code point at `at` takes: 2 for a surrogate pair, as a /u pattern reads it. */
function width(text: string, at: number, code: number): number {
  if (code < 0xd800 || code > 0xdbff) return 1;
  const next = text.charCodeAt(at + 1);
  return next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
}

/** Whether the text before `at` ends a sentence: . ! ? : ; a tab or line break, or a list marker "(a)", ignoring spaces and opening marks. */
export function endsSentence(text: string, at: number): boolean {
  let k = at - 1;
  while (k >= 0 && (text[k] === ' ' || text[k] === '\u00a0' || OPENING_MARKS.has(text[k]!))) k--;
  if (k < 0) return true;
  const c = text[k]!;
  if (c === '.' || c === '!' || c === '?' || c === ':' || c === ';' || c === '\t' || c === '\n') return true;
  if (c === ')') {
    const open = text.lastIndexOf('(', k);
    return open >= 0 && k - open <= 5 && /^\([a-z0-9ivx]{1,4}\)$/.test(text.slice(open, k + 1));
  }
  return false;
}

const MANUAL_NUMBER_WORD = /^\d+$|^[ivxlc]+$|^[a-z]$/i;
const MANUAL_NUMBER_GAP = /^[.)]?\s+$|^\.\d/;

/** Word positions are scanned into this buffer, then copied out at their count (grown as needed). */
let scratch = new Int32Array(256);

const JOINED = 1;
const SENTENCE_KNOWN = 2;
const SENTENCE_START = 4;

/**
 * A paragraph's words: a letter or digit and the letters, digits, apostrophes, ampersands and
 * hyphens after it, without the apostrophes, ampersands and hyphens that end it ("Suppliers'" is
 * "Suppliers"). Scanned by character code rather than with a pattern, and kept as offsets: every
 * paragraph of both views is read, most words are lower case and the term checks skip them on
 * their first letter, so a word's text, the word before it and whether it starts a sentence are
 * read only when asked (a string and an object per word were most of the checks' garbage).
 * wordsOf gives the same words as objects.
 */
export class WordList {
  readonly length: number;
  /** Start and end of each word, in pairs. */
  private readonly bounds: Int32Array;
  /** JOINED, and SENTENCE_START once SENTENCE_KNOWN. */
  private readonly flags: Uint8Array;

  constructor(readonly source: string) {
    const text = source;
    const n = text.length;
    let count = 0;
    let at = 0;
    while (at < n) {
      const code = text.charCodeAt(at);
      if (!isWordStart(text, at, code)) {
        at += width(text, at, code);
        continue;
      }
      const start = at;
      // The match runs on over letters, digits and ' ’ & -; its end, trimmed of those marks, is the word's.
      let end = start;
      let k = start;
      while (k < n) {
        const c = text.charCodeAt(k);
        if (!continuesWord(text, k, c)) break;
        k += width(text, k, c);
        if (c !== 39 && c !== 0x2019 && c !== 38 && c !== 45) end = k;
      }
      at = k;
      if (2 * count + 2 > scratch.length) {
        const grown = new Int32Array(scratch.length * 2);
        grown.set(scratch);
        scratch = grown;
      }
      scratch[2 * count] = start;
      scratch[2 * count + 1] = end;
      count++;
    }
    this.length = count;
    this.bounds = scratch.slice(0, 2 * count);
    this.flags = new Uint8Array(count);
    for (let i = 1; i < count; i++) {
      const gapStart = this.bounds[2 * i - 1]!;
      const start = this.bounds[2 * i]!;
      if (start - gapStart === 1 && (text.charCodeAt(gapStart) === 32 || text.charCodeAt(gapStart) === 0xa0)) this.flags[i] = JOINED;
    }
  }

  start(i: number): number {
    return this.bounds[2 * i]!;
  }

  end(i: number): number {
    return this.bounds[2 * i + 1]!;
  }

  text(i: number): string {
    return this.source.slice(this.bounds[2 * i], this.bounds[2 * i + 1]);
  }

  /** Only a single space (or no-break space) separates word i from the word before. */
  joined(i: number): boolean {
    return (this.flags[i]! & JOINED) !== 0;
  }

  /** The word before word i, lower-cased, or null for the first. */
  before(i: number): string | null {
    return i > 0 ? this.text(i - 1).toLowerCase() : null;
  }

  /** Word i starts a sentence (paragraph start, after . ! ? : or a list marker, or after a manual number that does). */
  sentenceStart(i: number): boolean {
    const f = this.flags[i]!;
    if (f & SENTENCE_KNOWN) return (f & SENTENCE_START) !== 0;
    // A manual number ("7.3", "(b)") at the paragraph's start is not the sentence: the word after it starts one when
    // the number does. Read back over such numbers without recursion ("a a a …" would be deep), then forward.
    const waiting: number[] = [];
    for (let k = i; ;) {
      const known = this.flags[k]!;
      if (known & SENTENCE_KNOWN) break;
      const start = this.start(k);
      if (endsSentence(this.source, start)) this.flags[k] = known | SENTENCE_KNOWN | SENTENCE_START;
      else if (k === 0 || !MANUAL_NUMBER_WORD.test(this.text(k - 1)) || !MANUAL_NUMBER_GAP.test(this.source.slice(this.end(k - 1), start))) this.flags[k] = known | SENTENCE_KNOWN;
      else {
        waiting.push(k);
        k--;
        continue;
      }
      break;
    }
    for (let w = waiting.length - 1; w >= 0; w--) {
      const k = waiting[w]!;
      this.flags[k] = this.flags[k]! | SENTENCE_KNOWN | (this.flags[k - 1]! & SENTENCE_START);
    }
    return (this.flags[i]! & SENTENCE_START) !== 0;
  }

  /** isCapitalised of word i, read on its first letter. */
  capitalised(i: number): boolean {
    const code = this.source.charCodeAt(this.bounds[2 * i]!);
    if (code < 128) return code >= 65 && code <= 90;
    return isCapitalised(this.text(i));
  }

  /** isAllCaps of word i, read on its letters in place. */
  allCaps(i: number): boolean {
    const start = this.bounds[2 * i]!;
    const end = this.bounds[2 * i + 1]!;
    if (end - start < 2) return false;
    let capital = false;
    for (let k = start; k < end; k++) {
      const c = this.source.charCodeAt(k);
      if (c >= 128) return isAllCaps(this.text(i));
      if (c >= 97 && c <= 122) return false;
      if (c >= 65 && c <= 90) capital = true;
    }
    return capital;
  }

  /** Word i opens with a number (/^\p{N}/u). */
  startsWithNumber(i: number): boolean {
    const code = this.source.charCodeAt(this.bounds[2 * i]!);
    if (code < 128) return code >= 48 && code <= 57;
    return /^\p{N}/u.test(this.text(i));
  }

  /** Word i as an object. */
  word(i: number): Word {
    return { text: this.text(i), start: this.start(i), end: this.end(i), sentenceStart: this.sentenceStart(i), joined: this.joined(i), before: this.before(i) };
  }
}

/** A paragraph's words as objects (see WordList). */
export function wordsOf(text: string): Word[] {
  const list = new WordList(text);
  const out: Word[] = [];
  for (let i = 0; i < list.length; i++) out.push(list.word(i));
  return out;
}

/** A first letter in capitals (ASCII by its code: most words are). */
export function isCapitalised(w: string): boolean {
  const code = w.charCodeAt(0);
  if (code < 128) return code >= 65 && code <= 90;
  const first = w[0]!;
  return first !== first.toLowerCase() && first === first.toUpperCase();
}

/** All capitals (two letters or more): an acronym or a shouted heading, not a phrase's word. */
export function isAllCaps(w: string): boolean {
  if (w.length < 2) return false;
  // ASCII: no small letter and a capital one (what the case conversions below say, without their copies).
  let capital = false;
  for (let k = 0; k < w.length; k++) {
    const c = w.charCodeAt(k);
    if (c >= 128) return w === w.toUpperCase() && w !== w.toLowerCase();
    if (c >= 97 && c <= 122) return false;
    if (c >= 65 && c <= 90) capital = true;
  }
  return capital;
}

const OPEN_QUOTES = '"“‘\'';
const ANY_QUOTE = /["“‘']/;
const CLOSE_OF: Record<string, string> = { '"': '"', '“': '”', '‘': '’', "'": "'" };

export interface Quoted {
  /** The quote's content range (without the marks). */
  start: number;
  end: number;
  text: string;
}

/**
 * Quoted spans of a paragraph: straight or curly double quotes, and single quotes that open at
 * a word's start (not an apostrophe) and close before a non-letter.
 */
export function quotedSpans(text: string): Quoted[] {
  const out: Quoted[] = [];
  if (!ANY_QUOTE.test(text)) return out;
  for (let i = 0; i < text.length; i++) {
    const open = text[i]!;
    if (!OPEN_QUOTES.includes(open)) continue;
    if ((open === "'" || open === '‘' || open === '"') && i > 0 && /[\p{L}\p{N}]/u.test(text[i - 1]!)) continue;
    const close = CLOSE_OF[open]!;
    let j = i + 1;
    for (; j < text.length; j++) {
      const c = text[j]!;
      if (c === close || (open === '"' && c === '”') || (open === '“' && c === '"')) {
        if ((close === "'" || close === '’') && j + 1 < text.length && /[\p{L}]/u.test(text[j + 1]!)) continue;
        break;
      }
      if (c === '\n') break;
    }
    if (j >= text.length || text[j] === '\n') continue;
    if (j - i - 1 > 0 && j - i - 1 <= 400) out.push({ start: i + 1, end: j, text: text.slice(i + 1, j) });
    i = j;
  }
  return out;
}

/**
 * A paragraph that is a heading: the reading model says so, or it is short, has no sentence
 * punctuation at its end and every significant word is capitalised ("Limitation of Liability").
 */
export function looksLikeHeading(text: string, heading: number | undefined): boolean {
  if (heading !== undefined) return true;
  const t = text.trim();
  if (!t || t.length > 90 || /[.;,:]$/.test(t) && !/^[A-Z0-9 .]+$/.test(t)) return false;
  const words = t.split(/\s+/).filter((w) => /\p{L}/u.test(w));
  if (words.length === 0 || words.length > 10) return false;
  return words.every((w) => isCapitalised(w.replace(/^[^\p{L}]+/u, '')) || MINOR_WORDS.has(w.toLowerCase()));
}

/** Words a title leaves in lower case. */
export const MINOR_WORDS = new Set(['of', 'and', 'or', 'the', 'to', 'for', 'in', 'on', 'a', 'an', 'by', 'with', 'at', 'as', 'its', 'from', 'under', 'upon']);

/** Where a paragraph's text begins after a run-in heading ("Confidentiality. The Supplier shall…"): 0 when there is none. */
export function runInHeadingEnd(text: string): number {
  const m = /^\s*(?:[\d.()a-z]{1,8}\s+)?((?:[\p{Lu}][\p{L}'’-]*)(?:\s+(?:[\p{Lu}][\p{L}'’-]*|of|and|or|the|to|for|in|on))*)[.:]\s+/u.exec(text);
  if (!m || m[1]!.split(/\s+/).length > 7) return 0;
  return m[0].length;
}
