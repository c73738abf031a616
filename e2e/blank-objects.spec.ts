import { existsSync } from 'node:fs';
import path from 'node:path';
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

for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('a chart is a labelled box of its size with its title and values; embedded objects are labelled; a text box shows its text', async ({ page }) => {
      await openFile(page, CHART);
      const doc = page.locator('[data-testid=document-render]');
      const chart = doc.locator('.rl-object-chart').first();
      await chart.scrollIntoViewIfNeeded();
      await expect(chart).toBeVisible();
      expect(await chart.getAttribute('data-object-label')).toMatch(/^Chart: This is the chart title \(bar\) — Series 1: Category 1 4\.3, Category 2 2\.5/);
      // The label is drawn (CSS attr()), not an empty box.
      expect(await chart.evaluate((el) => getComputedStyle(el, '::before').content)).toContain('This is the chart title');
      const box = (await chart.boundingBox())!;
      expect(box.height).toBeGreaterThan(100);
      expect(box.width).toBeGreaterThan(100);
      // Of the chart's size (5486400 x 3200400 EMU = 576 x 336 px) where the page is wide enough.
      if (viewport.width === 1440) expect([Math.round(box.width), Math.round(box.height)]).toEqual([576, 336]);
      expect(await doc.locator('.rl-object-object').count()).toBeGreaterThan(0);
      for (const el of await doc.locator('.rl-object').all()) expect((await el.getAttribute('data-object-label'))?.length).toBeGreaterThan(0);
      await expect(doc.getByText('This is a text box')).toBeAttached();
    });

    test('a bullet set in the Symbol font is the Unicode bullet Word shows', async ({ page }) => {
      await openFile(page, BULLETS);
      const markers = await page.locator('[data-testid=document-render] p').evaluateAll((ps) => ps.map((p) => getComputedStyle(p, '::before').content).filter((c) => c && c !== 'none' && c !== 'normal'));
      expect(markers.some((c) => c.includes('•'))).toBe(true);
      expect(markers.some((c) => /[\uF000-\uF0FF]/.test(c))).toBe(false);
    });
  });
}
