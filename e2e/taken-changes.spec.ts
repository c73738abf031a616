import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { expect, test, type Page } from '@playwright/test';
import type { Track } from '../src/contract/track';
import { generateFixture } from '../test/conformance/decision-fixtures';
import { signInThroughApi, signInThroughUi } from './helpers';

/**
 * Issue 32, items 2 and 6 (the app's side): an entry whose decision takes other changes with it
 * says so before it is decided; after, the changes it took say which decision took them, and the
 * list keeps every entry; a change with no justification shows none.
 */
const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
/** A generated draft (test/conformance/decision-fixtures.ts) holding a move whose rejection takes a deletion with it. */
const MOVE_CARRIES_SEED = 5;

/**
 * The generated draft as if Word had laid it out with a page ending after its first paragraph
 * (a w:lastRenderedPageBreak there), so its changes carry the page Word showed them on
 * (TrackItem.page): what a decided change the layout no longer marks is cited by.
 */
function laidOutByWord(bytes: Uint8Array): Buffer {
  const files = unzipSync(bytes);
  const xml = strFromU8(files['word/document.xml']!);
  const end = xml.indexOf('</w:p>');
  files['word/document.xml'] = strToU8(`${xml.slice(0, end)}<w:r><w:lastRenderedPageBreak/></w:r>${xml.slice(end)}`);
  return Buffer.from(zipSync(files));
}

async function draftWithCarryingMove(page: Page): Promise<{ draftId: string; track: Track }> {
  const api = await signInThroughApi(page.request);
  const upload = await page.request.post('/api/uploads', {
    headers: api.headers,
    multipart: { purpose: 'source_doc', file: { name: `Move carries ${Date.now()}.docx`, mimeType: DOCX_MIME, buffer: laidOutByWord(generateFixture(MOVE_CARRIES_SEED).bytes) } },
  });
  expect(upload.status()).toBe(201);
  const draft = await page.request.post(`/api/uploads/${((await upload.json()) as { id: string }).id}/working-draft`, { headers: api.headers });
  const draftId = ((await draft.json()) as { id: string }).id;
  const review = await page.request.get(`/api/documents/${draftId}/review`, { headers: api.headers });
  return { draftId, track: ((await review.json()) as { track: Track }).track };
}

for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  test(`${size.width} px: a move says what rejecting it also rejects, and the changes it took say so`, async ({ page }) => {
    await page.setViewportSize(size);
    const { draftId, track } = await draftWithCarryingMove(page);
    const label = new Map(track.items.map((i) => [i.id, i.label]));
    const move = track.entries!.find((e) => track.items.find((i) => i.id === e.id)?.move && (e.takes?.reject.length ?? 0) > 0);
    expect(move, 'the generated draft holds a move that carries changes').toBeTruthy();
    const takenId = move!.takes!.reject[0]!;
    const takenEntry = track.entries!.find((e) => e.members.includes(takenId))!;

    await signInThroughUi(page);
    // Signed in before leaving: a navigation while the code is being verified cancels the request.
    await expect(page.getByRole('heading', { name: 'Documents', level: 1 })).toBeVisible();
    await page.goto(`/documents/${draftId}`);
    await expect(page.locator('[data-testid=document-render][data-rendered=true]')).toBeAttached({ timeout: 20_000 });
    const phone = size.width < 768;
    const listToggle = page.getByRole('button', { name: /^All changes|^Hide changes/ });
    if (phone) await listToggle.click();
    const options = page.locator('[role=option]');
    const entries = await options.count();
    const progress = await page.getByTestId('progress').textContent();
    expect(progress).toMatch(new RegExp(`of ${entries} decided`));

    await page.locator(`[role=option][data-change-id="${move!.id}"]`).click();
    if (phone) await listToggle.click();
    const current = page.getByRole('region', { name: 'Current change' });
    await expect.soft(current.getByTestId('entry-takes')).toHaveText(new RegExp(`^Rejecting this move also rejects ${label.get(takenId)}: the \\w+ it carried\\.$`));
    await page.screenshot({ path: `/tmp/h32c/taken-before-${size.width}.png` });

    // Soft: on code without these lines each of them fails on its own, not only the first.
    await page.keyboard.press('r');
    if (phone) await listToggle.click();
    const taken = page.locator(`[role=option][data-change-id="${takenEntry.id}"]`);
    const moveLabels = move!.members.map((id) => label.get(id)).join('|');
    await expect.soft(taken.getByTestId('taken-with')).toHaveText(new RegExp(`^Rejected with (${moveLabels})$`), { timeout: 15_000 });
    // The notice says why the progress moved by more than one decision.
    await expect.soft(page.getByTestId('notice')).toContainText(
      move!.takes!.reject.length === 1 ? `1 more change was decided with it: ${label.get(takenId)}.` : `${move!.takes!.reject.length} more changes were decided with it`,
    );
    // The entries stay as they were: the taken change is listed, decided, not folded into the move.
    await expect(options).toHaveCount(entries);
    await expect(page.getByTestId('progress')).toHaveText(new RegExp(`of ${entries} decided`));
    // Decided, it keeps its page (the layout's, else Word's) and clause.
    await expect.soft(taken.getByTestId('change-place')).toHaveText(/^p\. \d+/);
    await page.screenshot({ path: `/tmp/h32c/taken-after-list-${size.width}.png` });

    // The taken change, made current, says the same in the current panel.
    await taken.click();
    if (phone) await listToggle.click();
    await expect.soft(current.getByTestId('decision-line')).toHaveText(new RegExp(`^Rejected with (${moveLabels})$`));
    await page.screenshot({ path: `/tmp/h32c/taken-after-current-${size.width}.png` });
  });
}

test('a human change with no justification shows no justification text', async ({ page }) => {
  const { draftId, track } = await draftWithCarryingMove(page);
  const plain = track.entries!.find((e) => e.state === 'open' && e.members.every((id) => !track.items.find((i) => i.id === id)?.justification));
  expect(plain).toBeTruthy();
  await signInThroughUi(page);
  await expect(page.getByRole('heading', { name: 'Documents', level: 1 })).toBeVisible();
  await page.goto(`/documents/${draftId}`);
  await page.locator(`[role=option][data-change-id="${plain!.id}"]`).click();
  const current = page.getByRole('region', { name: 'Current change' });
  await expect(current.getByRole('heading', { level: 2 })).toHaveText(/^Changes? /);
  await expect(current.getByTestId('justification')).toHaveCount(0);
  await expect(current).not.toContainText(/justification/i);
});
