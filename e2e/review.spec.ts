import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { applyDecisions, listRevisions } from '../src/docx/index';
import { buildDemoContract } from '../src/docx/fixture/index';
import { expectNoAxeViolations, signInThroughUi } from './helpers';

const FILE_NAME = 'E2E Supply Agreement.docx';

/** The session the app holds, read from the page (to check things over the API as that user). */
async function apiHeaders(page: Page): Promise<Record<string, string>> {
  const raw = await page.evaluate(() => sessionStorage.getItem('redline.session'));
  const session = JSON.parse(raw ?? '{}') as { token: string; orgId: string };
  return { authorization: `Bearer ${session.token}`, 'x-org-id': session.orgId };
}

function changes(page: Page): Locator {
  return page.getByRole('listbox', { name: 'Changes' }).getByRole('option');
}

/** The n-th entry of the list: one per edit ("Change 4", or "Changes 2–3" for an edit of two changes). */
function option(page: Page, n: number): Locator {
  return page.locator('[role=option][data-change-id]').nth(n - 1);
}

async function expectCurrent(page: Page, n: number): Promise<void> {
  await expect(option(page, n)).toBeFocused();
  const label = (await option(page, n).locator('span.font-semibold').textContent())!;
  await expect(page.getByRole('heading', { name: label, exact: true })).toBeVisible();
}

async function waitSaved(page: Page): Promise<void> {
  await expect(page.getByText('All decisions saved')).toBeVisible();
}

async function states(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() =>
    Object.fromEntries([...document.querySelectorAll<HTMLElement>('[role=option][data-change-id]')].map((el) => [el.dataset.changeId!, el.dataset.state!])),
  );
}

test('upload, start a working draft, decide changes from the keyboard, undo, reload, download', async ({ page }) => {
  test.setTimeout(90_000);
  await signInThroughUi(page);
  await expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible();

  // Upload a generated contract through the file picker behind "Upload".
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await (await chooser).setFiles({ name: FILE_NAME, mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: Buffer.from(buildDemoContract()) });
  await expect(page.getByText(`Uploaded ${FILE_NAME}.`)).toBeVisible();

  // Start a working draft from it and open the review.
  await page.getByRole('button', { name: `Versions of ${FILE_NAME}` }).click();
  await page.getByRole('button', { name: `Start working draft from ${FILE_NAME} v1` }).click();
  await page.getByRole('link', { name: 'Review it now' }).click();
  await expect(page).toHaveURL(/\/documents\/[^/]+$/);
  const draftId = page.url().split('/').pop()!;
  await expect(page.locator('[data-testid=document-render][data-rendered=true]')).toBeAttached({ timeout: 20_000 });

  const headers = await apiHeaders(page);
  const before = new Uint8Array(await (await page.request.get(`/api/uploads/${draftId}/content`, { headers })).body());
  const total = await changes(page).count();
  expect(total).toBeGreaterThanOrEqual(10);
  await expect(page.getByTestId('progress')).toHaveText(`0 of ${total} decided`);

  // On load the current change is the first open one, and it has the focus.
  await expectCurrent(page, 1);
  const ids = Object.keys(await states(page));
  const idOf = (n: number) => ids[n - 1]!;

  // Walk every change with j; each one is focused, and its bookmark is highlighted in the document.
  for (let n = 2; n <= total; n++) {
    await page.keyboard.press('j');
    await expectCurrent(page, n);
  }
  await expect(page.locator('.doc-view .rl-here-mark')).toHaveCount(1);
  // Back to the top with k.
  for (let n = total - 1; n >= 1; n--) await page.keyboard.press('k');
  await expectCurrent(page, 1);
  await expectNoAxeViolations(page);

  // a accepts and moves on, r rejects and moves on: pressed in a quick row, none is lost.
  await page.keyboard.press('a');
  await page.keyboard.press('r');
  await page.keyboard.press('a');
  await expectCurrent(page, 4);
  await expect(option(page, 1)).toHaveAttribute('data-state', 'in');
  await expect(option(page, 2)).toHaveAttribute('data-state', 'back');
  await expect(option(page, 3)).toHaveAttribute('data-state', 'in');
  await waitSaved(page);
  await expect(page.getByTestId('progress')).toHaveText(`3 of ${total} decided`);

  // x selects, Shift+A accepts the selection.
  await page.keyboard.press('j');
  await page.keyboard.press('x');
  await page.keyboard.press('j');
  await page.keyboard.press('x');
  await expect(option(page, 5)).toHaveAttribute('aria-selected', 'true');
  await expect(option(page, 6)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Shift+A');
  await expect(option(page, 5)).toHaveAttribute('data-state', 'in');
  await expect(option(page, 6)).toHaveAttribute('data-state', 'in');
  await waitSaved(page);

  // u undoes that last batch only.
  await page.keyboard.press('u');
  await expect(page.getByTestId('notice')).toContainText('Undid the last batch');
  await expect(option(page, 5)).toHaveAttribute('data-state', 'open');
  await expect(option(page, 6)).toHaveAttribute('data-state', 'open');
  await expect(option(page, 3)).toHaveAttribute('data-state', 'in');

  // Another session's decision shows here as it commits (the live stream): another session
  // accepts Change 8 behind this tab's back, and the list follows without a reload.
  const other = await page.request.post(`/api/documents/${draftId}/revisions/apply`, { headers, data: { accepted_change_ids: [idOf(8)] } });
  expect(other.ok()).toBe(true);
  await expect(option(page, 8)).toHaveAttribute('data-state', 'in');
  await expect(page.getByTestId('notice')).toContainText(`accepted ${(await option(page, 8).locator('span.font-semibold').textContent())!}`);

  // A batch that never reaches the service is not rolled back: it waits, and is sent again.
  await page.route('**/revisions/apply', (route) => route.abort('failed'), { times: 1 });
  await option(page, 9).click();
  await page.keyboard.press('a');
  await expect(option(page, 9)).toHaveAttribute('data-state', 'in');
  await waitSaved(page);

  // Reload: the same states come back from the service.
  const shownBefore = await states(page);
  await page.reload();
  await expect(changes(page).first()).toBeVisible();
  expect(await states(page)).toEqual(shownBefore);
  expect(shownBefore[idOf(1)]).toBe('in');
  expect(shownBefore[idOf(2)]).toBe('back');
  expect(shownBefore[idOf(3)]).toBe('in');
  expect(shownBefore[idOf(5)]).toBe('open');
  expect(shownBefore[idOf(8)]).toBe('in');
  expect(shownBefore[idOf(9)]).toBe('in');

  // Download: exactly the chosen changes were applied — the engine, replaying the same
  // decisions on the draft as it was, leaves the same revisions.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download .docx' }).click();
  const downloaded = new Uint8Array(await readFile((await (await download).path())!));
  const remaining = listRevisions(downloaded).map((r) => r.change_id).sort();
  // An entry decides its whole edit (revision `group`).
  const members = (id: string) => listRevisions(before).filter((r) => (r.group ?? r.change_id) === id).map((r) => r.change_id);
  const accepted = [idOf(1), idOf(3), idOf(8), idOf(9)].flatMap(members);
  const rejected = [idOf(2)].flatMap(members);
  const expected = listRevisions(applyDecisions(before, { accept: accepted, reject: rejected })).map((r) => r.change_id).sort();
  expect(remaining).toEqual(expected);
  for (const id of [...accepted, ...rejected]) expect(remaining).not.toContain(id);
});

test('shortcuts can be turned off, and "?" lists the keys', async ({ page }) => {
  await signInThroughUi(page);
  await page.getByRole('link', { name: 'Master Services Agreement (demo).docx', exact: true }).click();
  await expect(changes(page).first()).toBeVisible();
  await expectCurrent(page, 1);

  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Accept the current change');
  await expectNoAxeViolations(page);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Typing in a field never triggers a shortcut.
  await page.getByLabel('Kind').focus();
  await page.keyboard.press('j');
  await expect(option(page, 1)).toHaveAttribute('data-state', 'open');

  await page.getByLabel('Single-key shortcuts').uncheck();
  await option(page, 1).focus();
  await page.keyboard.press('a');
  await expect(option(page, 1)).toHaveAttribute('data-state', 'open');
  await expect(page.getByRole('button', { name: 'Accept', exact: true })).not.toHaveAttribute('aria-keyshortcuts');
  // The arrow keys of the list still work.
  await page.keyboard.press('ArrowDown');
  await expectCurrent(page, 2);
  await page.getByLabel('Single-key shortcuts').check();
  await expect(page.getByRole('button', { name: 'Accept', exact: true })).toHaveAttribute('aria-keyshortcuts', 'A');

  // Filters: only the deletions, and "Reject all shown" decides exactly those.
  await page.getByLabel('Kind').selectOption('delete');
  const deletions = await changes(page).count();
  expect(deletions).toBeGreaterThan(0);
  // An edit is shown when any of its changes is a deletion (a replacement, a deleted row); a move's source
  // is a deletion too: it is listed once, as "Move" (issue #23).
  for (const kind of await changes(page).allTextContents()) expect(kind).toMatch(/Deletion|Replacement|Row deleted|Move/);
  await page.getByRole('button', { name: 'Reject all shown' }).click();
  await page.getByRole('dialog', { name: `Reject all ${deletions} shown change${deletions === 1 ? '' : 's'}?` }).getByRole('button', { name: 'Reject all' }).click();
  await expect(page.getByTestId('notice')).toContainText(`Rejected ${deletions} change`);
  await waitSaved(page);
  const total = await page.getByTestId('progress').textContent();
  expect(total).toMatch(new RegExp(`^${deletions} of \\d+ decided$`));
});
