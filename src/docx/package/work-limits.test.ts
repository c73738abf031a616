import fc from 'fast-check';
import { strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { commentsPart, minimalDocx, readPart } from '../../../test/support/docx-files';
import { buildBenchmarkContract, buildDemoContract } from '../fixture';
import { DocxError } from '../errors';
import { ingestDocx } from '../index';
import { parseXml } from '../xml/parse';
import { walk } from '../xml/tree';
import { countParagraphTags } from './work-limits';

function parsedParagraphs(xml: string): number {
  let n = 0;
  walk(parseXml(xml).root, (el) => { if (el.name === 'w:p') n++; });
  return n;
}

function refusal(f: () => unknown): DocxError | null {
  try {
    f();
    return null;
  } catch (error) {
    if (error instanceof DocxError) return error;
    throw error;
  }
}

describe('work limits (issue 21 item 3)', () => {
  it('counts exactly the paragraphs the parser finds, without parsing', () => {
    for (const docx of [buildDemoContract(), buildBenchmarkContract({ pages: 5, revisions: 100 })]) {
      const xml = readPart(docx);
      expect(countParagraphTags(strToU8(xml))).toBe(parsedParagraphs(xml));
    }
    const variants = fc.constantFrom('<w:p>', '<w:p/>', '<w:p w:rsidR="1">', '<w:p\n>', '<w:pPr/>', '<w:pStyle w:val="x"/>', '<w:proofErr/>', '<x:p/>', 'text');
    fc.assert(fc.property(fc.array(variants, { maxLength: 30 }), (pieces) => {
      const expected = pieces.filter((p) => /^<w:p[\s/>]/.test(p)).length;
      expect(countParagraphTags(strToU8(pieces.join('')))).toBe(expected);
    }));
  });

  it('refuses past the paragraph cap, naming it, and takes a document at the cap', () => {
    const body = '<w:p><w:r><w:t>one</w:t></w:r></w:p>'.repeat(10);
    expect(ingestDocx(minimalDocx(body), { work: { maxParagraphs: 10 } }).revisionCount).toBe(0);
    const refused = refusal(() => ingestDocx(minimalDocx(body), { work: { maxParagraphs: 9 } }));
    expect(refused?.code).toBe('too_large');
    expect(refused?.limit).toBe('paragraphs');
    expect(refused?.message).toContain('10 paragraphs; the limit is 9');
  });

  it('counts the size and paragraphs of every story part together, comments included', () => {
    const comments = commentsPart(Object.fromEntries(Array.from({ length: 200 }, (_, i) => [String(i), `comment ${i}`])));
    const docx = minimalDocx('<w:p><w:r><w:t>body</w:t></w:r></w:p>', { 'word/comments.xml': comments });
    const total = readPart(docx).length + comments.length;
    expect(ingestDocx(docx, { work: { maxStoryBytes: total } }).revisionCount).toBe(0);
    expect(refusal(() => ingestDocx(docx, { work: { maxStoryBytes: total - 1 } }))?.limit).toBe('story_bytes');
    // Without the comments, the same cap takes the body alone.
    expect(refusal(() => ingestDocx(minimalDocx('<w:p><w:r><w:t>body</w:t></w:r></w:p>'), { work: { maxStoryBytes: total - 1 } }))).toBeNull();
    // One paragraph in the body, 200 in the comments.
    expect(refusal(() => ingestDocx(docx, { work: { maxParagraphs: 200 } }))?.limit).toBe('paragraphs');
    expect(refusal(() => ingestDocx(docx, { work: { maxParagraphs: 201 } }))).toBeNull();
  });
});
