import { expect, test, type Page } from '@playwright/test';
import { openLabProtocol } from './lab-protocol';

/** Issue 32, items 11 and 8: notices cover nothing the lawyer needs and fade; the clean copy says what it accepts first. */

/** Whether two boxes overlap. */
const overlaps = (a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The boxes the lawyer needs: the list's entries, the current change and its buttons, the highlighted change. */
async function neededBoxes(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[role=option], section[aria-label="Current change"], [data-testid=document-render] .rl-here')]
      .map((el) => el.getBoundingClientRect())
      .filter((b) => b.width > 0 && b.height > 0 && b.bottom > 0 && b.top < innerHeight)
      .map((b) => ({ x: b.x, y: b.y, width: b.width, height: b.height })),
  );
}

for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  test(`${size.width} px: a batch's notice covers no entry, no button and not the current change, is announced, and fades`, async ({ page }) => {
    await page.setViewportSize(size);
    await openLabProtocol(page);
    const notice = page.getByTestId('notice');
    await expect(notice).toHaveAttribute('aria-live', 'polite');
    // Select two entries and accept them together.
    await page.keyboard.press('x');
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    await page.keyboard.press('Shift+A');
    const said = notice.getByRole('status');
    await expect(said).toContainText('Accepted 2 changes.');
    const box = (await said.boundingBox())!;
    for (const needed of await neededBoxes(page)) expect(overlaps(box, needed), JSON.stringify({ box, needed })).toBe(false);
    // With the phone's list open too.
    const open = page.getByRole('button', { name: /^All changes/ });
    if (await open.isVisible()) {
      await open.click();
      const again = (await said.boundingBox()) ?? box;
      for (const needed of await neededBoxes(page)) expect(overlaps(again, needed), JSON.stringify({ again, needed })).toBe(false);
      await page.getByRole('button', { name: 'Hide changes' }).click();
    }
    // It fades by itself; the live region stays for the next one.
    await expect(said).toHaveCount(0, { timeout: 10_000 });
    await expect(notice).toHaveAttribute('aria-live', 'polite');
  });
}

test('Clean copy… says how many open entries (and changes) it accepts before it does', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLabProtocol(page);
  const progress = (await page.getByTestId('progress').textContent())!;
  const total = Number(/of (\d+) decided/.exec(progress)![1]);
  const changes = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('[role=option]')].reduce((n, o) => n + (o.dataset.members ?? '').split(' ').length, 0));
  await page.getByRole('button', { name: 'Clean copy…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Download a clean copy' });
  await expect(dialog.getByTestId('clean-copy-accepts')).toHaveText(`The copy accepts the ${total} open entries (${changes} changes), as if you accepted them now; the draft itself does not change.`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  // One decided: one fewer.
  await page.keyboard.press('a');
  await expect(page.getByTestId('progress')).toHaveText(`1 of ${total} decided`);
  await page.getByRole('button', { name: 'Clean copy…' }).click();
  await expect(dialog.getByTestId('clean-copy-accepts')).toContainText(`The copy accepts the ${total - 1} open entries`);
});
