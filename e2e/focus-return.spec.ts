import { expect, test, type Page } from '@playwright/test';
import { openLabProtocol } from './lab-protocol';

/**
 * Issue 32, item 9: every dialog and composer gives the keys back to the list (or, on a phone
 * with the list closed, to the document) after a save as after Escape, so `j` typed right after
 * a save moves to the next change.
 */
const current = (page: Page) => page.locator('[role=option][aria-current=true]').getAttribute('data-change-id');

/** Types j and checks the current change moved off `from`. */
async function jMoves(page: Page, what: string): Promise<void> {
  const from = await current(page);
  await page.keyboard.press('j');
  await expect.poll(() => current(page), { message: `j right after ${what}` }).not.toBe(from);
}

for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  test(`${size.width} px: j works right after saving a comment, a reply, a note and a proposal, and after Escape`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(size);
    await openLabProtocol(page);
    // The keys work at once on load, on a phone too (where the list is closed).
    await jMoves(page, 'the page opened');
    await page.keyboard.press('k');

    // A comment on the current change: c, type, Ctrl+Enter.
    const commented = await current(page);
    await page.keyboard.press('c');
    await expect(page.getByLabel(/^Comment on /)).toBeFocused();
    await page.keyboard.type('Check the replicate count against the method.');
    await page.keyboard.press('Control+Enter');
    await expect(page.getByText('Comment added.')).toBeVisible();
    await expect(page.getByLabel(/^Comment on /)).toHaveCount(0);
    await jMoves(page, 'saving a comment');

    // A reply to it: back to the change, Reply, type, Ctrl+Enter.
    await page.keyboard.press('k');
    await expect.poll(() => current(page)).toBe(commented);
    // On a phone the threads fold to their heading: shown first.
    const show = page.getByTestId('comments').getByRole('button', { name: 'Show' });
    if (await show.isVisible()) await show.click();
    await page.getByTestId('comments').getByRole('button', { name: 'Reply' }).click();
    await expect(page.getByLabel(/^Reply to /)).toBeFocused();
    await page.keyboard.type('Five for system suitability, as the method says.');
    await page.keyboard.press('Control+Enter');
    await expect(page.getByText('Reply added.')).toBeVisible();
    await jMoves(page, 'saving a reply');

    // A comment cancelled with Escape.
    await page.keyboard.press('c');
    await expect(page.getByLabel(/^Comment on /)).toBeFocused();
    await page.keyboard.press('Escape');
    await jMoves(page, 'Escape in the comment editor');

    // A note with the decision: n, type, Ctrl+Enter (rejects with the note).
    await page.keyboard.press('n');
    const note = page.getByRole('dialog', { name: /^Note on / });
    await expect(note.getByLabel('Note')).toBeFocused();
    await page.keyboard.type('Not in the validated method.');
    await page.keyboard.press('Control+Enter');
    await expect(note).toBeHidden();
    await jMoves(page, 'saving a note');

    // A proposal at the current change: e, type the text and the reason, Ctrl+Enter.
    await page.keyboard.press('e');
    const proposal = page.getByRole('dialog', { name: 'Propose a change' });
    await expect(proposal).toBeVisible();
    await proposal.getByLabel('Replace').check();
    await proposal.getByLabel('Text in the draft').fill('Record the retention times.');
    await proposal.getByLabel('New text').fill('Record the retention times and the areas.');
    await proposal.getByLabel('Reason').fill('The areas are what the assay is computed from.');
    await proposal.getByLabel('Reason').press('Control+Enter');
    await expect(proposal).toBeHidden();
    await expect(page.getByText('Proposed your change')).toBeVisible();
    await jMoves(page, 'saving a proposal');

    // The note dialog closed with Escape.
    await page.keyboard.press('n');
    await expect(note.getByLabel('Note')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(note).toBeHidden();
    await jMoves(page, 'Escape in the note dialog');
  });
}
