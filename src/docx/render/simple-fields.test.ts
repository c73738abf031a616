import { describe, expect, it } from 'vitest';
import { buildDemoContract } from '../fixture';
import { buildRenderVariant, ingestDocx } from '../index';
import { parseXml } from '../xml/parse';
import { bodyOf, minimalDocx, r, readPart } from '../../../test/support/docx-files';
import { SchemaBatch, schemaCheckMissing } from '../../../test/conformance/schema-check';
import { lacksShared, sharedTool } from '../../../test/support/shared-corpus';

const VALIDATOR = sharedTool('ooxml-validate.py');
const missing = lacksShared('the demo render variant\'s schema check', '../tools/ooxml-validate.py') ? 'absent' : schemaCheckMissing(VALIDATOR);

describe('simple fields in the render variant', () => {
  it('writes a w:fldSimple as the complex field docx-preview reads, keeping its result and instruction', () => {
    const docx = minimalDocx(`<w:p>${r('Printed ')}<w:fldSimple w:instr=" DATE \\@ &quot;d MMMM yyyy&quot; "><w:r><w:t>1 May 2025</w:t></w:r></w:fldSimple>${r('.')}</w:p>`);
    const body = bodyOf(buildRenderVariant(docx));
    const order = ['fldCharType="begin"', '> DATE \\@ "d MMMM yyyy" <', 'fldCharType="separate"', '1 May 2025', 'fldCharType="end"', '>.<'];
    const at = order.map((s) => body.indexOf(s));
    expect(at.every((i) => i >= 0), body).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    // Still one well-formed paragraph.
    expect(() => parseXml(body)).not.toThrow();
  });

  it("gives the demo's footer PAGE and NUMPAGES fields to the layout", () => {
    const variant = buildRenderVariant(ingestDocx(buildDemoContract()).bytes);
    const footers = ['word/footer1.xml', 'word/footer2.xml', 'word/footer3.xml'].map((n) => {
      try {
        return readPart(variant, n);
      } catch {
        return '';
      }
    }).join('');
    expect(footers).toMatch(/<w:instrText xml:space="preserve"> PAGE <\/w:instrText>/);
    expect(footers).toMatch(/<w:instrText xml:space="preserve"> NUMPAGES <\/w:instrText>/);
  });

  it.skipIf(missing !== null)('adds no schema error to the demo (the variant is checked like every part we write)', () => {
    const demo = ingestDocx(buildDemoContract()).bytes;
    const batch = new SchemaBatch(VALIDATOR);
    batch.add('demo: render variant', buildRenderVariant(demo), [demo]);
    expect(Object.fromEntries(batch.run())).toEqual({});
  });
});
