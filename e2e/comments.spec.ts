import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { openDocx } from '../src/docx/index';
import { buildDemoContract } from '../src/docx/fixture/index';
import { codeSessionThroughApi, expectNoAxeViolations, signInThroughUi, type ApiSession } from './helpers';

const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const SHOTS = process.env.E2E_SCREENSHOTS;

async function newDraft(request: APIRequestContext): Promise<{ email: string; owner: ApiSession; draftId: string }> {
  const email = `comments-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
  const owner = await codeSessionThroughApi(request, email, '/api/auth/sign-up/request-code', { identifier: email, name: 'Casey Counsel', organisation: 'Comments LLP' });
  const uploaded = await request.post('/api/uploads', {
    headers: owner.headers,
    multipart: { purpose: 'source_doc', file: { name: 'Comments MSA.docx', mimeType: DOCX_MIME, buffer: Buffer.from(buildDemoContract()) } },
  });
  expect(uploaded.status()).toBe(201);
  const drafted = await request.post(`/api/uploads/${((await uploaded.json()) as { id: string }).id}/working-draft`, { headers: owner.headers });
  return { email, owner, draftId: ((await drafted.json()) as { id: string }).id };
}

test('comments from the keyboard: comment on a change, reply, resolve, comment on selected text, highlight, clean copy', async ({ page, request }) => {
  test.setTimeout(120_000);
  const { email, owner, draftId } = await newDraft(request);
  await signInThroughUi(page, email);
  await expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible();
  await page.goto(`/documents/${draftId}`);
  await expect(page.locator('[data-testid=document-render][data-rendered=true]')).toBeAttached({ timeout: 20_000 });
  const comments = page.getByTestId('comments');
  const current = page.getByRole('option', { name: /^Change 1\b/ });
  await expect(current).toBeFocused();

  // Changes 2–3 (one edit: an inserted paragraph and its mark) carry the assistant's justification; `c` comments on it.
  await page.keyboard.press('j');
  await expect(page.getByRole('heading', { name: 'Changes 2–3', exact: true })).toBeVisible();
  await page.keyboard.press('c');
  const editor = page.getByLabel('Comment on Changes 2–3');
  await expect(editor).toBeFocused();
  // Typing "c", "j" or "a" in the editor types; it does not act on the review.
  await page.keyboard.type('Counsel cannot accept this; see clause 9.');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByText('Comment added.')).toBeVisible();
  const thread = comments.getByRole('listitem').filter({ hasText: 'Counsel cannot accept this; see clause 9.' }).first();
  await expect(thread).toBeVisible();
  await expect(thread).toContainText('Casey Counsel');
  await expect(page.getByRole('heading', { name: 'Changes 2–3', exact: true })).toBeVisible();

  // The comment's range is highlighted in the draft (CSS Custom Highlight API).
  await expect.poll(() => page.evaluate(() => (CSS.highlights.get('rl-comment')?.size ?? 0))).toBeGreaterThan(0);
  const highlighted = await page.evaluate(() => [...(CSS.highlights.get('rl-comment') ?? [])].map((r) => (r as Range).toString()).join(' '));
  expect(highlighted.length).toBeGreaterThan(3);

  // Reply and resolve, by keyboard: Tab to the thread's buttons.
  await thread.getByRole('button', { name: 'Reply' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Reply to Casey Counsel')).toBeFocused();
  await page.keyboard.type('Agreed after the call.');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByText('Reply added.')).toBeVisible();
  await expect(thread).toContainText('Agreed after the call.');
  await thread.getByRole('button', { name: 'Resolve' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Thread resolved.')).toBeVisible();
  await expect(comments.locator('[data-resolved=true]')).toHaveCount(1);
  if (SHOTS) {
    const before = page.viewportSize()!;
    for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
      await page.setViewportSize(size);
      await page.screenshot({ path: `${SHOTS}/comments-${size.width}x${size.height}.png` });
    }
    await page.setViewportSize(before);
  }
  await expectNoAxeViolations(page);

  // Escape closes the editor without writing anything.
  await page.getByRole('option', { name: /^Changes 2–3\b/ }).focus();
  await page.keyboard.press('c');
  await expect(page.getByLabel('Comment on Changes 2–3')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByLabel('Comment on Changes 2–3')).toHaveCount(0);

  // Select text in the rendered draft and press c: a comment on that text.
  const phrase = 'Confidential Information';
  const found = await page.evaluate((text) => {
    const host = document.querySelector('[data-testid="document-render"]')!;
    const walker = document.createTreeWalker(host, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent!.indexOf(text);
      if (at === -1 || node.parentElement!.closest('del')) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + text.length);
      window.getSelection()!.removeAllRanges();
      window.getSelection()!.addRange(range);
      (host.closest('[role=region]') as HTMLElement).focus({ preventScroll: true });
      return true;
    }
    return false;
  }, phrase);
  expect(found).toBe(true);
  await page.keyboard.press('c');
  const onText = page.getByLabel(`Comment on “${phrase}”`);
  await expect(onText).toBeFocused();
  await page.keyboard.type('Is this defined?');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByText('Comment added.')).toBeVisible();
  // A comment on text shows among all the draft's comments.
  await comments.getByRole('button', { name: /^All comments/ }).click();
  await expect(comments.getByRole('listitem').filter({ hasText: 'Is this defined?' }).first()).toBeVisible();

  // The stored draft holds all three as Word comments.
  const stored = openDocx(new Uint8Array(await (await request.get(`/api/uploads/${draftId}/content`, { headers: owner.headers })).body()));
  const mine = stored.comments().filter((c) => c.author === 'Casey Counsel');
  expect(mine.map((c) => [c.text, c.resolved])).toEqual([
    ['Counsel cannot accept this; see clause 9.', true],
    ['Agreed after the call.', true],
    ['Is this defined?', false],
  ]);
  expect(mine[2]!.anchorText).toBe(phrase);

  // Clean copy without comments, from the dialog.
  await page.getByRole('button', { name: 'Clean copy…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Download a clean copy' });
  await dialog.getByLabel('Remove every comment').check();
  const downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('Comments MSA (clean).docx');
  const clean = openDocx(new Uint8Array(await readFile((await download.path())!)));
  expect([clean.revisionCount, clean.comments().length]).toEqual([0, 0]);
});
