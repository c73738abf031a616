import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { buildDemoContract } from '../src/docx/fixture/index';
import { codeSessionThroughApi, signInThroughUi, type ApiSession } from './helpers';

/**
 * Reviewing on a bad connection and together: decisions made with the service out of reach
 * wait on the device (through a reload) and are sent when it returns, exactly once even when
 * a first send timed out after the service applied it; a queued decision someone else made
 * first is reported with who and how; two browsers on one draft see each other's decisions.
 */

const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

function freshEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
}

interface Draft {
  owner: ApiSession;
  ownerEmail: string;
  draftId: string;
}

/** A new organisation (owner signed up over the API) with a working draft of the demo contract. */
async function newDraft(request: APIRequestContext): Promise<Draft> {
  const ownerEmail = freshEmail('owner');
  const owner = await codeSessionThroughApi(request, ownerEmail, '/api/auth/sign-up/request-code', { identifier: ownerEmail, name: 'Olivia Owner', organisation: 'Live LLP' });
  const upload = await request.post('/api/uploads', {
    headers: owner.headers,
    multipart: { purpose: 'source_doc', file: { name: 'Live MSA.docx', mimeType: DOCX_MIME, buffer: Buffer.from(buildDemoContract()) } },
  });
  expect(upload.status()).toBe(201);
  const draft = await request.post(`/api/uploads/${(await upload.json()).id}/working-draft`, { headers: owner.headers });
  expect(draft.status()).toBe(201);
  return { owner, ownerEmail, draftId: (await draft.json()).id };
}

async function openReview(page: Page, email: string, draftId: string): Promise<void> {
  await signInThroughUi(page, email);
  await expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible();
  await page.goto(`/documents/${draftId}`);
  await expect(page.getByRole('listbox', { name: 'Changes' }).getByRole('option').first()).toBeVisible();
}

/** The n-th entry of the list: one per edit ("Change 5"; the demo's second entry is "Changes 2–3"). */
function option(page: Page, n: number) {
  return page.locator('[role=option][data-change-id]').nth(n - 1);
}

async function changeIds(page: Page): Promise<string[]> {
  return page.evaluate(() => [...document.querySelectorAll<HTMLElement>('[role=option][data-change-id]')].map((el) => el.dataset.changeId!));
}

async function trackOf(request: APIRequestContext, session: ApiSession, draftId: string): Promise<Record<string, { state: string; decidedByUserId?: string | null }>> {
  const res = await request.get(`/api/documents/${draftId}/review`, { headers: session.headers });
  expect(res.ok()).toBe(true);
  const body = (await res.json()) as { track: { items: { id: string; state: string; decidedByUserId?: string | null }[] } };
  return Object.fromEntries(body.track.items.map((i) => [i.id, i]));
}

test('decisions wait for the network through a reload, go exactly once, and a refused one says who decided it', async ({ page, request }) => {
  test.setTimeout(120_000);
  const { owner, ownerEmail, draftId } = await newDraft(request);
  // The connection to the service is bad from the start: the live stream cannot connect, and
  // (below) batches cannot be sent either.
  const cut = async (route: { abort(reason: string): Promise<void> }) => route.abort('internetdisconnected');
  await page.route('**/api/documents/*/events', cut);
  await openReview(page, ownerEmail, draftId);
  const ids = await changeIds(page);
  await page.route('**/api/documents/*/revisions/**', cut);
  await option(page, 1).click();
  await page.keyboard.press('a');
  await page.keyboard.press('r');
  await page.keyboard.press('a');
  await expect(page.getByTestId('saving')).toHaveText('3 decisions waiting to be sent');
  await expect(option(page, 1)).toHaveAttribute('data-state', 'in');
  await expect(option(page, 2)).toHaveAttribute('data-state', 'back');
  await expect(option(page, 3)).toHaveAttribute('data-state', 'in');
  await expect(page.getByRole('alert')).toHaveCount(0);

  // Meanwhile someone else (the owner's other session, over the API) accepts Change 4 ...
  expect((await request.post(`/api/documents/${draftId}/revisions/apply`, { headers: owner.headers, data: { accepted_change_ids: [ids[3]] } })).ok()).toBe(true);
  // ... while this tab, still offline, rejects it.
  await option(page, 4).click();
  await page.keyboard.press('r');
  await expect(page.getByTestId('saving')).toHaveText('4 decisions waiting to be sent');

  // A reload (or a closed laptop) keeps them: they come back from IndexedDB, shown as decided.
  // The page asks before it goes (decisions wait); the reviewer leaves all the same.
  const asked = page.waitForEvent('dialog').then(async (dialog) => {
    const type = dialog.type();
    await dialog.accept();
    return type;
  });
  await page.reload();
  expect(await asked).toBe('beforeunload');
  await expect(option(page, 1)).toHaveAttribute('data-state', 'in');
  await expect(option(page, 2)).toHaveAttribute('data-state', 'back');
  await expect(option(page, 4)).toHaveAttribute('data-state', 'back');
  await expect(page.getByTestId('saving')).toHaveText('4 decisions waiting to be sent');
  expect((await trackOf(request, owner, draftId))[ids[0]!]!.state).toBe('open');

  // The connection returns: the batches go in order; the one the service refuses says why and who.
  await page.unrouteAll();
  await expect(page.getByTestId('saving')).toHaveText('All decisions saved', { timeout: 40_000 });
  await expect(page.getByRole('alert')).toContainText('Could not reject Change 5: Olivia Owner had already accepted it');
  await expect(page.getByTestId('refused')).toContainText('1 decision was not applied');
  await expect(option(page, 4)).toHaveAttribute('data-state', 'in');
  const track = await trackOf(request, owner, draftId);
  expect([track[ids[0]!]!.state, track[ids[1]!]!.state, track[ids[2]!]!.state, track[ids[3]!]!.state]).toEqual(['in', 'back', 'in', 'in']);

  // A batch whose first send timed out after the service had applied it: sent again with the
  // same Idempotency-Key, the service answers the recorded result and applies nothing twice.
  let first = true;
  const keys: string[] = [];
  await page.route('**/api/documents/*/revisions/apply', async (route) => {
    keys.push(route.request().headers()['idempotency-key'] ?? '');
    if (!first) return route.continue();
    first = false;
    const applied = await route.fetch();
    expect(applied.status()).toBe(200);
    await route.abort('timedout');
  });
  const replay = page.waitForResponse((r) => r.url().endsWith('/revisions/apply') && r.headers()['idempotent-replayed'] === 'true', { timeout: 30_000 });
  await option(page, 5).click();
  await page.keyboard.press('a');
  expect((await replay).status()).toBe(200);
  await expect(page.getByTestId('saving')).toHaveText('All decisions saved');
  expect(keys).toHaveLength(2);
  expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  expect(keys[1]).toBe(keys[0]);
  await expect(option(page, 5)).toHaveAttribute('data-state', 'in');
  // Undo takes back exactly that batch (there is one of it), and Change 3 stays accepted.
  await page.keyboard.press('u');
  await expect(page.getByTestId('notice')).toContainText('Undid the last batch');
  const after = await trackOf(request, owner, draftId);
  expect(after[ids[4]!]!.state).toBe('open');
  expect(after[ids[2]!]!.state).toBe('in');
});

async function signedInContext(browser: Browser, email: string, draftId: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await openReview(page, email, draftId);
  return page;
}

test("two browsers on one draft see each other's decisions within a second, and who else is there", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const { owner, ownerEmail, draftId } = await newDraft(request);
  const priyaEmail = freshEmail('priya');
  expect((await request.post('/api/org/members', { headers: owner.headers, data: { email: priyaEmail } })).status()).toBe(201);

  const olivia = await signedInContext(browser, ownerEmail, draftId);
  const priya = await signedInContext(browser, priyaEmail, draftId);
  await expect(olivia.getByTestId('viewers')).toContainText(/Also here: priya/i);
  await expect(priya.getByTestId('viewers')).toContainText('Also here: Olivia Owner');

  // Olivia accepts Change 4 (the third entry): Priya's list and document show it within a second.
  await option(olivia, 3).click();
  let pressed = Date.now();
  await olivia.keyboard.press('a');
  await expect(option(priya, 3)).toHaveAttribute('data-state', 'in', { timeout: 1_000 });
  const oliviaToPriya = Date.now() - pressed;
  await expect(priya.getByTestId('notice')).toContainText('Olivia Owner accepted Change 4');

  // And back: Priya rejects Change 5 (the fourth entry).
  await option(priya, 4).click();
  pressed = Date.now();
  await priya.keyboard.press('r');
  await expect(option(olivia, 4)).toHaveAttribute('data-state', 'back', { timeout: 1_000 });
  const priyaToOlivia = Date.now() - pressed;
  await expect(olivia.getByTestId('notice')).toContainText(/rejected Change 5/);
  test.info().annotations.push({ type: 'latency', description: `${oliviaToPriya} ms and ${priyaToOlivia} ms (key press to the other browser)` });

  // Priya undoes her batch: Change 5 is open again in Olivia's browser.
  await priya.keyboard.press('u');
  await expect(option(olivia, 4)).toHaveAttribute('data-state', 'open', { timeout: 2_000 });
  await expect(olivia.getByTestId('notice')).toContainText('undid a batch: Change 5 is open again');

  // The assistant's way in is the same log: a redline edit (here over the API) appears in both.
  const before = await priya.getByRole('listbox', { name: 'Changes' }).getByRole('option').count();
  expect((await request.post(`/api/documents/${draftId}/redlines`, { headers: owner.headers, data: { edits: [{ op: 'insert', find: 'Agreement', text: ' (as amended)', justification: 'Clarity.' }] } })).ok()).toBe(true);
  await expect(priya.getByRole('listbox', { name: 'Changes' }).getByRole('option')).not.toHaveCount(before, { timeout: 5_000 });
  await expect(priya.getByTestId('notice')).toContainText('proposed');

  // Priya leaves: Olivia sees she is alone again.
  await priya.context().close();
  await expect(olivia.getByTestId('viewers')).toHaveText('Nobody else has this draft open', { timeout: 10_000 });
  await olivia.context().close();
});
