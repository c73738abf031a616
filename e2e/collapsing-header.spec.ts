import { expect, test, type Page } from '@playwright/test';
import { openLabProtocol } from './lab-protocol';

/**
 * Issue 32.10: the review header collapses while the reader scrolls down the document, so the
 * document gets more of the screen, and comes back on a scroll up or when the focus goes into it.
 */
const headerHeight = (page: Page) => page.getByTestId('review-header').evaluate((el) => el.getBoundingClientRect().height);
/** The reader's own scroll: the wheel over the document. */
async function scrollBy(page: Page, dy: number): Promise<void> {
  const box = (await page.locator('[role=region][aria-label=Document]').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, dy);
}

for (const size of [{ width: 390, height: 844 }, { width: 1440, height: 900 }]) {
  test(`${size.width} px: the header goes on scrolling down, and comes back on scrolling up and on focus`, async ({ page }) => {
    await page.setViewportSize(size);
    await openLabProtocol(page);
    const documentPane = page.locator('[role=region][aria-label=Document]');
    const open = await headerHeight(page);
    expect(open).toBeGreaterThan(30);
    const paneBefore = (await documentPane.boundingBox())!.height;
    await scrollBy(page, 80);
    await scrollBy(page, 80);
    await expect.poll(() => headerHeight(page)).toBeLessThan(2);
    // The document took the room.
    await expect.poll(async () => (await documentPane.boundingBox())!.height).toBeGreaterThan(paneBefore + open - 4);
    await scrollBy(page, -40);
    await expect.poll(() => headerHeight(page)).toBeGreaterThan(30);
    // Gone again, then the focus comes into it (Shift+Tab from the document, or any way): back.
    await scrollBy(page, 80);
    await expect.poll(() => headerHeight(page)).toBeLessThan(2);
    await page.getByRole('button', { name: 'No markup' }).focus();
    await expect.poll(() => headerHeight(page)).toBeGreaterThan(30);
    // The page scrolling to the current entry (`j`) is not the reader's scroll: the header stays.
    for (let n = 0; n < 6; n++) await page.keyboard.press('j');
    await page.waitForTimeout(300);
    expect(await headerHeight(page)).toBeGreaterThan(30);
  });
}
