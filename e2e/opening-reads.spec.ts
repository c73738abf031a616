import { expect, test, type Request } from '@playwright/test';
import { changeBookmarkName } from '../src/contract/bookmark';
import { buildBenchmarkContract } from '../src/docx/fixture/index';
import { signInThroughUi } from './helpers';

/**
 * A link to a long draft opened in a new tab (issue 33): the review, the render variant and the
 * window around the change the review opens at are asked for side by side as the page opens
 * (opening-reads.ts), not one after another once the app has loaded, and the app takes those
 * answers rather than asking again.
 */
test('opening a link to a long draft asks for the review, the render variant and the first window side by side, once each', async ({ page, context }) => {
  test.setTimeout(90_000);
  await signInThroughUi(page);
  await expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible();
  const stored = (await page.evaluate(() => sessionStorage.getItem('redline.session')))!;
  const session = JSON.parse(stored) as { token: string; orgId: string };
  const headers = { authorization: `Bearer ${session.token}`, 'x-org-id': session.orgId };
  // 30 pages: a main part over the size above which the window is shown first (DocumentView).
  const upload = await page.request.post('/api/uploads', {
    headers,
    multipart: { purpose: 'source_doc', file: { name: 'Opening reads.docx', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: Buffer.from(buildBenchmarkContract({ pages: 30 })) } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const draftId = ((await (await page.request.post(`/api/uploads/${(await upload.json()).id}/working-draft`, { headers })).json()) as { id: string }).id;

  // A new tab of the same session (sessionStorage is copied to it as the browser does for a link opened from the app).
  const tab = await context.newPage();
  await tab.addInitScript((s) => sessionStorage.setItem('redline.session', s), stored);
  const reads = new Map<string, Request[]>();
  const started = new Map<Request, number>();
  const ended = new Map<Request, number>();
  tab.on('request', (r) => {
    const k = /\/api\/documents\/[^/]+\/(review|render|render-window)(?:\?|$)/.exec(r.url())?.[1];
    if (!k) return;
    reads.set(k, [...(reads.get(k) ?? []), r]);
    started.set(r, Date.now());
  });
  tab.on('requestfinished', (r) => ended.set(r, Date.now()));

  await tab.goto(`/documents/${draftId}`);
  await expect(tab.locator('[data-testid=document-render] .rl-here').first()).toBeAttached({ timeout: 30_000 });
  await expect(tab.locator('[data-testid=document-render][data-rendered=true]')).toBeAttached({ timeout: 60_000 });

  // Once each: the app took what the opening asked for.
  expect(reads.get('review')?.length).toBe(1);
  expect(reads.get('render')?.length).toBe(1);
  expect(reads.get('render-window')?.length).toBe(1);
  const read = (k: string): Request => reads.get(k)![0]!;
  const [review, render, window] = [read('review'), read('render'), read('render-window')];
  expect(review.headers().prefer).toBe('return=minimal');
  expect(window.url()).toContain('at=here');
  // Side by side: the window and the render variant were asked for before the review's answer had come.
  expect(started.get(window)!).toBeLessThanOrEqual(ended.get(review)!);
  expect(started.get(render)!).toBeLessThanOrEqual(ended.get(review)!);
  // The current change is highlighted in the draft.
  const current = await tab.locator('[role=option][aria-current=true]').getAttribute('data-change-id');
  await expect(tab.locator(`[id="${changeBookmarkName(current!)}"].rl-here-mark`)).toBeAttached();
});
