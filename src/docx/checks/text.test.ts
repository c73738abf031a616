import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildBenchmarkContract, buildDemoContract } from '../fixture';
import { openDocx } from '../index';
import { corpusFileNames, lacksShared, readCorpusFile } from '../../../test/support/shared-corpus';
import { paragraphsOf } from './check';
import { endsSentence, isAllCaps, isCapitalised, WordList, wordsOf, type Word } from './text';

/**
 * The word reader is scanned by character code for speed (issue 35: the checks' first ask); the
 * pattern it replaced is kept here as the oracle, so the words, and therefore every term
 * finding, stay what they were: on arbitrary text and on every paragraph of the corpus's files
 * and the generated contracts, in the three views the checks read.
 */

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’&-]*/gu;
const TRAILING = /['’&-]+$/u;
function wordsByPattern(text: string): Word[] {
  const out: Word[] = [];
  let previous: Word | null = null;
  for (const m of text.matchAll(WORD)) {
    const w = TRAILING.test(m[0]) ? m[0].replace(TRAILING, '') : m[0];
    const start = m.index;
    const gapStart = previous ? previous.end : 0;
    const singleSpace = start - gapStart === 1 && (text[gapStart] === ' ' || text[gapStart] === '\u00a0');
    const word: Word = { text: w, start, end: start + w.length, sentenceStart: endsSentence(text, start), joined: previous !== null && singleSpace, before: previous ? previous.text.toLowerCase() : null };
    if (previous && previous.sentenceStart && /^\d+$|^[ivxlc]+$|^[a-z]$/i.test(previous.text) && /^[.)]?\s+$|^\.\d/.test(text.slice(gapStart, start))) word.sentenceStart = true;
    out.push(word);
    previous = word;
  }
  return out;
}

const capitalisedByCase = (w: string) => w[0]! !== w[0]!.toLowerCase() && w[0]! === w[0]!.toUpperCase();
const allCapsByCase = (w: string) => w.length >= 2 && w === w.toUpperCase() && w !== w.toLowerCase();

/** Contract-like text: letters of several scripts and cases, digits, the marks words hold and end on, quotes, spaces, an astral letter and a lone surrogate. */
const contractText = fc.array(fc.constantFrom(
  'a', 'B', 'z', 'É', 'é', 'ß', 'Ω', 'ж', '7', '0', '٣', ' ', ' ', '\u00a0', '\t', '\n', "'", '’', '&', '-', '.', ')', '(', '“', '”', ',', ';', ':', '𝐀', '\ud800', 'Supplier', 'of', 'the', '(a)', '7.3', 'i', 'IV',
), { maxLength: 60 }).map((parts) => parts.join(''));

function expectSameWords(texts: Iterable<string>): void {
  for (const text of texts) {
    const words = wordsOf(text);
    expect(words, text).toEqual(wordsByPattern(text));
    for (const w of words) {
      expect(isCapitalised(w.text), w.text).toBe(capitalisedByCase(w.text));
      expect(isAllCaps(w.text), w.text).toBe(allCapsByCase(w.text));
    }
  }
}

/** Every paragraph text of a draft as it stands, accepted and rejected. */
function viewTexts(bytes: Uint8Array): string[] {
  const doc = openDocx(bytes);
  const texts = paragraphsOf(doc.blocks()).map((p) => p.text);
  const ids = doc.changeIds();
  const copy = doc.copy();
  texts.push(...paragraphsOf(copy.apply({ accept: [], reject: copy.changeIds() }).blocks()).map((p) => p.text));
  texts.push(...paragraphsOf(doc.apply({ accept: ids, reject: [] }).blocks()).map((p) => p.text));
  return [...new Set(texts)];
}

describe('the word reader reads the words the pattern did', () => {
  it('on arbitrary text: words, offsets, sentence starts, joins, the word before; capitals as case conversion says', () => {
    fc.assert(fc.property(fc.oneof(contractText, fc.string({ unit: 'binary', maxLength: 40 })), (text) => expectSameWords([text])), { numRuns: 2000, seed: 35 });
    fc.assert(fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 6 }), (w) => {
      expect(isCapitalised(w)).toBe(capitalisedByCase(w));
      expect(isAllCaps(w)).toBe(allCapsByCase(w));
    }), { numRuns: 2000, seed: 35 });
  });

  it('read lazily (WordList, as the term checks walk it): each word\'s facts, asked in any order, are the pattern\'s', () => {
    fc.assert(fc.property(fc.oneof(contractText, fc.string({ unit: 'binary', maxLength: 40 })), fc.array(fc.nat(), { maxLength: 30 }), (text, asks) => {
      const expected = wordsByPattern(text);
      const list = new WordList(text);
      expect(list.length).toBe(expected.length);
      // Sentence starts are worked out on demand and remembered: ask them out of order first, then read every word.
      for (const k of asks) if (expected.length > 0) expect(list.sentenceStart(k % expected.length), text).toBe(expected[k % expected.length]!.sentenceStart);
      for (let i = expected.length - 1; i >= 0; i--) {
        const w = expected[i]!;
        expect(list.word(i), text).toEqual(w);
        expect(list.capitalised(i), w.text).toBe(capitalisedByCase(w.text));
        expect(list.allCaps(i), w.text).toBe(allCapsByCase(w.text));
        expect(list.startsWithNumber(i), w.text).toBe(/^\p{N}/u.test(w.text));
      }
    }), { numRuns: 2000, seed: 35 });
    // A long run of manual numbers ("a a a …") is read back without recursion.
    const numbers = `${'a '.repeat(50_000)}Supplier`;
    expect(new WordList(numbers).sentenceStart(50_000)).toBe(wordsByPattern(numbers)[50_000]!.sentenceStart);
  });

  it('on the generated contracts\' paragraphs in the three views', () => {
    expectSameWords(viewTexts(buildDemoContract()));
    expectSameWords(viewTexts(buildBenchmarkContract({ pages: 10, revisions: 300, seed: 3 })));
  });

  it.skipIf(lacksShared('the word reader on the corpus', 'files'))('on every corpus file\'s paragraphs in the three views', () => {
    for (const name of corpusFileNames()) {
      let texts: string[];
      try {
        texts = viewTexts(readCorpusFile(name));
      } catch {
        continue; // a file the engine refuses (the corpus holds a few on purpose)
      }
      expectSameWords(texts);
    }
  }, 300_000);
});
