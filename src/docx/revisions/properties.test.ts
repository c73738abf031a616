/**
 * Property tests on generated documents (fixture builder): random paragraphs mixing plain text,
 * insertions, deletions, formatting changes, inserted/deleted paragraph marks and property changes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentParagraphs } from '../../../test/conformance/doctext';
import { structuralProblems } from '../../../test/conformance/validity';
import { buildDocx, by, del, formatted, ins, p, para, type BlockSpec, type Inline } from '../fixture';
import { applyDecisions, ingestDocx, listRevisions, openDocx } from '../index';
import { DocxPackage } from '../package/package';
import { bodyOf } from '../../../test/support/docx-files';
import { serializeNode, serializeXml } from '../xml/serialize';
import { applyToScans } from './apply';
import { groupChanges } from './changes';
import { scanPart } from './sites';

const authors = [by('Ann', '2025-01-01T00:00:00Z'), by('Bob', '2025-01-02T00:00:00Z')];
const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'net 30', 'the Customer', 'shall');
const author = fc.constantFrom(...authors);

const inline = fc.oneof(
  word.map((w): Inline => `${w} `),
  fc.tuple(author, word).map(([a, w]): Inline => ins(a, `${w} `)),
  fc.tuple(author, word).map(([a, w]): Inline => del(a, `${w} `)),
  fc.tuple(author, word).map(([a, w]): Inline => formatted(a, `${w} `, { bold: true }, {})),
);

const paragraph = fc
  .tuple(fc.array(inline, { minLength: 1, maxLength: 5 }), fc.constantFrom<'ins' | 'del' | null>(null, null, 'ins', 'del'), author, fc.boolean())
  .map(([content, mark, a, reformatted]): BlockSpec => {
    if (!mark && !reformatted) return p(...content);
    return para(
      {
        ...(mark ? { mark: { change: mark, by: a } } : {}),
        ...(reformatted ? { align: 'center' as const, formatChange: { by: a, from: { align: 'left' as const } } } : {}),
      },
      ...content,
    );
  });

const documentArb = fc.array(paragraph, { minLength: 1, maxLength: 6 }).map((body) => ingestDocx(buildDocx({ body })).bytes);

/** A decision for every change: true accept, false reject; plus a split into two batches. */
const withDecisions = documentArb.chain((docx) => {
  const ids = listRevisions(docx).map((r) => r.change_id);
  return fc.tuple(fc.constant(docx), fc.constant(ids), fc.array(fc.boolean(), { minLength: ids.length, maxLength: ids.length }), fc.array(fc.boolean(), { minLength: ids.length, maxLength: ids.length }));
});

describe('revision properties', () => {
  it('deciding in two batches equals deciding in one', () => {
    fc.assert(
      fc.property(withDecisions, ([docx, ids, verdicts, firstBatch]) => {
        const all = { accept: ids.filter((_, i) => verdicts[i]), reject: ids.filter((_, i) => !verdicts[i]) };
        const once = applyDecisions(docx, all);
        const pick = (want: boolean) => ({
          accept: ids.filter((_, i) => verdicts[i] && firstBatch[i] === want),
          reject: ids.filter((_, i) => !verdicts[i] && firstBatch[i] === want),
        });
        const first = applyDecisions(docx, pick(true));
        // Changes removed together with an enclosing decided change no longer exist after batch one.
        const still = new Set(listRevisions(first).map((r) => r.change_id));
        const second = pick(false);
        const twice = applyDecisions(first, { accept: second.accept.filter((id) => still.has(id)), reject: second.reject.filter((id) => still.has(id)) });
        expect(bodyOf(twice)).toBe(bodyOf(once));
        expect(structuralProblems(once)).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it('after a decision, listing never shows a decided id and keeps the others', () => {
    fc.assert(
      fc.property(withDecisions, ([docx, ids, verdicts, chosen]) => {
        const decided = ids.filter((_, i) => chosen[i]);
        const out = applyDecisions(docx, { accept: decided.filter((_, i) => verdicts[i]), reject: decided.filter((_, i) => !verdicts[i]) });
        const left = listRevisions(out).map((r) => r.change_id);
        for (const id of decided) expect(left).not.toContain(id);
        for (const id of left) expect(ids).toContain(id);
      }),
      { numRuns: 150 },
    );
  });

  it('a document kept open across batches and render variants writes what a reopened one writes', () => {
    fc.assert(
      fc.property(withDecisions, fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 40, maxLength: 40 }), ([docx, ids, verdicts], batchOf) => {
        const kept = openDocx(docx);
        let bytes = docx;
        for (let batch = 0; batch < 3; batch++) {
          const still = new Set(kept.changeIds());
          const mine = ids.filter((id, i) => batchOf[i % batchOf.length] === batch && still.has(id));
          const decision = { accept: mine.filter((id) => verdicts[ids.indexOf(id)]), reject: mine.filter((id) => !verdicts[ids.indexOf(id)]) };
          const fresh = openDocx(bytes).apply(decision);
          kept.apply(decision);
          bytes = kept.toBytes();
          expect(bytes).toEqual(fresh.toBytes());
          expect(kept.revisions()).toEqual(fresh.revisions());
          // Both rescanned incrementally after their decision; a scan from scratch must agree.
          expect(kept.revisions()).toEqual(openDocx(bytes).revisions());
          expect(kept.renderVariant()).toEqual(fresh.renderVariant());
        }
      }),
      { numRuns: 100 },
    );
  });

  it('the writer, which copies untouched neighbours as one slice, writes what a full rebuild of the tree writes', () => {
    fc.assert(
      fc.property(withDecisions, ([docx, ids, verdicts, chosen]) => {
        // Two rounds, the second on our own output, whose shapes (an empty w:pPr before a run...) differ from the fixture's.
        const decide = (picked: string[]) => ({ accept: picked.filter((id) => verdicts[ids.indexOf(id)]), reject: picked.filter((id) => !verdicts[ids.indexOf(id)]) });
        const first = openDocx(docx).apply(decide(ids.filter((_, i) => chosen[i]))).toBytes();
        const pkg = DocxPackage.open(first);
        const scans = pkg.stories().map(({ part, doc }) => scanPart(part.name, part.role, doc));
        const changes = groupChanges(scans);
        applyToScans(scans, changes, decide(changes.map((c) => c.changeId)));
        const doc = pkg.xml('word/document.xml');
        const written = serializeXml(doc);
        // cloneDeep rebuilds every element and text from its parts: nothing is copied from the source
        // (a rebuilt empty element is written self-closing).
        const selfClosing = (xml: string) => xml.replace(/<([\w:]+)([^<>]*)><\/\1>/g, '<$1$2/>');
        expect(selfClosing(written.slice(written.indexOf('<w:document')))).toBe(selfClosing(serializeNode(doc.root.cloneDeep())));
      }),
      { numRuns: 150 },
    );
  });

  it('reject-all of a document whose only changes are insertions returns the original text', () => {
    const insOnly = fc.array(
      fc.array(fc.oneof(word.map((w) => ({ text: `${w} `, inserted: false })), word.map((w) => ({ text: `${w} `, inserted: true }))), { minLength: 1, maxLength: 5 }),
      { minLength: 1, maxLength: 5 },
    );
    fc.assert(
      fc.property(insOnly, author, (paras, a) => {
        const withIns = buildDocx({ body: paras.map((ps) => p(...ps.map((x) => (x.inserted ? ins(a, x.text) : x.text)))) });
        const original = buildDocx({ body: paras.map((ps) => p(...ps.filter((x) => !x.inserted).map((x) => x.text))) });
        const ids = listRevisions(withIns).map((r) => r.change_id);
        const rejected = applyDecisions(withIns, { accept: [], reject: ids });
        expect(documentParagraphs(rejected)).toEqual(documentParagraphs(original));
        expect(listRevisions(rejected)).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});
