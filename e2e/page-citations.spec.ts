import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { expect, test } from '@playwright/test';
import { buildDocx, by, field, ins, p, type BlockSpec } from '../src/docx/fixture';
import { openDocx } from './corpus';

/**
 * Page citations in the page's own printed number (issue #33): roman front matter
 * (w:pgNumType w:fmt="lowerRoman"), then a section restarting at 1. Each change's citation in
 * the list and in the current-change bar equals what its page's footer PAGE field prints; the
 * page of the file is in the tooltip.
 */
const alex = by('Alex Reviewer', '2025-03-04T09:30:00Z');
const FILLER = 'This recital sets out the background to the agreement between the parties in some detail, at length. '.repeat(5);
const fill = (n: number, tag: string): BlockSpec[] => Array.from({ length: n }, (_, i) => p(`${tag} ${i}. ${FILLER}`));

/** A paragraph ending a section of roman-numbered pages that shows the body's footer. */
const FRONT_MATTER_END: BlockSpec = {
  type: 'xml',
  xml: '<w:p><w:pPr><w:sectPr><w:footerReference w:type="default" r:id="FOOTER_RID"/><w:pgSz w:w="12240" w:h="15840"/>' +
    '<w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/>' +
    '<w:pgNumType w:fmt="lowerRoman"/></w:sectPr></w:pPr></w:p>',
};

function frontMatterDocx(): Uint8Array {
  const bytes = buildDocx({
    body: [
      ...fill(8, 'Front'),
      p('Definitions: ', ins(alex, 'Business Day means a day banks open in London'), '.'),
      ...fill(3, 'More front'),
      FRONT_MATTER_END,
      ...fill(5, 'Body'),
      p('Payment: ', ins(alex, 'within thirty days'), ' of invoice.'),
      ...fill(14, 'Later body'),
      p('Notices: ', ins(alex, 'by e-mail'), ' to the addresses above.'),
    ],
    section: { pageNumberStart: 1 },
    footer: [p('Page ', field('PAGE', '1'))],
  });
  const files = unzipSync(bytes);
  const rels = strFromU8(files['word/_rels/document.xml.rels']!);
  const footerRid = /Id="(rId\d+)"[^>]*Target="footer1.xml"|Target="footer1.xml"[^>]*Id="(rId\d+)"/.exec(rels);
  files['word/document.xml'] = strToU8(strFromU8(files['word/document.xml']!).replace('FOOTER_RID', footerRid![1] ?? footerRid![2]!));
  return zipSync(files);
}

for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  test(`every page citation is the number its page prints (roman front matter, a restart) at ${viewport.width} px`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await openDocx(page, 'Front matter.docx', frontMatterDocx());
    const pages = page.locator('[data-testid=document-render] [data-page-number]');
    const printed = await pages.evaluateAll((els) => els.map((el) => ({
      physical: Number(el.getAttribute('data-page-number')),
      label: el.getAttribute('data-page-label'),
      footer: el.querySelector(':scope > footer')?.textContent?.replace(/\s+/g, ' ').trim() ?? null,
      changes: el.querySelectorAll('article ins').length,
    })));
    // The fixture: front matter i, ii, ... then 1, 2, ...; each footer prints its page's label.
    expect(printed[0]!.footer).toBe('Page i');
    expect(printed.some((x) => x.footer === 'Page 1' && x.physical > 1)).toBe(true);
    for (const x of printed) expect(x.footer).toBe(`Page ${x.label}`);
    // The changes in document order, each with the label of the page that holds it.
    const expected = printed.flatMap((x) => Array.from({ length: x.changes }, () => x));
    expect(expected.length).toBe(3);
    const places = page.locator('[data-testid=change-place]');
    await expect(places).toHaveCount(3);
    for (let i = 0; i < 3; i++) {
      await expect(places.nth(i)).toHaveText(new RegExp(`^p\\. ${expected[i]!.label}\\b`));
      const title = await places.nth(i).getAttribute('title');
      expect(title).toContain(`page ${expected[i]!.physical} of the file`);
    }
    // On a phone each reflowed page is marked with the number it prints.
    if (viewport.width < 768) expect(await pages.nth(1).evaluate((el) => getComputedStyle(el, '::before').content)).toBe(`"Page ${printed[1]!.label}"`);
    // The current change's bar cites its page the same way.
    await expect(page.getByTestId('current-place')).toHaveText(new RegExp(`^p\\. ${expected[0]!.label}\\b`));
  });
}
