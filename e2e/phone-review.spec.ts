import { expect, test, type Page } from '@playwright/test';
import { openLabProtocol } from './lab-protocol';

/**
 * Issue 32, item 10: on a phone (390 x 844) the document keeps at least half of the screen's
 * height under the header, the current entry and its buttons, and every touch target of the
 * review page is at least 44 px tall (as the README promises).
 */

/** The document's visible height: its region's box within the viewport. */
async function documentHeight(page: Page): Promise<number> {
  const box = (await page.getByRole('region', { name: 'Document' }).boundingBox())!;
  const height = page.viewportSize()!.height;
  return Math.min(box.y + box.height, height) - Math.max(box.y, 0);
}

/** Controls of the review page (not the draft's own text) that show and are under 44 px tall. */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const area = document.querySelector('[data-review-area]')!;
    for (const el of area.querySelectorAll<HTMLElement>('button, a[href], select, input, [role=option]')) {
      if (el.closest('[data-testid=document-render]') || !el.checkVisibility()) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.bottom < 0 || box.top > innerHeight) continue;
      if (box.height < 44 - 0.5) out.push(`${el.tagName} "${(el.textContent ?? el.getAttribute('aria-label') ?? '').trim().slice(0, 30)}" ${Math.round(box.height)} px`);
    }
    return out;
  });
}

test('390 x 844: the document shows at least half the screen, and every touch target is at least 44 px', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openLabProtocol(page);
  // On each of the first three entries (a lone mark, rows with their text, a move).
  for (let i = 0; i < 3; i++) {
    expect(await documentHeight(page)).toBeGreaterThanOrEqual(844 / 2);
    expect(await smallTargets(page)).toEqual([]);
    await page.getByRole('button', { name: 'Next', exact: true }).click();
  }
  // The buttons keep their order: Accept and Reject side by side, Previous and Next on the row below.
  const box = async (name: string) => (await page.getByRole('button', { name, exact: true }).boundingBox())!;
  const [accept, reject, previous, next] = [await box('Accept'), await box('Reject'), await box('Previous'), await box('Next')];
  expect(Math.abs(accept.y - reject.y)).toBeLessThan(2);
  expect(Math.min(previous.y, next.y)).toBeGreaterThanOrEqual(accept.y + accept.height + 4);
  // A comment on the entry shows its section, with the document still at half the screen.
  await page.keyboard.press('c');
  await page.keyboard.type('Checked against the method.');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByText('Comment added.')).toBeVisible();
  await expect(page.getByTestId('comments')).toBeVisible();
  expect(await documentHeight(page)).toBeGreaterThanOrEqual(844 / 2);
  expect(await smallTargets(page)).toEqual([]);
});
