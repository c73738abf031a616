import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { expect, test } from '@playwright/test';
import { CORPUS_FILES as FILES, openCorpusFile as openFile } from './corpus';

/**
 * Nothing silently blank (issue #23.3), on real files of the shared corpus (REDLINE_CORPUS, else
 * ../shared/corpus): a DrawingML chart docx-preview cannot draw is a labelled box of its size
 * with its title and cached values, embedded objects are labelled, a text box's text shows, and
 * a bullet set in the Symbol font is the bullet Word shows; at 1440 px and at 390 px.
 */
const CHART = 'tika-parsers__tika-parsers-standard__tika-parsers-standard-modules__tika-parser-microsoft-module__src__test__resources__test-documents__testWORD_2006ml.docx';
const BULLETS = 'TestFiles__RP__RP023-NumberingChange.docx';

test.skip(!existsSync(path.join(FILES, CHART)) || !existsSync(path.join(FILES, BULLETS)), 'the shared corpus is not here');

/**
 * No corpus file has a header watermark or a page border: a small Word-shaped file with both
 * (the VML Word writes for Design > Watermark > DRAFT, and a border 24 pt from the page edge).
 */
const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
function watermarkedDocx(): string {
  const header = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:hdr ${W} xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"><w:p><w:r><w:t>Header text</w:t></w:r><w:r><w:pict><v:shapetype id="_x0000_t136" coordsize="21600,21600" o:spt="136" adj="10800"><v:textpath on="t" fitshape="t"/></v:shapetype><v:shape id="PowerPlusWaterMarkObject" type="#_x0000_t136" style="position:absolute;margin-left:0;margin-top:0;width:412.4pt;height:137.45pt;rotation:315;z-index:-251657216" fillcolor="silver" stroked="f"><v:textpath style="font-family:&quot;Calibri&quot;;font-size:1pt" string="DRAFT"/></v:shape></w:pict></w:r></w:p></w:hdr>`;
  return docxFile('watermark.docx', '<w:p><w:r><w:t>Body text.</w:t></w:r></w:p><w:p><w:ins w:id="1" w:author="A" w:date="2025-01-01T00:00:00Z"><w:r><w:t>Inserted words.</w:t></w:r></w:ins></w:p>', header);
}

/** A Word text box (DrawingML in mc:Choice, its VML copy in mc:Fallback) holding a tracked insertion. */
function textBoxDocx(): string {
  const NS = 'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" xmlns:v="urn:schemas-microsoft-com:vml"';
  const box = (id: number) => `<w:txbxContent><w:p><w:r><w:t xml:space="preserve">Boxed and </w:t></w:r><w:ins w:id="${id}" w:author="A" w:date="2025-01-01T00:00:00Z"><w:r><w:t>inserted in the box</w:t></w:r></w:ins></w:p></w:txbxContent>`;
  return docxFile(
    'text-box.docx',
    `<w:p><w:r><w:t>Before the box.</w:t></w:r></w:p><w:p><w:r><mc:AlternateContent ${NS}><mc:Choice Requires="wps"><w:drawing><wp:inline><wp:extent cx="2857500" cy="952500"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:spPr/><wps:txbx>${box(1)}</wps:txbx><wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></wp:inline></w:drawing></mc:Choice>` +
      `<mc:Fallback><w:pict><v:rect style="width:225pt;height:75pt"><v:textbox>${box(2)}</v:textbox></v:rect></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>`,
  );
}

function docxFile(name: string, bodyXml: string, header?: string): string {
  const body = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${W} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><w:body>${bodyXml}<w:sectPr>${header ? '<w:headerReference w:type="default" r:id="rId7"/>' : ''}<w:headerReference w:type="default" r:id="rId7"/><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/>${header ? '<w:pgBorders w:offsetFrom="page"><w:top w:val="single" w:sz="12" w:space="24" w:color="1F4E79"/><w:left w:val="single" w:sz="12" w:space="24" w:color="1F4E79"/><w:bottom w:val="single" w:sz="12" w:space="24" w:color="1F4E79"/><w:right w:val="single" w:sz="12" w:space="24" w:color="1F4E79"/></w:pgBorders>' : ''}</w:sectPr></w:body></w:document>`;
  const rels = (inner: string) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${inner}</Relationships>`;
  const zip = zipSync({
    '[Content_Types].xml': strToU8('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/header1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"/></Types>'),
    '_rels/.rels': strToU8(rels('<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>')),
    'word/_rels/document.xml.rels': strToU8(rels('<Relationship Id="rId7" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/>')),
    'word/document.xml': strToU8(body),
    ...(header ? { 'word/header1.xml': strToU8(header) } : {}),
  });
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'rl-objects-')), name);
  writeFileSync(file, zip);
  return file;
}

for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('a chart is drawn at its size; embedded objects are labelled; a text box shows its text', async ({ page }) => {
      await openFile(page, CHART);
      const doc = page.locator('[data-testid=document-render]');
      const chart = doc.locator('.rl-object[role=img][aria-label^="Chart: "]').first();
      await chart.scrollIntoViewIfNeeded();
      await expect(chart).toBeVisible();
      await expect(chart).toHaveAttribute('aria-label', 'Chart: This is the chart title');
      const box = (await chart.boundingBox())!;
      expect(box.height).toBeGreaterThan(100);
      expect(box.width).toBeGreaterThan(100);
      await expect(doc.locator('.rl-object-object[data-object-label="Embedded object: AcroExch.Document.11"]')).toBeVisible();
      for (const el of await doc.locator('.rl-object:not(.rl-chart)').all()) expect((await el.getAttribute('data-object-label'))?.length).toBeGreaterThan(0);
      await expect(doc.getByText('This is a text box')).toBeAttached();
    });

    test('a bullet set in the Symbol font is the Unicode bullet Word shows', async ({ page }) => {
      await openFile(page, BULLETS);
      const markers = await page.locator('[data-testid=document-render] p').evaluateAll((ps) => ps.map((p) => getComputedStyle(p, '::before').content).filter((c) => c && c !== 'none' && c !== 'normal'));
      expect(markers.some((c) => c.includes('•'))).toBe(true);
      expect(markers.some((c) => /[\uF000-\uF0FF]/.test(c))).toBe(false);
    });

    test("a header's watermark is faint rotated text over the page, and the page border is drawn", async ({ page }) => {
      await openFile(page, watermarkedDocx());
      const first = page.locator('[data-testid=document-render] [data-page-number="1"]');
      const mark = first.locator('.rl-object-watermark');
      await expect(mark).toBeVisible();
      expect(await mark.getAttribute('data-object-label')).toBe('DRAFT');
      expect(await mark.evaluate((el) => getComputedStyle(el, '::before').content)).toBe('"DRAFT"');
      expect(await mark.evaluate((el) => getComputedStyle(el).transform)).not.toBe('none');
      const box = (await mark.boundingBox())!;
      expect(box.width * box.height).toBeGreaterThan(0);
      expect(await first.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
    });

    test('a change inside a text box is shown in the box and reachable like any other', async ({ page }) => {
      await openFile(page, textBoxDocx());
      const doc = page.locator('[data-testid=document-render]');
      const inserted = doc.locator('ins', { hasText: 'inserted in the box' });
      await expect(inserted).toBeVisible();
      // Its bookmark is in the box docx-preview draws (the VML copy), before the insertion.
      const anchor = doc.locator('span[id^="_rl_"]:not([id^="_rlobj_"])').first();
      await expect(anchor).toBeAttached();
      expect(await anchor.evaluate((el) => el.closest('foreignObject') !== null)).toBe(true);
      await expect(page.getByText('Change 1', { exact: true }).first()).toBeVisible();
    });
  });
}
