import { expect, test, type Page } from '@playwright/test';
import { openLabProtocol } from './lab-protocol';
import { openScatteredSteps } from './scattered-entry';

/**
 * Issue 32, item 5: every entry's title fits its box, in the list and over the current entry, at
 * 1440 and 390 px (a title's length is entries.ts groupLabel's, unit-tested there for any members):
 * on the lab protocol, and on a draft one of whose entries holds changes scattered along the list.
 */
async function overflowingTitles(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const option of document.querySelectorAll<HTMLElement>('[role=option]')) {
      const box = option.getBoundingClientRect();
      if (box.width === 0) continue;
      const parts = [...option.querySelectorAll<HTMLElement>(':scope > div:first-child > span')];
      // Named by its title (the row's first text after the check box), which may push the rest out.
      const entry = `${option.dataset.changeId} "${parts[1]?.textContent ?? ''}"`;
      for (const part of parts) {
        const b = part.getBoundingClientRect();
        if (b.width > 0 && (b.right > box.right + 0.5 || part.scrollWidth > part.clientWidth + 1) && !part.classList.contains('truncate')) out.push(`${entry}: "${part.textContent}" runs out of the entry`);
      }
      if (option.scrollWidth > option.clientWidth + 1) out.push(`${entry}: the entry scrolls sideways`);
    }
    const heading = document.querySelector<HTMLElement>('section[aria-label="Current change"] h2');
    const section = heading?.closest('section')?.getBoundingClientRect();
    if (heading && section && heading.getBoundingClientRect().right > section.right + 0.5) out.push(`current: "${heading.textContent}"`);
    return out;
  });
}

for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  test(`${size.width} px: no entry's title runs out of its box`, async ({ page }) => {
    await page.setViewportSize(size);
    await openLabProtocol(page);
    const open = page.getByRole('button', { name: /^All changes/ });
    if (await open.isVisible()) await open.click();
    await expect(page.locator('[role=option]').first()).toBeVisible();
    expect(await overflowingTitles(page)).toEqual([]);
    // With the state shown as decided too ("rejected · saving" is the widest badge).
    await page.locator('[role=option]', { hasText: 'Row deleted' }).click();
    await page.keyboard.press('r');
    await expect(page.locator('[role=option][data-state=back]')).toHaveCount(1);
    expect(await overflowingTitles(page)).toEqual([]);
  });
}

for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  test(`${size.width} px: an entry of scattered changes keeps a title that fits`, async ({ page }) => {
    await page.setViewportSize(size);
    const scattered = await openScatteredSteps(page);
    // The shape under test is there: an entry whose change numbers are not consecutive.
    expect([...scattered.values()].some((numbers) => numbers.length > 2)).toBe(true);
    const open = page.getByRole('button', { name: /^All changes/ });
    if (await open.isVisible()) await open.click();
    await expect(page.locator('[role=option]').first()).toBeVisible();
    expect(await overflowingTitles(page)).toEqual([]);
    // Current, it lists its changes under the title, and its title over the draft fits too.
    for (const [leader, numbers] of scattered) {
      await page.locator(`[role=option][data-change-id="${leader}"]`).click();
      await expect(page.locator('[role=option][aria-current=true] [data-testid=entry-members]')).toContainText(String(numbers[numbers.length - 1]));
      expect(await overflowingTitles(page)).toEqual([]);
    }
  });
}
