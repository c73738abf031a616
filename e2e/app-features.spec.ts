import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { buildDocx, buildKindSample, by, del, ins, p } from '../src/docx/fixture/index';
import { codeSessionThroughApi, signInThroughUi, type ApiSession } from './helpers';

/**
 * App features the other specs leave out: the documents page's actions, the review's markup
 * views, the sign-in page's rate-limit message and the organisation switcher. Each test signs
 * up its own users (fresh addresses, fresh organisations), so none depends on the demo data or
 * on another test.
 */

const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

function freshEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
}

/** A new user and their own organisation (owner), over the API. */
async function signUpThroughApi(request: APIRequestContext, email: string, organisation: string): Promise<ApiSession> {
  return codeSessionThroughApi(request, email, '/api/auth/sign-up/request-code', { identifier: email, name: `E2E ${email.split('@')[0]}`, organisation });
}

/** Uploads a .docx over the API; returns its id. */
async function uploadThroughApi(request: APIRequestContext, session: ApiSession, name: string, bytes: Uint8Array): Promise<string> {
  const res = await request.post('/api/uploads', {
    headers: session.headers,
    multipart: { purpose: 'source_doc', file: { name, mimeType: DOCX_MIME, buffer: Buffer.from(bytes) } },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

function documentsRegion(page: Page) {
  return page.getByRole('region', { name: 'Documents' });
}

test('documents: drop to upload with progress, rename, new version, working draft, download, delete', async ({ page, request }) => {
  const email = freshEmail('docs');
  await signUpThroughApi(request, email, 'Docs Org');
  await signInThroughUi(page, email);
  await expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible();
  await expect(page.getByText('No documents yet.')).toBeVisible();

  // A slow line (Chromium's network emulation: 3 KB/s up, 400 ms latency), so the upload of
  // a ~4 KB file takes long enough to watch its progress bar fill.
  const FILE = `Dropped ${Date.now()}.docx`;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 400, downloadThroughput: -1, uploadThroughput: 3 * 1024 });

  // Drag a .docx over the page (it shows the drop outline), then drop it.
  const region = documentsRegion(page);
  const dataTransfer = await page.evaluateHandle(
    ({ bytes, name, type }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], name, { type }));
      return transfer;
    },
    { bytes: [...buildKindSample('insert')], name: FILE, type: DOCX_MIME },
  );
  await region.dispatchEvent('dragover', { dataTransfer });
  await expect(region).toHaveClass(/outline-dashed/);
  await region.dispatchEvent('drop', { dataTransfer });
  await expect(region).not.toHaveClass(/outline-dashed/);

  const progress = page.getByRole('progressbar', { name: `Uploading ${FILE}` });
  await expect(progress).toBeVisible();
  await expect(page.getByRole('button', { name: 'Upload', exact: true })).toBeDisabled();
  // It fills up: the whole body has gone out while the answer is still on its way.
  await expect
    .poll(() => progress.evaluate((el: HTMLProgressElement) => (el.hasAttribute('value') ? el.value : -1), undefined, { timeout: 500 }).catch(() => -2), { intervals: [50] })
    .toBe(100);
  await expect(page.getByText(`Uploaded ${FILE}.`)).toBeVisible();
  await expect(progress).toBeHidden();
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await cdp.detach();

  // One entry per series; its versions and their actions wait behind "Versions".
  const seriesOf = (name: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });
  const versionsOf = (name: string) => page.getByRole('list', { name: `Versions of ${name}` });
  const openVersions = async (name: string) => {
    const toggle = page.getByRole('button', { name: `Versions of ${name}` });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await expect(versionsOf(name)).toBeVisible();
  };
  await expect(seriesOf(FILE)).toContainText('1 version');
  await expect(seriesOf(FILE)).toContainText('No working draft yet');

  // Rename v1 (the version the series is named after): the new name shows, and is still there after a reload (it was saved).
  const RENAMED = `Renamed ${Date.now()}.docx`;
  await openVersions(FILE);
  await page.getByRole('button', { name: `Rename ${FILE} v1` }).click();
  const renameDialog = page.getByRole('dialog', { name: 'Rename' });
  await renameDialog.getByLabel('File name').fill(RENAMED);
  await renameDialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`Renamed the series to ${RENAMED}.`)).toBeVisible();
  await page.reload();
  const series = seriesOf(RENAMED);
  await expect(series.getByRole('heading', { name: RENAMED })).toBeVisible();
  await expect(page.getByText(FILE)).toHaveCount(0);

  // A new version through the "Upload new version" file picker: v2 joins the series.
  await openVersions(RENAMED);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: `Upload new version of ${RENAMED}` }).click();
  await (await chooser).setFiles({ name: RENAMED, mimeType: DOCX_MIME, buffer: Buffer.from(buildKindSample('delete')) });
  await expect(page.getByText(`Added version 2 of ${RENAMED}.`)).toBeVisible();
  await expect(versionsOf(RENAMED).getByRole('listitem')).toHaveCount(2);
  await expect(series).toContainText('2 versions');

  // A working draft from v2 is v3, and can be reviewed; the entry shows how far its review has got.
  await page.getByRole('button', { name: `Start working draft from ${RENAMED} v2` }).click();
  await expect(page.getByText('Started a working draft (version 3) from version 2.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Review it now' })).toBeVisible();
  await expect(versionsOf(RENAMED).getByRole('listitem')).toHaveCount(3);
  await expect(versionsOf(RENAMED).getByText('Working draft', { exact: true })).toHaveCount(1);
  await expect(series.getByRole('link', { name: `Review ${RENAMED}` })).toBeVisible();
  await expect(series).toContainText(/0 of \d+ decided/);
  await expect(series).toContainText('Nothing decided yet');

  // Their next version follows the version sent (v2), never the working draft listed above it:
  // it is v4, and "Compare with…" starts from v2, the version it was added to.
  const next = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: `Upload new version of ${RENAMED}` }).click();
  await (await next).setFiles({ name: RENAMED, mimeType: DOCX_MIME, buffer: Buffer.from(buildKindSample('insert')) });
  await expect(page.getByText(`Added version 4 of ${RENAMED}.`)).toBeVisible();
  await page.getByRole('button', { name: `Compare with… (v4 of ${RENAMED})` }).click();
  const compareDialog = page.getByRole('dialog', { name: 'Compare v4 with…' });
  await expect(compareDialog.getByLabel('Older version').locator('option:checked')).toHaveText(/^v2 · original/);
  await compareDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(versionsOf(RENAMED).getByRole('listitem')).toHaveCount(4);

  // Download the original: a non-empty .docx (a zip: it starts with "PK").
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: `Download ${RENAMED} v1` }).click();
  expect((await download).suggestedFilename()).toBe(RENAMED);
  const bytes = await readFile((await (await download).path())!);
  expect(bytes.length).toBeGreaterThan(100);
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');

  // Delete the series: Cancel keeps it; confirming deletes every version, for good.
  await page.getByRole('button', { name: `Delete series ${RENAMED}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this document series?' });
  await expect(confirm).toContainText('all 4 of its versions');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await page.reload();
  await expect(series).toContainText('4 versions');

  await openVersions(RENAMED);
  await page.getByRole('button', { name: `Delete series ${RENAMED}` }).click();
  await confirm.getByRole('button', { name: 'Delete series' }).click();
  await expect(page.getByText(`Deleted ${RENAMED} and its versions.`)).toBeVisible();
  await page.reload();
  await expect(page.getByText('No documents yet.')).toBeVisible();
  await expect(series).toHaveCount(0);
});

test('documents: search by name, sort by name or last activity, and progress from one request', async ({ page, request }) => {
  const email = freshEmail('desk');
  const owner = await signUpThroughApi(request, email, 'Desk Org');
  for (const name of ['Bravo lease.docx', 'Alpha supply.docx', 'Charlie NDA.docx']) {
    await uploadThroughApi(request, owner, name, buildKindSample('insert'));
  }
  const progressCalls: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/documents/progress') progressCalls.push(r.url());
  });
  await signInThroughUi(page, email);
  const names = page.getByRole('list', { name: 'Document series' }).getByRole('heading', { level: 2 });
  // Newest activity first: the last upload leads.
  await expect(names).toHaveText(['Charlie NDA.docx', 'Alpha supply.docx', 'Bravo lease.docx']);
  await page.getByRole('combobox', { name: 'Sort' }).selectOption('name');
  await expect(names).toHaveText(['Alpha supply.docx', 'Bravo lease.docx', 'Charlie NDA.docx']);
  await page.getByRole('searchbox', { name: 'Search documents by name' }).fill('lease');
  await expect(names).toHaveText(['Bravo lease.docx']);
  await expect(page.getByText('1 of 3 documents')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search documents by name' }).fill('nothing like it');
  await expect(page.getByText('No document matches “nothing like it”.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear the search' }).click();
  await expect(names).toHaveCount(3);
  // One progress request for the page, however many series it lists.
  expect(progressCalls).toHaveLength(1);
});

test('review: "No markup" hides the tracked changes and "All markup" shows them again', async ({ page, request }) => {
  const email = freshEmail('markup');
  const owner = await signUpThroughApi(request, email, 'Markup Org');
  const reviewer = by('Alex Chen (Counsel)', '2025-02-03T10:00:00Z');
  const contract = buildDocx({
    title: 'Markup views',
    body: [p('Payment is due ', del(reviewer, 'promptly upon receipt '), ins(reviewer, 'within thirty (30) days '), 'after the invoice date.')],
  });
  const uploadId = await uploadThroughApi(request, owner, 'Markup views.docx', contract);
  const drafted = await request.post(`/api/uploads/${uploadId}/working-draft`, { headers: owner.headers });
  expect(drafted.status()).toBe(201);
  const draftId = ((await drafted.json()) as { id: string }).id;

  await signInThroughUi(page, email);
  await expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible();
  await page.goto(`/documents/${draftId}`);
  const rendered = page.locator('[data-testid=document-render][data-rendered=true]');
  await expect(rendered).toBeAttached({ timeout: 20_000 });

  const view = page.getByRole('group', { name: 'View' });
  const all = view.getByRole('button', { name: 'All markup' });
  const none = view.getByRole('button', { name: 'No markup' });
  const deleted = rendered.locator('del', { hasText: 'promptly upon receipt' });
  const inserted = rendered.locator('ins', { hasText: 'within thirty (30) days' });

  // All markup (the default): the deletion and the insertion are both marked up.
  await expect(all).toHaveAttribute('aria-pressed', 'true');
  await expect(none).toHaveAttribute('aria-pressed', 'false');
  await expect(deleted).toHaveCount(1);
  await expect(inserted).toHaveCount(1);

  // No markup: the text reads as if every change were accepted — no <del>/<ins>, the deleted
  // words gone, the inserted words plain text.
  await none.click();
  await expect(none).toHaveAttribute('aria-pressed', 'true');
  await expect(all).toHaveAttribute('aria-pressed', 'false');
  await expect(rendered.locator('del, ins')).toHaveCount(0);
  await expect(rendered).not.toContainText('promptly upon receipt');
  await expect(rendered).toContainText('Payment is due within thirty (30) days after the invoice date.');

  // And back.
  await all.click();
  await expect(all).toHaveAttribute('aria-pressed', 'true');
  await expect(deleted).toHaveCount(1);
  await expect(inserted).toHaveCount(1);
  // The list of changes is the same in both views: the replacement is one entry (its deletion and insertion).
  await expect(page.getByRole('listbox', { name: 'Changes' }).getByRole('option')).toHaveCount(1);
});

test('review: a long list (in chunks the browser may skip) keeps every change reachable by keys and in view', async ({ page, request }) => {
  test.setTimeout(90_000);
  const email = freshEmail('long');
  const owner = await signUpThroughApi(request, email, 'Long List Org');
  const N = 140;
  // One insertion per paragraph, each by its own time, so no two group into one entry.
  const body = Array.from({ length: N }, (_, i) =>
    p(`Clause ${i + 1} says `, ins(by('Alex Chen (Counsel)', new Date(Date.UTC(2025, 1, 3, 10, i)).toISOString()), `inserted words ${i + 1} `), 'and ends.'));
  const uploadId = await uploadThroughApi(request, owner, 'Long list.docx', buildDocx({ title: 'Long list', body }));
  const drafted = await request.post(`/api/uploads/${uploadId}/working-draft`, { headers: owner.headers });
  const draftId = ((await drafted.json()) as { id: string }).id;

  await signInThroughUi(page, email);
  // Signed in before leaving: a navigation while the code is being verified cancels the request.
  await expect(page.getByRole('heading', { name: 'Documents', level: 1 })).toBeVisible();
  await page.goto(`/documents/${draftId}`);
  await expect(page.locator('[data-testid=document-render][data-rendered=true]')).toBeAttached({ timeout: 30_000 });
  const list = page.getByRole('listbox', { name: 'Changes' });
  const options = list.getByRole('option');
  await expect(options).toHaveCount(N);
  expect(await page.locator('.rl-list-chunk').count()).toBeGreaterThan(1);

  const current = list.locator('[role=option][aria-current=true]');
  const expectShown = async (label: string) => {
    await expect(current).toContainText(label);
    await expect(current).toBeFocused();
    await expect(current).toBeInViewport();
    await expect(page.locator('[data-testid=document-render] .rl-here').first()).toBeInViewport();
  };
  await options.first().focus();
  await page.keyboard.press('End');
  await expectShown(`Change ${N}`);
  await page.keyboard.press('Home');
  await expectShown('Change 1');
  for (let i = 0; i < 60; i++) await page.keyboard.press('j');
  await expectShown('Change 61');
  await expect(page.locator('[data-testid=document-render] .rl-here').first()).toContainText('inserted words 61');
});

test('sign-in: a 429 says when to try again', async ({ page }) => {
  // The e2e service turns the sign-in limits off or sets them at 1000 (playwright.config.ts),
  // and reaching 1000 from 127.0.0.1 would lock every later test out, so the service's own
  // tests cover the limits and this one answers the single request with the 429 the service
  // sends (sign-in-codes.ts / error-handler.ts: problem+json, Retry-After).
  const email = freshEmail('limited');
  await page.route(
    '**/api/auth/sign-in/request-code',
    (route) =>
      route.fulfill({
        status: 429,
        headers: { 'content-type': 'application/problem+json; charset=utf-8', 'retry-after': '42' },
        body: JSON.stringify({
          type: 'https://redline.dev/problems/rate-limited',
          title: 'Too many requests',
          status: 429,
          detail: 'A code was sent to this address moments ago. Wait before asking for another.',
          code: 'rate_limited',
          retryAfterSeconds: 42,
        }),
      }),
    { times: 1 },
  );
  await page.goto('/sign-in');
  await page.getByLabel('E-mail').fill(email);
  const asked = Date.now();
  await page.getByRole('button', { name: 'Send code' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Too many attempts. You can try again in 42 seconds (at ');
  // The clock time is 42 s after the click, in the browser's own time format.
  const shown = /\(at (.+)\)\.$/.exec((await alert.textContent()) ?? '')?.[1];
  const candidates = await page.evaluate(
    (from) => [0, 1, 2, 3, 4, 5].map((s) => new Date(from + 42_000 + s * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' })),
    asked - 1000,
  );
  expect(candidates).toContain(shown);
  // The address field says it is in error, and the page stays on the e-mail step.
  await expect(page.getByLabel('E-mail')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('button', { name: 'Send code' })).toBeEnabled();
});

test('organisation switcher: a second organisation shows after a reload and switches the documents', async ({ page, request }) => {
  const stamp = `${Date.now()}-${randomBytes(2).toString('hex')}`;
  const userEmail = freshEmail('member');
  const ownerEmail = freshEmail('owner');
  const HOME_ORG = `Home Org ${stamp}`;
  const OTHER_ORG = `Other Org ${stamp}`;
  const user = await signUpThroughApi(request, userEmail, HOME_ORG);
  await uploadThroughApi(request, user, 'Home contract.docx', buildKindSample('insert'));

  await signInThroughUi(page, userEmail);
  await expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Home contract.docx', exact: true })).toBeVisible();
  // One organisation: its name, no switcher.
  const header = page.getByRole('banner');
  await expect(header.getByText(HOME_ORG)).toBeVisible();
  await expect(page.getByLabel('Organisation')).toHaveCount(0);

  // Another owner signs up and invites this user into their organisation.
  const owner = await signUpThroughApi(request, ownerEmail, OTHER_ORG);
  await uploadThroughApi(request, owner, 'Other contract.docx', buildKindSample('delete'));
  const invited = await request.post('/api/org/members', { headers: owner.headers, data: { email: userEmail } });
  expect(invited.status()).toBe(201);

  await page.reload();
  const switcher = page.getByLabel('Organisation');
  await expect(switcher).toBeVisible();
  await expect(switcher.getByRole('option')).toHaveText([HOME_ORG, OTHER_ORG], { useInnerText: true });
  await expect(switcher.locator('option:checked')).toHaveText(HOME_ORG);

  await switcher.selectOption({ label: OTHER_ORG });
  await expect(page.getByRole('heading', { name: 'Other contract.docx', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Home contract.docx', exact: true })).toHaveCount(0);
  // Every call now acts for the other organisation, and a reload keeps the choice.
  await page.reload();
  await expect(page.getByLabel('Organisation').locator('option:checked')).toHaveText(OTHER_ORG);
  await expect(page.getByRole('heading', { name: 'Other contract.docx', exact: true })).toBeVisible();

  await page.getByLabel('Organisation').selectOption({ label: HOME_ORG });
  await expect(page.getByRole('heading', { name: 'Home contract.docx', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Other contract.docx', exact: true })).toHaveCount(0);
});
