import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildRenderVariant } from '../index';
import { bodyOf, minimalDocx } from '../../../test/support/docx-files';
import { SchemaBatch, schemaCheckMissing } from '../../../test/conformance/schema-check';
import { lacksShared, sharedPath, sharedTool } from '../../../test/support/shared-corpus';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const ARABIC = 'المؤتمر العالمي';
const styles = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="${W}">` +
  '<w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="20"/><w:szCs w:val="24"/></w:rPr></w:rPrDefault></w:docDefaults>' +
  '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:rPr><w:sz w:val="22"/><w:szCs w:val="30"/></w:rPr></w:style>' +
  '<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/><w:rPr><w:sz w:val="28"/></w:rPr></w:style>' +
  '<w:style w:type="character" w:styleId="Big"><w:name w:val="Big"/><w:rPr><w:szCs w:val="40"/></w:rPr></w:style></w:styles>';

/** The run that holds `text` in the variant's body. */
function runOf(body: string, text: string): string {
  const at = body.indexOf(text);
  return body.slice(body.lastIndexOf('<w:r>', at) === -1 ? body.lastIndexOf('<w:r ', at) : body.lastIndexOf('<w:r>', at), at);
}

describe('complex-script runs in the render variant', () => {
  it("sets a run of Arabic at its resolved w:szCs, through direct formatting, character and paragraph styles, basedOn and defaults; Latin runs keep w:sz", () => {
    const docx = minimalDocx(
      `<w:p><w:r><w:t>${ARABIC} one</w:t></w:r><w:r><w:t>Latin stays</w:t></w:r></w:p>` +
        `<w:p><w:pPr><w:pStyle w:val="Title"/></w:pPr><w:r><w:rPr><w:b/><w:u w:val="single"/></w:rPr><w:t>${ARABIC} two</w:t></w:r></w:p>` +
        `<w:p><w:r><w:rPr><w:rStyle w:val="Big"/><w:sz w:val="18"/></w:rPr><w:t>${ARABIC} three</w:t></w:r></w:p>` +
        `<w:p><w:r><w:rPr><w:szCs w:val="26"/></w:rPr><w:t>${ARABIC} four</w:t></w:r></w:p>`,
      { 'word/styles.xml': styles },
    );
    const body = bodyOf(buildRenderVariant(docx));
    // Normal's szCs 30 (no rPr before: one is added).
    expect(runOf(body, `${ARABIC} one`)).toContain('<w:rPr><w:sz w:val="30"/></w:rPr>');
    expect(runOf(body, 'Latin stays')).not.toContain('w:sz');
    // Title is based on Normal: its szCs 30, put before w:u as the schema orders it.
    expect(runOf(body, `${ARABIC} two`)).toContain('<w:rPr><w:b/><w:sz w:val="30"/><w:u w:val="single"/></w:rPr>');
    // The character style's szCs 40 wins over the paragraph's; the direct w:sz is replaced.
    expect(runOf(body, `${ARABIC} three`)).toContain('<w:sz w:val="40"/>');
    expect(runOf(body, `${ARABIC} three`)).not.toContain('w:val="18"');
    // Direct szCs 26.
    expect(runOf(body, `${ARABIC} four`)).toContain('<w:sz w:val="26"/><w:szCs w:val="26"/>');
  });

  it('finds Arabic in any piece of a run\'s text, written as characters or character references, and sizes it in the walk that writes simple fields', () => {
    const docx = minimalDocx(
      '<w:p><w:r><w:t>Latin, then </w:t><w:tab/><w:t>&#x627;&#x644;&#x639;&#x642;&#x62F;</w:t></w:r>' +
        '<w:fldSimple w:instr="PAGE"><w:r><w:t>7</w:t></w:r></w:fldSimple><w:r><w:t>only Latin</w:t></w:r></w:p>',
      { 'word/styles.xml': styles },
    );
    const body = bodyOf(buildRenderVariant(docx));
    expect(runOf(body, 'Latin, then')).toContain('<w:rPr><w:sz w:val="30"/></w:rPr>');
    expect(runOf(body, 'only Latin')).not.toContain('w:sz');
    expect(body).toContain('<w:fldChar w:fldCharType="begin"/>');
  });

  it("draws a run of Arabic bold and italic by its resolved w:bCs and w:iCs, off where they say off, through styles and basedOn; Latin runs keep w:b and w:i", () => {
    const styles = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="${W}">` +
      '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>' +
      '<w:style w:type="paragraph" w:styleId="Heading"><w:name w:val="Heading"/><w:basedOn w:val="Normal"/><w:rPr><w:b w:val="0"/><w:bCs/></w:rPr></w:style>' +
      '<w:style w:type="paragraph" w:styleId="SubHeading"><w:name w:val="SubHeading"/><w:basedOn w:val="Heading"/></w:style>' +
      '<w:style w:type="character" w:styleId="Emph"><w:name w:val="Emph"/><w:rPr><w:i/><w:iCs w:val="false"/></w:rPr></w:style></w:styles>';
    const docx = minimalDocx(
      `<w:p><w:pPr><w:pStyle w:val="SubHeading"/></w:pPr><w:r><w:t>${ARABIC} heading</w:t></w:r><w:r><w:t>Latin heading</w:t></w:r></w:p>` +
        `<w:p><w:r><w:rPr><w:rStyle w:val="Emph"/></w:rPr><w:t>${ARABIC} emphasis</w:t></w:r><w:r><w:rPr><w:rStyle w:val="Emph"/></w:rPr><w:t>Latin emphasis</w:t></w:r></w:p>` +
        `<w:p><w:r><w:rPr><w:b/><w:bCs w:val="0"/></w:rPr><w:t>${ARABIC} not bold</w:t></w:r><w:r><w:rPr><w:b/><w:bCs w:val="0"/></w:rPr><w:t>Latin bold</w:t></w:r></w:p>` +
        `<w:p><w:r><w:rPr><w:bCs/><w:iCs/></w:rPr><w:t>${ARABIC} both</w:t></w:r><w:r><w:rPr><w:b/><w:bCs/><w:iCs w:val="0"/></w:rPr><w:t>${ARABIC} as is</w:t></w:r></w:p>`,
      { 'word/styles.xml': styles },
    );
    const body = bodyOf(buildRenderVariant(docx));
    // SubHeading is based on Heading: bCs on, b off.
    expect(runOf(body, `${ARABIC} heading`)).toContain('<w:rPr><w:b/></w:rPr>');
    expect(runOf(body, 'Latin heading')).not.toContain('<w:rPr>');
    // Emph's iCs false over its i: written after the character style, as the schema orders it.
    expect(runOf(body, `${ARABIC} emphasis`)).toContain('<w:rPr><w:rStyle w:val="Emph"/><w:i w:val="0"/></w:rPr>');
    expect(runOf(body, 'Latin emphasis')).toContain('<w:rPr><w:rStyle w:val="Emph"/></w:rPr>');
    // A direct bCs off replaces the direct b.
    expect(runOf(body, `${ARABIC} not bold`)).toContain('<w:rPr><w:b w:val="0"/><w:bCs w:val="0"/></w:rPr>');
    expect(runOf(body, 'Latin bold')).toContain('<w:rPr><w:b/><w:bCs w:val="0"/></w:rPr>');
    // Set where unset, before their complex-script twins; nothing written where they agree (an iCs off with no i).
    expect(runOf(body, `${ARABIC} both`)).toContain('<w:rPr><w:b/><w:bCs/><w:i/><w:iCs/></w:rPr>');
    expect(runOf(body, `${ARABIC} as is`)).toContain('<w:rPr><w:b/><w:bCs/><w:iCs w:val="0"/></w:rPr>');
  });

  it("sets a run of Arabic in its resolved complex-script font (w:rFonts/@w:cs, w:csTheme through the theme) as its Latin fonts; Latin runs keep theirs", () => {
    const styles = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="${W}">` +
      '<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="CG Times" w:hAnsi="CG Times" w:cs="Times New Roman"/></w:rPr></w:rPrDefault></w:docDefaults>' +
      '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:rPr><w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman" w:cs="Traditional Arabic"/></w:rPr></w:style>' +
      '<w:style w:type="paragraph" w:styleId="Plain"><w:name w:val="Plain"/><w:rPr><w:rFonts w:ascii="Arial"/></w:rPr></w:style></w:styles>';
    const theme = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="T"><a:themeElements><a:fontScheme name="F">' +
      '<a:majorFont><a:latin typeface="Cambria"/><a:ea typeface=""/><a:cs typeface="Times New Roman"/></a:majorFont>' +
      '<a:minorFont><a:latin typeface="Calibri"/><a:ea typeface=""/><a:cs typeface="Arial"/></a:minorFont></a:fontScheme></a:themeElements></a:theme>';
    const docx = minimalDocx(
      `<w:p><w:r><w:t>${ARABIC} one</w:t></w:r><w:r><w:t>Latin stays</w:t></w:r></w:p>` +
        `<w:p><w:pPr><w:pStyle w:val="Plain"/></w:pPr><w:r><w:rPr><w:rFonts w:hint="cs" w:ascii="Courier New"/></w:rPr><w:t>${ARABIC} two</w:t></w:r></w:p>` +
        `<w:p><w:r><w:rPr><w:rFonts w:csTheme="minorBidi"/></w:rPr><w:t>${ARABIC} three</w:t></w:r></w:p>`,
      { 'word/styles.xml': styles, 'word/theme/theme1.xml': theme },
    );
    const body = bodyOf(buildRenderVariant(docx));
    expect(runOf(body, `${ARABIC} one`)).toContain('<w:rFonts w:ascii="Traditional Arabic" w:hAnsi="Traditional Arabic"/>');
    expect(runOf(body, 'Latin stays')).not.toContain('w:rFonts');
    // Plain (not based on Normal) sets only a Latin font: the defaults' cs font; the run's hint stays.
    expect(runOf(body, `${ARABIC} two`)).toContain('<w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman" w:hint="cs"/>');
    expect(runOf(body, `${ARABIC} three`)).toContain('<w:rFonts w:ascii="Arial" w:hAnsi="Arial" w:csTheme="minorBidi"/>');
  });

  it('sets a run marked w:rtl or w:cs (directly or by its style) with its complex-script size, font and bold whatever its characters; unmarked Latin runs and runs marked off keep theirs', () => {
    const styles = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="${W}">` +
      '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:rPr><w:rFonts w:ascii="Times New Roman" w:cs="Traditional Arabic"/><w:sz w:val="22"/><w:szCs w:val="30"/></w:rPr></w:style>' +
      '<w:style w:type="character" w:styleId="Rtl"><w:name w:val="Rtl"/><w:rPr><w:bCs/><w:rtl/></w:rPr></w:style></w:styles>';
    const docx = minimalDocx(
      '<w:p><w:r><w:rPr><w:rtl/></w:rPr><w:t>(12) rtl</w:t></w:r><w:r><w:rPr><w:cs/></w:rPr><w:t>42 cs</w:t></w:r>' +
        '<w:r><w:rPr><w:rStyle w:val="Rtl"/></w:rPr><w:t>by style</w:t></w:r><w:r><w:rPr><w:rStyle w:val="Rtl"/><w:rtl w:val="0"/></w:rPr><w:t>marked off</w:t></w:r>' +
        '<w:r><w:t>plain Latin</w:t></w:r></w:p>',
      { 'word/styles.xml': styles },
    );
    const body = bodyOf(buildRenderVariant(docx));
    expect(runOf(body, '(12) rtl')).toContain('<w:rPr><w:rFonts w:ascii="Traditional Arabic" w:hAnsi="Traditional Arabic"/><w:sz w:val="30"/><w:rtl/></w:rPr>');
    expect(runOf(body, '42 cs')).toContain('<w:sz w:val="30"/><w:cs/>');
    expect(runOf(body, 'by style')).toContain('<w:rPr><w:rStyle w:val="Rtl"/><w:rFonts w:ascii="Traditional Arabic" w:hAnsi="Traditional Arabic"/><w:b/><w:sz w:val="30"/></w:rPr>');
    expect(runOf(body, 'marked off')).toContain('<w:rPr><w:rStyle w:val="Rtl"/><w:rtl w:val="0"/></w:rPr>');
    expect(runOf(body, 'plain Latin')).not.toContain('<w:rPr>');
  });

  const VALIDATOR = sharedTool('ooxml-validate.py');
  const ARABIC_FILE = sharedPath('files/TestFiles__RP__RP051-Arabic.docx');
  it.skipIf(lacksShared('the Arabic file\'s schema check', 'files/TestFiles__RP__RP051-Arabic.docx', '../tools/ooxml-validate.py') || schemaCheckMissing(VALIDATOR) !== null)('adds no schema error to a real Arabic file', () => {
    const bytes = new Uint8Array(readFileSync(ARABIC_FILE));
    const variant = buildRenderVariant(bytes);
    expect(bodyOf(variant)).not.toEqual(bodyOf(bytes));
    const batch = new SchemaBatch(VALIDATOR);
    batch.add('RP051-Arabic: render variant', variant, [ARABIC_FILE]);
    expect(Object.fromEntries(batch.run())).toEqual({});
  });
});
