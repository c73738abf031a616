import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { expect, test, type Page } from '@playwright/test';
import { sharedAbsentMessage } from '../test/support/shared-corpus';
import { CORPUS_FILES, openCorpusFile as openFile } from './corpus';
import { DEMO_CONTRACT, signInThroughUi } from './helpers';
import { wordPageStartsOf } from '../bench/word-page-starts';

/**
 * The draft as Word lays it out (issue #23), on real files of the shared corpus
 * (test/support/shared-corpus.ts): pages, page numbers computed in the footers, footnotes
 * at the foot of the page of their reference; at 1440 px and at 390 px (where the pages reflow,
 * each with a marker of its page).
 */
const FILES = CORPUS_FILES;
const STRESS = 'test-data__integration__stress023.docx';
const MEMO = '.skills__file-forensics__demo__memo.docx';

test.skip(!existsSync(path.join(FILES, STRESS)), sharedAbsentMessage('the pages of real files', [path.join(FILES, STRESS)]));

/** LibreOffice's page count for a file (its PDF), or null without soffice. */
function libreOfficePages(file: string): number | null {
  if (spawnSync('soffice', ['--version']).status !== 0) return null;
  const out = mkdtempSync(path.join(tmpdir(), 'rl-pages-'));
  spawnSync('soffice', ['--headless', '--convert-to', 'pdf', '--outdir', out, file], { timeout: 120_000 });
  const pdf = path.join(out, `${path.basename(file, '.docx')}.pdf`);
  if (!existsSync(pdf)) return null;
  // A PDF's page objects: "/Type /Page" (not /Pages).
  return (readFileSync(pdf, 'latin1').match(/\/Type\s*\/Page(?![s\w])/g) ?? []).length;
}

const pages = (page: Page) => page.locator('[data-testid=document-render] [data-page-number]');

for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('a long file is laid out in pages as Word set it, each footer with its own page number', async ({ page }) => {
      test.setTimeout(180_000);
      await openFile(page, STRESS);
      const count = await pages(page).count();
      // Word's own count where the file records its breaks (LibreOffice sets this file's Franklin
      // Gothic Book in DejaVu Sans, a wider face: 16 pages where Word had 15), else LibreOffice's.
      const word = wordPageStartsOf(readFileSync(path.join(FILES, STRESS))).breaks;
      const reference = word > 0 ? word + 1 : libreOfficePages(path.join(FILES, STRESS));
      if (reference !== null) expect(Math.abs(count - reference)).toBeLessThanOrEqual(Math.max(1, Math.round(0.15 * reference)));
      else expect(count).toBeGreaterThan(10);
      // Numbered 1..n in order.
      expect(await pages(page).evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-page-number'))))).toEqual(Array.from({ length: count }, (_, i) => i + 1));
      // The footer's PAGE field says the page it is on (the file saved "1" in every footer).
      for (const n of [1, 2, 7, count]) {
        await expect(page.locator(`[data-page-number="${n}"] > footer`)).toContainText(new RegExp(`^\\s*${n} - As of Dec 2019`));
      }
      // A page of paper at 1440 px; the text reflowed to the screen's width on a phone, each page marked.
      const box = (await page.locator('[data-page-number="2"]').boundingBox())!;
      if (viewport.width === 1440) expect(Math.round(box.width)).toBe(816);
      else expect(box.width).toBeLessThanOrEqual(viewport.width);
    });

    test('a footnote sits at the foot of the page that holds its reference, with its number', async ({ page }) => {
      await openFile(page, MEMO);
      const holder = pages(page).filter({ has: page.locator('.rl-fnref') }).first();
      await expect(holder).toBeAttached();
      const ref = holder.locator('.rl-fnref').first();
      const note = holder.locator('ol.rl-footnotes > li').first();
      await expect(note).toBeAttached();
      expect(await note.getAttribute('data-note')).toBe((await ref.textContent())?.trim());
      // Below the text of its page.
      const article = (await holder.locator('article').last().boundingBox())!;
      const noteBox = (await note.boundingBox())!;
      expect(noteBox.y).toBeGreaterThanOrEqual(article.y + article.height - 1);
      // The note's picture (a VML image related from the footnotes part) is the picture, not a
      // broken image looked up among the main part's relationships.
      const images = note.locator('image, img');
      await expect(images).toHaveCount(1);
      const decoded = await images.first().evaluate(async (el) => {
        const url = el.getAttribute('href') ?? el.getAttribute('src');
        if (!url) return 'no address';
        // Decoded as the page decodes pictures (its policy lets images, not fetch, read blob: addresses).
        const img = new Image();
        img.src = url;
        try {
          await img.decode();
          return `${img.naturalWidth}x${img.naturalHeight}`;
        } catch {
          return 'not an image';
        }
      });
      expect(decoded).toMatch(/^[1-9]\d*x[1-9]\d*$/);
    });
  });
}

test.describe('every mark for what it is', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) test(`a move is one entry labelled Move, shown green in both places and labelled Moved; each change says its page, at ${viewport.width} px`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await openFile(page, 'TestFiles__RP__RP015-MoveFrom-MoveTo.docx');
    // On a phone the list is a panel opened on demand.
    if (viewport.width < 768) await page.getByRole('button', { name: /^All changes/ }).click();
    const move = page.getByRole('option').filter({ hasText: 'Move' }).first();
    await expect(move).toBeVisible();
    await expect(move.getByTestId('change-place')).toHaveText(/^p\. 1\b/);
    await expect(page.locator('.doc-view del.rl-moved-from[data-label="Moved"]')).toHaveCount(1);
    await expect(page.locator('.doc-view ins.rl-moved-to[data-label="Moved"]')).toHaveCount(1);
    const style = await page.locator('.doc-view del.rl-moved-from').first().evaluate((el) => getComputedStyle(el).textDecorationStyle);
    expect(style).toBe('double');
  });

  test('a formatting change is marked on the words it changed, in words', async ({ page }) => {
    await openFile(page, 'TestFiles__FA__RevTracking__019-RunPropertiesChange.docx');
    const formatted = page.locator('.doc-view .rl-formatted').first();
    await expect(formatted).toBeVisible();
    expect(await formatted.getAttribute('data-formatted')).toMatch(/^Formatted: /);
    expect((await formatted.textContent())?.trim().length).toBeGreaterThan(0);
  });
});

test.describe('nothing silently blank', () => {
  for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
    test(`a chart is drawn from its cached values, with its title, at ${viewport.width} px`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await openFile(page, 'tika-parsers__tika-parsers-standard__tika-parsers-standard-modules__tika-parser-microsoft-module__src__test__resources__test-documents__testWORD_2006ml.docx');
      const chart = page.locator('.doc-view .rl-object[role=img][aria-label^="Chart: "]').first();
      await expect(chart).toBeAttached();
      await expect(chart).toHaveAttribute('aria-label', 'Chart: This is the chart title');
      // Drawn (bars or lines), at the drawing's own size (5486400 x 3200400 EMU = 576 x 336 px).
      expect(await chart.locator('svg rect, svg polyline, svg path').count()).toBeGreaterThan(2);
      const box = (await chart.boundingBox())!;
      if (viewport.width === 1440) expect([Math.round(box.width), Math.round(box.height)]).toEqual([576, 336]);
      // Every other drawing docx-preview leaves blank says what it is.
      // (drawings.ts' boxes carry their label in data-object-label, drawn by CSS.)
      for (const placeholder of await page.locator('.doc-view .rl-object:not(.rl-chart)').all()) {
        expect(((await placeholder.getAttribute('data-object-label')) ?? (await placeholder.textContent()) ?? '').length).toBeGreaterThan(3);
      }
    });
  }
});

for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  test.describe(`a proposal at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('a proposal with its author and date, shown as a proposal', async ({ page }) => {
      // The seeded demo contract holds the service's own proposals (content controls), by the
      // assistant on 10 March 2025 (src/docx/fixture/demo-contract.ts).
      await signInThroughUi(page);
      await page.getByRole('link', { name: DEMO_CONTRACT, exact: true }).click();
      await expect(page.locator('[data-testid=document-render][data-rendered=true]')).toBeAttached({ timeout: 30_000 });
      const panel = page.getByRole('region', { name: 'Current change' });
      await expect(panel).toBeVisible();
      // j to the first proposal (keys work in the review area).
      await page.getByRole('region', { name: 'Document' }).focus();
      for (let i = 0; i < 40 && !(await panel.textContent())?.includes('Proposed'); i++) {
        const before = await panel.textContent();
        await page.keyboard.press('j');
        await expect(panel).not.toHaveText(before ?? '');
      }
      await expect(panel).toContainText('Proposed');
      await expect(panel).toContainText('By Redline Assistant on');
      await expect(panel.locator('time')).toHaveAttribute('datetime', /^2025-03-10T14:05/);
      await expect(panel.locator('time')).toContainText(/2025/);
      // In the list, under its author.
      if (viewport.width === 1440) {
        const entry = page.locator('[role=option][aria-current=true]');
        await expect(entry).toContainText('Proposed');
        await expect(entry).toContainText('Redline Assistant');
      }
      // In the draft, in its own mark: the current change is a proposal.
      await expect(page.locator('[data-testid=document-render] .rl-proposal.rl-here, [data-testid=document-render] .rl-proposal .rl-here, [data-testid=document-render] .rl-here .rl-proposal').first()).toBeAttached();
      // A re-render (No markup and back) outlines the same proposals, not every paragraph after the
      // first (the new render is built while the old one, with the same ids, is still on screen).
      const outlined = () => page.locator('[data-testid=document-render] .rl-proposal, [data-testid=document-render] .rl-proposal-block').count();
      const before = await outlined();
      expect(before).toBeGreaterThan(0);
      const rendered = page.locator('[data-testid=document-render][data-rendered=true]');
      for (const view of ['No markup', 'All markup']) {
        await page.getByRole('button', { name: view, exact: true }).click();
        await expect(rendered).toBeAttached({ timeout: 30_000 });
      }
      await expect.poll(outlined, { timeout: 15_000 }).toBe(before);
    });
  });
}

/**
 * Two sections (the first ends with a next-page break), an endnote referenced in each: with
 * `position` "sectEnd" in the settings' w:endnotePr each section's note follows its own text,
 * else both follow the document's.
 */
function endnotesDocx(position: 'sectEnd' | 'docEnd'): string {
  const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  const rels = (inner: string) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${inner}</Relationships>`;
  const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const sect = '<w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/>';
  const ref = (id: number) => `<w:r><w:rPr><w:rStyle w:val="EndnoteReference"/></w:rPr><w:endnoteReference w:id="${id}"/></w:r>`;
  const note = (id: number, text: string) => `<w:endnote w:id="${id}"><w:p><w:r><w:endnoteRef/></w:r><w:r><w:t xml:space="preserve"> ${text}</w:t></w:r></w:p></w:endnote>`;
  const body = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${W}><w:body>` +
    `<w:p><w:r><w:t>First section text.</w:t></w:r>${ref(1)}</w:p>` +
    `<w:p><w:pPr><w:sectPr><w:type w:val="nextPage"/>${sect}</w:sectPr></w:pPr><w:r><w:t>End of the first section.</w:t></w:r></w:p>` +
    `<w:p><w:r><w:t>Second section text.</w:t></w:r>${ref(2)}</w:p>` +
    `<w:sectPr>${sect}</w:sectPr></w:body></w:document>`;
  const zip = zipSync({
    '[Content_Types].xml': strToU8('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/endnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.endnotes+xml"/><Override PartName="/word/settings.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml"/></Types>'),
    '_rels/.rels': strToU8(rels(`<Relationship Id="rId1" Type="${R}/officeDocument" Target="word/document.xml"/>`)),
    'word/_rels/document.xml.rels': strToU8(rels(`<Relationship Id="rId1" Type="${R}/endnotes" Target="endnotes.xml"/><Relationship Id="rId2" Type="${R}/settings" Target="settings.xml"/>`)),
    'word/document.xml': strToU8(body),
    'word/settings.xml': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:settings ${W}><w:endnotePr><w:pos w:val="${position}"/><w:endnote w:id="-1"/><w:endnote w:id="0"/></w:endnotePr></w:settings>`),
    'word/endnotes.xml': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:endnotes ${W}><w:endnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:endnote><w:endnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:endnote>${note(1, 'Note of the first section.')}${note(2, 'Note of the second section.')}</w:endnotes>`),
  });
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'rl-endnotes-')), `endnotes-${position}.docx`);
  writeFileSync(file, zip);
  return file;
}

test.describe('endnotes', () => {
  test.use({ viewport: { width: 1440, height: 900 } });
  for (const position of ['sectEnd', 'docEnd'] as const) {
    test(`with w:pos ${position}, each note is where Word puts it`, async ({ page }) => {
      await openFile(page, endnotesDocx(position));
      const doc = page.locator('[data-testid=document-render]');
      const order = await doc.evaluate((root) => {
        const marks = ['First section text.', 'End of the first section.', 'Note of the first section.', 'Second section text.', 'Note of the second section.'];
        const text = root.textContent ?? '';
        return marks.map((m) => ({ m, at: text.indexOf(m) })).sort((a, b) => a.at - b.at).map((x) => (x.at < 0 ? `missing: ${x.m}` : x.m));
      });
      expect(order).toEqual(position === 'sectEnd'
        ? ['First section text.', 'End of the first section.', 'Note of the first section.', 'Second section text.', 'Note of the second section.']
        : ['First section text.', 'End of the first section.', 'Second section text.', 'Note of the first section.', 'Note of the second section.']);
      // Numbered through the document (lower roman, Word's default for endnotes), the first note on the first page.
      await expect(doc.locator('[data-page-number="1"] ol.rl-endnotes > li')).toHaveCount(position === 'sectEnd' ? 1 : 0);
      const labels = await doc.locator('ol.rl-endnotes > li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-note')));
      expect(labels).toEqual(['i', 'ii']);
    });
  }
});

