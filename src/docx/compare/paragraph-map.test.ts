/**
 * The side-by-side paragraph mapping (issue 34.5), on generated pairs compared into a redline and
 * on drafts written with tracked changes by hand: every paragraph of the redline maps to an older
 * paragraph or is marked inserted, in order, and what each older paragraph reads is what the
 * redline paragraphs mapped to it leave when every change is rejected.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { del, ins, minimalDocx, r } from '../../../test/support/docx-files';
import { checkMapping } from '../../../test/support/paragraph-mapping';
import { compareDocx } from './compare';
import { sideBySideViews } from './paragraph-map';

const DATE = '2025-06-01T00:00:00Z';

const word = fc.stringMatching(/^[a-z]{2,8}$/);
const para = fc.array(word, { minLength: 1, maxLength: 7 });
const doc = fc.array(para, { minLength: 1, maxLength: 8 });

/** An edit of a document of paragraphs: the kinds a counterparty makes. */
const edit = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), p: para }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('split' as const), at: fc.nat(), w: fc.nat() }),
  fc.record({ kind: fc.constant('join' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('word' as const), at: fc.nat(), w: fc.nat(), to: word }),
  fc.record({ kind: fc.constant('move' as const), at: fc.nat(), to: fc.nat() }),
);
type Edit = typeof edit extends fc.Arbitrary<infer E> ? E : never;

function applyEdit(paras: string[][], e: Edit): string[][] {
  const out = paras.map((p) => [...p]);
  const k = e.at % out.length;
  switch (e.kind) {
    case 'insert': out.splice(e.at % (out.length + 1), 0, e.p); break;
    case 'delete': if (out.length > 1) out.splice(k, 1); break;
    case 'split': { const p = out[k]!; const w = 1 + (e.w % Math.max(1, p.length - 1)); if (p.length > 1) out.splice(k, 1, p.slice(0, w), p.slice(w)); break; }
    case 'join': if (k + 1 < out.length) out.splice(k, 2, [...out[k]!, ...out[k + 1]!]); break;
    case 'word': { const p = out[k]!; p[e.w % p.length] = e.to; break; }
    case 'move': { const [p] = out.splice(k, 1); out.splice(e.to % (out.length + 1), 0, p!); break; }
  }
  return out;
}

const build = (paras: string[][]) => minimalDocx(paras.map((p) => `<w:p>${r(p.join(' '))}</w:p>`).join(''));

describe('side by side: which older paragraph each redline paragraph comes from', () => {
  it('generated comparisons: inserted, deleted, split, joined, reworded and moved paragraphs', () => {
    fc.assert(
      fc.property(doc, fc.array(edit, { minLength: 1, maxLength: 4 }), (older, edits) => {
        const newer = edits.reduce(applyEdit, older);
        const { bytes, differences } = compareDocx(build(older), build(newer), { date: DATE });
        fc.pre(differences.length > 0);
        checkMapping(bytes);
      }),
      { numRuns: 60, seed: 345 },
    );
  });

  it('a draft with a paragraph inserted, one deleted, and one whose mark was inserted (a split)', () => {
    const mark = (id: number) => `<w:pPr><w:rPr><w:ins w:id="${id}" w:author="Ann" w:date="2025-01-01T00:00:00Z"/></w:rPr></w:pPr>`;
    const delMark = (id: number) => `<w:pPr><w:rPr><w:del w:id="${id}" w:author="Ann" w:date="2025-01-01T00:00:00Z"/></w:rPr></w:pPr>`;
    const draft = minimalDocx(
      `<w:p>${r('One stays.')}</w:p>` +
      `<w:p>${mark(1)}${ins(2, r('All of this is new.'))}</w:p>` +
      `<w:p>${mark(3)}${r('Split here ')}</w:p><w:p>${r('and here.')}</w:p>` +
      `<w:p>${delMark(4)}${del(5, '<w:r><w:delText>Gone.</w:delText></w:r>')}</w:p>` +
      `<w:p>${r('Last.')}</w:p>`,
    );
    const views = sideBySideViews(draft);
    expect(views.paragraphs).toEqual([0, null, 1, 1, 2, 3]);
    expect(views.olderParagraphs).toBe(4);
    checkMapping(draft);
  });
});
