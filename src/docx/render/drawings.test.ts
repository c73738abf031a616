import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { changeBookmarkName } from '../../contract/bookmark';
import { OBJECT_MARK_PREFIX, parseObjectMark } from '../../contract/object-marks';
import { buildRenderVariant, listRevisions } from '../index';
import { minimalDocx, readPart } from '../../../test/support/docx-files';
import { lacksShared, sharedPath } from '../../../test/support/shared-corpus';

const TIKA = 'files/tika-parsers__tika-parsers-standard__tika-parsers-standard-modules__tika-parser-microsoft-module__src__test__resources__test-documents__testWORD_2006ml.docx';
const ARABIC = 'files/TestFiles__RP__RP051-Arabic.docx';
const TEXT_BOX_MOD = 'compare/files/WC__WC045-Text-Box-Mod.docx';

/** The object marks of a part of the variant, decoded. */
function objectMarks(xml: string) {
  return [...xml.matchAll(/w:name="(_rlobj_[^"]+)"/g)].map((m) => parseObjectMark(m[1]!)!);
}

const NS = 'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"';
const inline = (cx: number, cy: number, graphic: string) =>
  `<w:drawing><wp:inline ${NS}><wp:extent cx="${cx}" cy="${cy}"/><a:graphic><a:graphicData>${graphic}</a:graphicData></a:graphic></wp:inline></w:drawing>`;

describe('render variant: objects docx-preview cannot draw', () => {
  it('marks a shape with its size and text, a picture not at all, and a watermark with its words', () => {
    const docx = minimalDocx(
      `<w:p><w:r>${inline(952500, 476250, '<wps:wsp><wps:spPr/><wps:txbx><w:txbxContent><w:p><w:r><w:t>Boxed words</w:t></w:r></w:p></w:txbxContent></wps:txbx></wps:wsp>')}</w:r></w:p>` +
        `<w:p><w:r>${inline(952500, 952500, '<wps:wsp><wps:spPr/></wps:wsp>')}</w:r></w:p>` +
        `<w:p><w:r>${inline(952500, 952500, '<pic:pic><pic:blipFill><a:blip r:embed="rId9" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"/></pic:blipFill></pic:pic>')}</w:r></w:p>` +
        `<w:p><w:r><w:pict><v:shapetype ${NS} id="_x0000_t136"><v:textpath on="t" fitshape="t"/></v:shapetype><v:shape ${NS} style="position:absolute;width:412.4pt;height:137.45pt;rotation:315"><v:textpath string="CONFIDENTIAL"/></v:shape></w:pict></w:r></w:p>`,
    );
    const marks = objectMarks(bodyOfVariant(docx));
    expect(marks).toEqual([
      { kind: 'textbox', width: 100, height: 50, label: 'Text box: Boxed words' },
      { kind: 'shape', width: 100, height: 100, label: 'Shape' },
      { kind: 'watermark', width: 550, height: 183, label: 'CONFIDENTIAL' },
    ]);
  });

  it('leaves to docx-preview what an mc:Fallback it can draw holds, and marks one it cannot', () => {
    const choice = `<mc:Choice Requires="wps"><w:drawing>${inline(952500, 952500, '<wps:wsp><wps:spPr/><wps:txbx><w:txbxContent><w:p><w:r><w:t>In a box</w:t></w:r></w:p></w:txbxContent></wps:txbx></wps:wsp>').slice('<w:drawing>'.length)}</mc:Choice>`;
    const drawn = `<w:p><w:r><mc:AlternateContent>${choice}<mc:Fallback><w:pict><v:rect ${NS}><v:textbox><w:txbxContent><w:p><w:r><w:t>In a box</w:t></w:r></w:p></w:txbxContent></v:textbox></v:rect></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>`;
    const bare = `<w:p><w:r><mc:AlternateContent>${choice}</mc:AlternateContent></w:r></w:p>`;
    expect(objectMarks(bodyOfVariant(minimalDocx(drawn)))).toEqual([]);
    expect(objectMarks(bodyOfVariant(minimalDocx(bare))).map((m) => m.label)).toEqual(['Text box: In a box']);
  });

  it('repeats the bookmark of a change inside a text box in the mc:Fallback copy docx-preview draws', () => {
    const D = 'w:author="A" w:date="2025-01-01T00:00:00Z"';
    const box = (id: number) => `<w:txbxContent><w:p><w:r><w:t>Kept </w:t></w:r><w:ins w:id="${id}" ${D}><w:r><w:t>added</w:t></w:r></w:ins></w:p></w:txbxContent>`;
    const docx = minimalDocx(
      `<w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:inline ${NS}><wp:extent cx="952500" cy="952500"/><a:graphic><a:graphicData><wps:wsp><wps:txbx>${box(1)}</wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:inline></w:drawing></mc:Choice>` +
        `<mc:Fallback><w:pict><v:rect ${NS}><v:textbox>${box(2)}</v:textbox></v:rect></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>`,
    );
    const [rev] = listRevisions(docx);
    const body = bodyOfVariant(docx);
    const fallback = body.slice(body.indexOf('<mc:Fallback>'));
    expect(fallback).toContain(`w:name="${changeBookmarkName(rev!.change_id)}"`);
    // A v:rect's text box is drawn by docx-preview only in a group: written as a v:shape.
    expect(fallback).toMatch(/^<mc:Fallback><w:pict><v:shape [^>]*><v:textbox>/);
    expect(fallback).toContain('</v:shape></w:pict></mc:Fallback>');
  });

  it.skipIf(lacksShared('the real chart test', TIKA))('leaves a real chart to the chart drawing (objects.ts) and labels the embedded objects beside it', () => {
    const docx = new Uint8Array(readFileSync(sharedPath(TIKA)));
    const xml = readPart(buildRenderVariant(docx), 'word/document.xml');
    const marks = objectMarks(xml);
    expect(marks.find((m) => m.kind === 'chart')).toBeUndefined();
    // The chart has its own mark, for the app to draw it from its cached values.
    expect(xml).toMatch(/w:name="_rlchart_\d+_chart_rId\d+_\d+_\d+_/);
    // Its embedded objects (an Excel sheet, a PowerPoint slide) are not lost either.
    expect(marks.filter((m) => m.kind === 'object').map((m) => m.label)).toContain('Embedded object: PowerPoint.Show.8');
    for (const m of marks) expect(m.label.length).toBeGreaterThan(0);
  });

  it.skipIf(lacksShared('the real text box test', TEXT_BOX_MOD))('leaves a real Word text box (with its VML copy) to docx-preview', () => {
    const docx = new Uint8Array(readFileSync(sharedPath(TEXT_BOX_MOD)));
    expect(readPart(buildRenderVariant(docx), 'word/document.xml')).not.toContain(OBJECT_MARK_PREFIX);
  });

  it.skipIf(lacksShared('the Symbol bullets test', ARABIC))('maps Symbol bullets and w:sym to the Unicode characters Word shows', () => {
    const variant = buildRenderVariant(new Uint8Array(readFileSync(sharedPath(ARABIC))));
    const numbering = readPart(variant, 'word/numbering.xml');
    // Each Symbol bullet level shows its Unicode bullet, without the symbol font.
    expect(numbering).toContain('<w:lvlText w:val="•"/>');
    expect(numbering).not.toContain('w:val="\uF0B7"');
    expect(numbering).not.toMatch(/<w:rFonts [^>]*w:ascii="Symbol"/);
    const body = readPart(variant, 'word/document.xml');
    expect(body).toContain('<w:t xml:space="preserve">∗</w:t>');
    expect(body).not.toMatch(/<w:sym [^>]*w:char="F02A"/);
  });
});

function bodyOfVariant(docx: Uint8Array): string {
  return readPart(buildRenderVariant(docx), 'word/document.xml');
}
