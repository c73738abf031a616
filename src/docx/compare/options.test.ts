/**
 * Word's compare options (issue 34 item 4), each a property on generated pairs: an edit of only
 * the kind an option leaves out gives no difference with the option and a difference without
 * it, and accepting every change of the redline still gives the newer version's text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contractText, checkContract, decideAll } from '../../../test/support/compare-contract';
import { r, readPart } from '../../../test/support/docx-files';
import { storiesDocx, textBoxRun } from '../../../test/support/story-docx';
import { compareDocx, openDocx, type CompareOptions } from '../index';

const DATE = '2025-06-01T00:00:00Z';

/** A generated document: body paragraphs (words), a header, a footnote and a text box. */
interface Doc {
  paras: string[][];
  header: string[];
  note: string[];
  box: string[];
  /** A word of the body shown bold: [paragraph, word]. */
  bold?: [number, number];
  /** Spaces of the body written otherwise: [paragraph, gap before word] -> what stands there. */
  gaps?: Map<string, string>;
}

const word = fc.stringMatching(/^[a-z]{2,9}$/);
const words = (min: number, max: number) => fc.array(word, { minLength: min, maxLength: max });
const docs = fc.record({ paras: fc.array(words(3, 9), { minLength: 1, maxLength: 4 }), header: words(2, 6), note: words(2, 6), box: words(2, 6) });

const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function paragraphXml(doc: Doc, k: number): string {
  const runs: string[] = [];
  doc.paras[k]!.forEach((w, i) => {
    if (i > 0) {
      const gap = doc.gaps?.get(`${k}:${i}`) ?? ' ';
      runs.push(gap === '\t' ? '<w:r><w:tab/></w:r>' : r(gap));
    }
    runs.push(doc.bold?.[0] === k && doc.bold[1] === i ? r(esc(w), '<w:b/>') : r(esc(w)));
  });
  return `<w:p>${runs.join('')}</w:p>`;
}

function build(doc: Doc): Uint8Array {
  const body = doc.paras.map((_, k) => paragraphXml(doc, k)).join('') + `<w:p>${r('Box: ')}${textBoxRun(`<w:p>${r(esc(doc.box.join(' ')))}</w:p>`)}</w:p>`;
  return storiesDocx(doc.header.join(' '), doc.note.join(' '), body);
}

/** Another word than `w`, of the same shape. */
const other = (w: string) => (w === 'zz' ? 'yy' : w.split('').reverse().join('') === w ? `${w}x` : w.split('').reverse().join(''));

/** The option's property: `edit` changes only what `options` leaves out. */
function leftOut(options: CompareOptions, edit: (doc: Doc, pick: number, pick2: number) => Doc): void {
  fc.assert(
    fc.property(docs, fc.nat(), fc.nat(), (doc, pick, pick2) => {
      const older = build(doc);
      const newer = build(edit(doc, pick, pick2));
      const without = compareDocx(older, newer, { date: DATE });
      expect(without.differences.length).toBeGreaterThan(0);
      const withOption = compareDocx(older, newer, { date: DATE, ...options });
      expect(withOption.differences).toEqual([]);
      expect(contractText(decideAll(withOption.bytes, 'accept'))).toEqual(contractText(newer));
    }),
    { numRuns: 25, seed: 34 },
  );
}

const at = <T>(xs: readonly T[], n: number): [number, T] => [n % xs.length, xs[n % xs.length]!];

describe('compare options: what each leaves out (generated pairs)', () => {
  it('ignoreCase: a word written with a capital', () => {
    leftOut({ ignoreCase: true }, (doc, pick, pick2) => {
      const [k, para] = at(doc.paras, pick);
      const [i, w] = at(para, pick2);
      return { ...doc, paras: doc.paras.map((ws, j) => (j === k ? ws.map((x, q) => (q === i ? w.toUpperCase() : x)) : ws)) };
    });
  });

  it('ignoreWhitespace: a space written as two, as a tab or as a non-breaking space', () => {
    leftOut({ ignoreWhitespace: true }, (doc, pick, pick2) => {
      const [k, para] = at(doc.paras, pick);
      const gap = 1 + (pick2 % (para.length - 1));
      return { ...doc, gaps: new Map([[`${k}:${gap}`, ['  ', '\t', '\u00a0'][pick2 % 3]!]]) };
    });
  });

  it('ignoreFormatting: a word made bold', () => {
    leftOut({ ignoreFormatting: true }, (doc, pick, pick2) => {
      const [k, para] = at(doc.paras, pick);
      return { ...doc, bold: [k, pick2 % para.length] };
    });
  });

  it('stories.headersFooters: a word of the header', () => {
    leftOut({ stories: { headersFooters: false } }, (doc, pick) => {
      const [i, w] = at(doc.header, pick);
      return { ...doc, header: doc.header.map((x, q) => (q === i ? other(w) : x)) };
    });
  });

  it('stories.notes: a word of the footnote', () => {
    leftOut({ stories: { notes: false } }, (doc, pick) => {
      const [i, w] = at(doc.note, pick);
      return { ...doc, note: doc.note.map((x, q) => (q === i ? other(w) : x)) };
    });
  });

  it('stories.textBoxes: a word of the text box', () => {
    leftOut({ stories: { textBoxes: false } }, (doc, pick) => {
      const [i, w] = at(doc.box, pick);
      return { ...doc, box: doc.box.map((x, q) => (q === i ? other(w) : x)) };
    });
  });
});

describe('compare options: granularity and moves (generated pairs)', () => {
  it('granularity character: a changed letter is a deleted and an inserted letter; by word, the whole word', () => {
    fc.assert(
      fc.property(docs, fc.nat(), fc.nat(), fc.nat(), (doc, pick, pick2, pick3) => {
        const [k, para] = at(doc.paras, pick);
        const [i, w] = at(para, pick2);
        const c = pick3 % w.length;
        const letter = w[c] === 'q' ? 'w' : 'q';
        const changed = w.slice(0, c) + letter + w.slice(c + 1);
        const older = build(doc);
        const newer = build({ ...doc, paras: doc.paras.map((ws, j) => (j === k ? ws.map((x, q) => (q === i ? changed : x)) : ws)) });
        const byChar = compareDocx(older, newer, { date: DATE, granularity: 'character' });
        expect(checkContract(older, newer, byChar.bytes).problems).toEqual([]);
        expect(byChar.differences.map((d) => [d.kind, d.textPreview])).toEqual([['delete', w[c]], ['insert', letter]]);
        const byWord = compareDocx(older, newer, { date: DATE });
        expect(byWord.differences.map((d) => [d.kind, d.textPreview])).toEqual([['delete', w], ['insert', changed]]);
      }),
      { numRuns: 25, seed: 34 },
    );
  });

  it('moves false: a moved paragraph is a deletion and an insertion, not a move; by default it is a move', () => {
    const sentence = words(5, 9).map((ws) => `${ws.join(' ')}.`);
    fc.assert(
      fc.property(fc.uniqueArray(sentence, { minLength: 3, maxLength: 5 }), (paras) => {
        const doc = (ps: string[]) => storiesDocx('Header', 'Note', ps.map((t) => `<w:p>${r(t)}</w:p>`).join(''));
        const older = doc(paras);
        const newer = doc([...paras.slice(1), paras[0]!]);
        const moved = compareDocx(older, newer, { date: DATE });
        expect(checkContract(older, newer, moved.bytes).problems).toEqual([]);
        expect(readPart(moved.bytes)).toContain('<w:moveFrom ');
        const apart = compareDocx(older, newer, { date: DATE, moves: false });
        expect(checkContract(older, newer, apart.bytes).problems).toEqual([]);
        expect(readPart(apart.bytes)).not.toMatch(/<w:move(From|To)[ >]/);
        expect(openDocx(apart.bytes).revisions().map((x) => x.kind).sort()).toEqual(['delete', 'insert', 'paragraph_mark', 'paragraph_mark']);
      }),
      { numRuns: 20, seed: 34 },
    );
  });
});
