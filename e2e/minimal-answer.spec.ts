import { expect, test, type Request } from '@playwright/test';
import { changeBookmarkName } from '../src/contract/bookmark';
import { buildDemoContract } from '../src/docx/fixture/index';
import { signInThroughUi } from './helpers';

/**
 * The app takes minimal answers to its decisions (Prefer: return=minimal, issue 22.4) and fetches
 * the render variant alone once the draft stands still: the decided change leaves the rendered draft.
 */
test('decisions are answered minimal, and the draft is rendered again from the render variant fetched after them', async ({ page }) => {
  test.setTimeout(60_000);
  await signInThroughUi(page);
  await expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible();
  const raw = await page.evaluate(() => sessionStorage.getItem('redline.session'));
  const session = JSON.parse(raw ?? '{}') as { token: string; orgId: string };
  const headers = { authorization: `Bearer ${session.token}`, 'x-org-id': session.orgId };
  const upload = await page.request.post('/api/uploads', {
    headers,
    multipart: { purpose: 'source_doc', file: { name: 'Minimal answers.docx', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: Buffer.from(buildDemoContract()) } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const draft = await page.request.post(`/api/uploads/${(await upload.json()).id}/working-draft`, { headers });
  const draftId = (await draft.json()).id as string;

  const applies: Request[] = [];
  const renders: Request[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/revisions/apply')) applies.push(r);
    if (r.url().endsWith(`/documents/${draftId}/render`)) renders.push(r);
  });
  await page.goto(`/documents/${draftId}`);
  await expect(page.locator('[data-testid=document-render][data-rendered=true]')).toBeAttached({ timeout: 20_000 });
  const first = await page.getByRole('listbox', { name: 'Changes' }).getByRole('option').first().getAttribute('data-change-id');
  const anchor = page.locator(`[id="${changeBookmarkName(first!)}"]`);
  await expect(anchor).toBeAttached();
  // The review is read minimal and the render variant fetched by itself, once.
  expect(renders).toHaveLength(1);

  await page.keyboard.press('a');
  await expect(page.getByText('All decisions saved')).toBeVisible();
  expect(applies).toHaveLength(1);
  expect(applies[0]!.headers().prefer).toBe('return=minimal');
  const answer = await applies[0]!.response();
  expect(answer!.headers()['preference-applied']).toBe('return=minimal');
  // The batch names the listing the page read (If-Match, its ETag) and is answered the delta from it (issue 36.1).
  expect(applies[0]!.headers()['if-match']).toMatch(/^".+"$/);
  const delta = await answer!.json() as { base: string; version: string; track: { items: { changed: { id: string; state: string }[] } } };
  expect(Object.keys(delta).sort()).toEqual(['base', 'document', 'revisions', 'track', 'version']);
  expect(delta.track.items.changed.map((i) => [i.id, i.state])).toContainEqual([first, 'in']);
  const listbox = page.getByRole('listbox', { name: 'Changes' });
  await expect(listbox.locator(`[data-change-id="${first}"]`).first()).toHaveAttribute('data-state', 'in');

  // The next batch names the version the delta brought, and the page applies that delta too.
  const second = await listbox.locator('[data-state=open]').first().getAttribute('data-change-id');
  await page.keyboard.press('r');
  await expect(listbox.locator(`[data-change-id="${second}"]`).first()).toHaveAttribute('data-state', 'back', { timeout: 20_000 });
  await expect(page.getByText('All decisions saved')).toBeVisible();
  expect(applies).toHaveLength(2);
  expect(applies[1]!.headers()['if-match']).toBe(`"${delta.version}"`);
  expect(Object.keys(await (await applies[1]!.response())!.json())).toContain('base');

  // Once the draft stands still the variant is fetched alone and rendered: the accepted change is gone from it.
  // (The first change's anchor: accepted, it is gone from the rendered draft.)
  await expect(anchor).toHaveCount(0, { timeout: 20_000 });
  expect(renders.length).toBeGreaterThanOrEqual(2);
});
