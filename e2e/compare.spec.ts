import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { buildDocx, by, del, ins, p } from '../src/docx/fixture/index';
import { comparisonAnswer } from '../src/app/api/compare';
import { contractText, decideAll } from '../test/support/compare-contract';
import { NoUntrackedEdits } from '../src/contract/compare';
import { ROUTES } from '../src/contract/routes';
import { codeSessionThroughApi, expectNoAxeViolations, signInThroughUi } from './helpers';

/**
 * Issue 12 as a lawyer meets it: the counterparty sends back the next version, with some edits
 * tracked and one not. The documents page warns about the untracked one as soon as the check
 * is done; one action turns it into a tracked change to review beside theirs. "Compare with…"
 * makes a redline of any two versions and opens it in review.
 */

const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const SCREENS = path.resolve('.tmp/screens');
const counterparty = by('Counterparty LLP', '2026-11-20T10:00:00Z');

const SENT = buildDocx({
  body: [
    p('1. The Supplier shall deliver the goods within 30 days of the order.'),
    p('2. The Customer shall pay each invoice within 60 days.'),
    p('3. This agreement is governed by the laws of England.'),
  ],
});
/** Their turn: two tracked changes, and 30 days quietly became 90 days. */
const RETURNED = buildDocx({
  body: [
    p('1. The Supplier shall deliver the goods within 90 days of the order.'),
    p('2. The Customer shall pay each invoice within 60 days', ins(counterparty, ' of receipt'), '.'),
    p('3. This agreement is governed by the laws of ', del(counterparty, 'England'), ins(counterparty, 'Wales'), '.'),
  ],
});

/** Their next turn: one more change, tracked (the rest as they sent it), so nothing untracked since v2. */
const ALL_TRACKED = buildDocx({
  body: [
    p('1. The Supplier shall deliver the goods within 90 days of the order', ins(counterparty, ' placed in writing'), '.'),
    p('2. The Customer shall pay each invoice within 60 days', ins(counterparty, ' of receipt'), '.'),
    p('3. This agreement is governed by the laws of ', del(counterparty, 'England'), ins(counterparty, 'Wales'), '.'),
  ],
});

async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENS, { recursive: true });
  for (const [width, height] of [[1440, 900], [390, 844]] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: path.join(SCREENS, `${name}-${width}x${height}.png`) });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('a version with untracked edits is flagged, reviewed as tracked changes, and compared with the version before', async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const email = `compare-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
  await codeSessionThroughApi(request, email, '/api/auth/sign-up/request-code', { identifier: email, name: 'Lena Lawyer', organisation: 'Lawyer LLP' });
  await signInThroughUi(page, email);
  await expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible();

  // Our draft goes out as v1.
  const FILE = `Supply Agreement ${Date.now()}.docx`;
  const upload = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await (await upload).setFiles({ name: FILE, mimeType: DOCX_MIME, buffer: Buffer.from(SENT) });
  await expect(page.getByText(`Uploaded ${FILE}.`)).toBeVisible();
  // One entry per series; versions and their actions wait behind "Versions".
  const series = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: FILE, exact: true }) });
  const openVersions = async () => {
    const toggle = page.getByRole('button', { name: `Versions of ${FILE}` });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  };
  await openVersions();
  // A single version has nothing to compare with.
  await expect(series.getByRole('button', { name: `Compare with… (v1 of ${FILE})` })).toBeDisabled();

  // Their version comes back as v2: the warning appears by itself once the check is done.
  const version = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: `Upload new version of ${FILE}` }).click();
  await (await version).setFiles({ name: FILE, mimeType: DOCX_MIME, buffer: Buffer.from(RETURNED) });
  await expect(page.getByText(`Added version 2 of ${FILE}.`)).toBeVisible();
  const warning = series.getByTestId('untracked-warning');
  await expect(warning).toHaveCount(1);
  await expect(warning).toContainText(/\d+ edits? in v2 (was|were) made without tracking/);
  const untrackedCount = Number((await warning.textContent())!.match(/(\d+) edit/)![1]);
  expect(untrackedCount).toBeGreaterThan(0);
  // The sign sits beside the sentence (on its first line), never alone on a line of its own in the entry's narrow column.
  for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size);
    const icon = (await warning.getByText('⚠', { exact: true }).boundingBox())!;
    const sentence = (await warning.getByText(/made without tracking\.$/).boundingBox())!;
    expect(icon.x + icon.width).toBeLessThanOrEqual(sentence.x);
    expect(Math.abs(icon.y - sentence.y)).toBeLessThan(4);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await expectNoAxeViolations(page);
  await screenshot(page, 'documents-untracked-warning');

  // One action: a working draft where those edits are tracked changes beside theirs, in review.
  await warning.getByRole('button', { name: 'Review them as tracked changes' }).click();
  await expect(page).toHaveURL(/\/documents\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('comparison-banner')).toContainText('Changes by “Untracked edit” are the edits made in v2 without tracking');
  const untrackedDraftId = page.url().split('/').pop()!;
  const list = page.getByRole('listbox', { name: 'Changes' });
  // One entry per edit: a replaced word is one entry however many changes it takes.
  await expect(list.getByRole('option').filter({ hasText: 'Counterparty LLP' }).first()).toBeVisible();
  const untrackedEntries = await list.getByRole('option').filter({ hasText: 'Untracked edit' }).count();
  expect(untrackedEntries).toBeGreaterThan(0);
  expect(untrackedEntries).toBeLessThanOrEqual(untrackedCount);
  const entries = await list.getByRole('option').count();
  expect(entries).toBeLessThanOrEqual(untrackedCount + 3);
  await expectNoAxeViolations(page);
  await screenshot(page, 'review-untracked-draft');
  // Reject the untracked change, from the keyboard, like any other.
  await list.getByRole('option').filter({ hasText: 'Untracked edit' }).first().click();
  await page.keyboard.press('r');
  await expect(page.getByTestId('progress')).toHaveText(`1 of ${entries} decided`);

  // Back on the documents page that draft is v2's review, listed as what it is; the warning's
  // action opens it again rather than add another draft of the same edits.
  await page.getByRole('link', { name: 'All documents' }).click();
  await expect(series.getByRole('link', { name: `Review ${FILE}` })).toHaveAttribute('href', `/documents/${untrackedDraftId}`);
  await expect(warning.getByRole('link', { name: 'Review them as tracked changes' })).toHaveAttribute('href', `/documents/${untrackedDraftId}`);
  await openVersions();
  await expect(series.getByRole('list', { name: `Versions of ${FILE}` }).getByRole('listitem').first()).toContainText('Untracked edits in v2');

  // Compare with…: v2 against v1 (preselected), and the redline opens in review at once.
  await series.getByRole('button', { name: `Compare with… (v2 of ${FILE})` }).click();
  const dialog = page.getByRole('dialog', { name: 'Compare v2 with…' });
  await expect(dialog.getByLabel('Older version')).toHaveValue(await versionId(page, FILE, 1));
  await expectNoAxeViolations(page);
  await screenshot(page, 'compare-dialog');
  await dialog.getByRole('button', { name: 'Compare and review' }).click();
  await expect(page).toHaveURL(/\/documents\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('comparison-banner')).toContainText(/Comparison: what changed in v2 since v1, as \d+ changes? by “Comparison”\./);
  // The version compared has untracked edits: the review says so at the top too.
  await expect(page.getByTestId('untracked-warning')).toContainText(`in v2 ${untrackedCount === 1 ? 'was' : 'were'} made without tracking`);
  await expect(list.getByRole('option').first()).toContainText('Comparison');
  await expectNoAxeViolations(page);
  await screenshot(page, 'review-comparison');

  // Back on the documents page: the two drafts joined the series as v3 and v4.
  await page.getByRole('link', { name: 'All documents' }).click();
  await expect(series).toContainText('4 versions');

  // Their next turn, v5, tracks everything it changes. It follows v2, the version they sent
  // (never the comparison listed above it), and has no untracked edit: no warning, and the
  // untracked-edit draft says there is nothing to review instead of adding an empty draft.
  await openVersions();
  const next = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: `Upload new version of ${FILE}` }).click();
  await (await next).setFiles({ name: FILE, mimeType: DOCX_MIME, buffer: Buffer.from(ALL_TRACKED) });
  await expect(page.getByText(`Added version 5 of ${FILE}.`)).toBeVisible();
  const v2 = await versionId(page, FILE, 2);
  const v5 = await versionId(page, FILE, 5);
  const check = await untrackedCall(page, 'GET', v5);
  expect(check).toMatchObject({ status: 200, body: { against: v2, count: 0 } });
  await expect(series.getByTestId('untracked-warning')).toHaveCount(0);
  const drafted = await untrackedCall(page, 'POST', v5);
  expect(drafted.status).toBe(200);
  expect(NoUntrackedEdits.parse(drafted.body)).toEqual({ nothingToReview: true, uploadId: v5, against: v2 });
  // The app reads that answer as nothing to review (what the warning's action says instead of opening a draft).
  const read = await comparisonAnswer(ROUTES.untrackedWorkingDraft, new Response(JSON.stringify(drafted.body), { status: drafted.status }), NoUntrackedEdits);
  expect(read).toEqual({ nothingToReview: true, uploadId: v5, against: v2 });
  await page.reload();
  await expect(series).toContainText('5 versions');
});

test("a comparison is the series' review in progress; a review of the version itself drafts from the version, never from the redline", async ({ page, request }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const email = `start-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
  const session = await codeSessionThroughApi(request, email, '/api/auth/sign-up/request-code', { identifier: email, name: 'Sam Start', organisation: 'Start LLP' });
  const FILE = `Supply Agreement ${Date.now()}.docx`;
  const v1 = (await (await request.post('/api/uploads', {
    headers: session.headers, multipart: { purpose: 'source_doc', file: { name: FILE, mimeType: DOCX_MIME, buffer: Buffer.from(SENT) } },
  })).json()) as { id: string };
  const added = await request.post(`/api/uploads/${v1.id}/versions`, {
    headers: session.headers, multipart: { file: { name: FILE, mimeType: DOCX_MIME, buffer: Buffer.from(RETURNED) } },
  });
  expect(added.status()).toBe(201);
  const v2 = (await added.json()) as { id: string };
  await signInThroughUi(page, email);
  const series = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: FILE, exact: true }) });

  // Compare v2 with v1: the redline (v3, a working draft) opens in review.
  await page.getByRole('button', { name: `Versions of ${FILE}` }).click();
  await series.getByRole('button', { name: `Compare with… (v2 of ${FILE})` }).click();
  await page.getByRole('dialog', { name: 'Compare v2 with…' }).getByRole('button', { name: 'Compare and review' }).click();
  await expect(page.getByTestId('comparison-banner')).toContainText('what changed in v2 since v1');
  const redlineId = page.url().split('/').pop()!;

  // Back on the documents page the comparison is v2's review in progress, with its progress (issue 34.2):
  // "Review" opens it, and nothing invites a second review of v2 beside it.
  await page.getByRole('link', { name: 'All documents' }).click();
  await expect(series).toContainText('3 versions');
  await expect(series.getByTestId('series-comparison')).toHaveText('Comparison v2 with v1');
  await expect(series).toContainText(/0 of \d+ decided/);
  await expect(series).not.toContainText('No working draft yet');
  await expect(series.getByRole('link', { name: `Review ${FILE}` })).toHaveAttribute('href', `/documents/${redlineId}`);
  await expect(series.getByRole('button', { name: `Start review of ${FILE}` })).toHaveCount(0);
  await screenshot(page, 'documents-comparison-in-review');
  // A review of v2 itself is still one action away (under Versions), and drafts from v2, never from the redline.
  await page.getByRole('button', { name: `Versions of ${FILE}` }).click();
  await series.getByRole('button', { name: `Start working draft from ${FILE} v2` }).click();
  await page.getByRole('link', { name: 'Review it now' }).click();
  await expect(page).toHaveURL(/\/documents\/[0-9a-f-]{36}$/);
  const reviewId = page.url().split('/').pop()!;
  expect(reviewId).not.toBe(redlineId);
  const review = (await (await request.get(`/api/uploads/${reviewId}`, { headers: session.headers })).json()) as { parentUploadId: string; artifactId: string | null; documentVersion: number };
  expect(review).toMatchObject({ parentUploadId: v2.id, artifactId: null, documentVersion: 4 });
  await expect(page.getByRole('region', { name: 'Current change' })).toBeVisible();
  await expect(page.getByTestId('comparison-banner')).toHaveCount(0);

  // Now "Review" opens that draft; v2's untracked warning stays (the draft is no version of the
  // matter); the redline is still there, opened as itself from its own row.
  await page.getByRole('link', { name: 'All documents' }).click();
  await expect(series.getByRole('link', { name: `Review ${FILE}` })).toHaveAttribute('href', `/documents/${reviewId}`);
  await expect(series.getByTestId('untracked-warning')).toContainText(/in v2 (was|were) made without tracking/);
  const toggle = page.getByRole('button', { name: `Versions of ${FILE}` });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect(series.getByRole('list', { name: `Versions of ${FILE}` })).toContainText('Comparison v2 with v1');
  await expect(series.getByRole('link', { name: `Open ${FILE} v3` })).toHaveAttribute('href', `/documents/${redlineId}`);
  // A redline is no base for a working draft (a draft of it would review no version); the versions still are.
  await expect(series.getByRole('button', { name: `Start working draft from ${FILE} v3` })).toHaveCount(0);
  await expect(series.getByRole('button', { name: `Start working draft from ${FILE} v2` })).toBeVisible();
});

/** The untracked check (GET) or the untracked-edit draft (POST) of a version, asked as the page asks. */
async function untrackedCall(page: Page, method: 'GET' | 'POST', uploadId: string): Promise<{ status: number; body: unknown }> {
  return page.evaluate(async ({ method, uploadId }) => {
    const session = JSON.parse(sessionStorage.getItem('redline.session') ?? 'null') as { token: string; orgId: string } | null;
    const url = `/api/uploads/${uploadId}/untracked${method === 'POST' ? '/working-draft' : ''}`;
    const res = await fetch(url, { method, headers: { authorization: `Bearer ${session?.token ?? ''}`, 'x-org-id': session?.orgId ?? '', prefer: 'wait=10' } });
    return { status: res.status, body: (await res.json()) as unknown };
  }, { method, uploadId });
}

/** The id of version `n` of a series, as the documents page shows it (read over the API the page uses). */
async function versionId(page: Page, fileName: string, n: number): Promise<string> {
  return page.evaluate(async ({ fileName, n }) => {
    const session = JSON.parse(sessionStorage.getItem('redline.session') ?? 'null') as { token: string; orgId: string } | null;
    const res = await fetch('/api/uploads?limit=100', { headers: { authorization: `Bearer ${session?.token ?? ''}`, 'x-org-id': session?.orgId ?? '' } });
    const rows = ((await res.json()) as { items: { id: string; fileName: string; documentVersion: number }[] }).items;
    return rows.find((row) => row.fileName === fileName && row.documentVersion === n)?.id ?? '';
  }, { fileName, n });
}

test('a moved clause is one change that shows, and jumps, in both its places', async ({ page, request }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const email = `move-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
  const session = await codeSessionThroughApi(request, email, '/api/auth/sign-up/request-code', { identifier: email, name: 'Max Mover', organisation: 'Mover LLP' });
  const clause = {
    a: 'A. The Supplier shall deliver the goods within 30 days of the order.',
    b: 'B. The Customer shall pay each invoice within 60 days of receipt.',
    c: 'C. This agreement is governed by the laws of England and Wales.',
    d: 'D. Neither party may assign this agreement without the consent of the other.',
  };
  const FILE = `Moves ${Date.now()}.docx`;
  const first = await request.post('/api/uploads', {
    headers: session.headers,
    multipart: { purpose: 'source_doc', file: { name: FILE, mimeType: DOCX_MIME, buffer: Buffer.from(buildDocx({ body: [p(clause.a), p(clause.b), p(clause.c), p(clause.d)] })) } },
  });
  const v1 = (await first.json()) as { id: string };
  const second = await request.post(`/api/uploads/${v1.id}/versions`, {
    headers: session.headers,
    multipart: { file: { name: FILE, mimeType: DOCX_MIME, buffer: Buffer.from(buildDocx({ body: [p(clause.a), p(clause.c), p(clause.d), p(clause.b)] })) } },
  });
  expect(second.status()).toBe(201);

  await signInThroughUi(page, email);
  // Versions and their actions wait behind "Versions" on the series entry.
  await page.getByRole('button', { name: `Versions of ${FILE}` }).click();
  await page.getByRole('button', { name: `Compare with… (v2 of ${FILE})` }).click();
  await page.getByRole('dialog', { name: 'Compare v2 with…' }).getByRole('button', { name: 'Compare and review' }).click();
  const list = page.getByRole('listbox', { name: 'Changes' });
  const moves = list.getByRole('option').filter({ hasText: 'Moved: B. The Customer' });
  await expect(moves).toHaveCount(1);
  await moves.click();
  await expect(page.getByTestId('move-places')).toContainText('One move, two places');
  // Current in both places at once: the source and the destination are highlighted.
  await expect(page.getByTestId('document-render').locator('.rl-here')).toHaveCount(2);
  await page.keyboard.press('m');
  await page.getByTestId('move-places').getByRole('button', { name: 'where it is now' }).click();
  await expectNoAxeViolations(page);
  await screenshot(page, 'review-move');
});

/**
 * Issue 34's NDA: both versions carry the same pending insertion by "Author" (the counterparty's
 * undecided clause); v2 adds edits nobody tracked. The comparison must keep that clause pending
 * under its author, not show it as agreed text, and list only the edits as the comparison's.
 */
test('a comparison keeps the pending insertion both versions carry under its author, beside the untracked edits', async ({ page, request }) => {
  test.setTimeout(120_000);
  const author = by('Author', '2026-10-01T09:00:00Z');
  const clause = 'Data Protection. The Company will comply with all applicable data protection laws.';
  const nda = (term: string, law: string) => buildDocx({
    body: [
      p('Mutual Non-Disclosure Agreement'),
      p(`1. Each party keeps the other's Confidential Information secret for ${term} years.`),
      p('2. ', ins(author, clause)),
      p(`3. This agreement is governed by the laws of ${law}.`),
    ],
  });
  const V1 = nda('five', 'England');
  const V2 = nda('three', 'Scotland');
  const email = `nda-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
  const session = await codeSessionThroughApi(request, email, '/api/auth/sign-up/request-code', { identifier: email, name: 'Nora Counsel', organisation: 'Counsel LLP' });
  const FILE = `Mutual NDA ${Date.now()}.docx`;
  const v1 = (await (await request.post('/api/uploads', {
    headers: session.headers, multipart: { purpose: 'source_doc', file: { name: FILE, mimeType: DOCX_MIME, buffer: Buffer.from(V1) } },
  })).json()) as { id: string };
  expect((await request.post(`/api/uploads/${v1.id}/versions`, {
    headers: session.headers, multipart: { file: { name: FILE, mimeType: DOCX_MIME, buffer: Buffer.from(V2) } },
  })).status()).toBe(201);

  await page.setViewportSize({ width: 1440, height: 900 });
  await signInThroughUi(page, email);
  await page.getByRole('button', { name: `Versions of ${FILE}` }).click();
  await page.getByRole('button', { name: `Compare with… (v2 of ${FILE})` }).click();
  const dialog = page.getByRole('dialog', { name: 'Compare v2 with…' });
  // The dialog says what each version holds and what will be done with it; keeping them is the default.
  await expect(dialog.getByTestId('compare-pending-counts')).toHaveText('v1 holds 1 pending tracked change; v2 holds 1.');
  await expect(dialog.getByRole('radio', { name: /Keep v2's pending tracked changes/ })).toBeChecked();
  await expect(dialog.getByRole('radio', { name: /Compare as Word does/ })).not.toBeChecked();
  await expectNoAxeViolations(page);
  await shoot(page, 'compare-dialog');
  await dialog.getByRole('button', { name: 'Compare and review' }).click();
  await expect(page).toHaveURL(/\/documents\/[0-9a-f-]{36}$/);

  const banner = page.getByTestId('comparison-banner');
  // Counted as the list counts: a replaced word is one change.
  await expect(banner).toContainText('Comparison: what changed in v2 since v1, as 2 changes by “Comparison”.');
  await expect(banner.getByTestId('comparison-pending')).toHaveText(
    'Pending tracked changes: v1 held 1, v2 held 1. v2\'s stays tracked under its own author. 1 of v1\'s is still pending in v2.');
  // The untracked edits are this comparison's own changes: said, in entries, with no second draft of them offered.
  await expect(page.getByTestId('untracked-warning')).toContainText('2 edits in v2 were made without tracking: they are among the changes by “Comparison” below.');
  await expect(page.getByRole('button', { name: 'Review them as tracked changes' })).toHaveCount(0);
  const list = page.getByRole('listbox', { name: 'Changes' });
  await expect(list.getByRole('option').filter({ hasText: 'Data Protection' })).toContainText('Author');
  await expect(list.getByRole('option').filter({ hasText: 'Data Protection' })).not.toContainText('Comparison');
  // The edits, each one entry by "Comparison" (a replaced word is one entry).
  await expect(list.getByRole('option').filter({ hasText: 'Comparison' })).toHaveCount(2);
  await expect(list.getByRole('option')).toHaveCount(3);
  await expectNoAxeViolations(page);
  await shoot(page, 'comparison-banner');
  // On a phone: one line with the essentials, the whole text a tap away (nothing cut off unread).
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(banner.getByTestId('comparison-banner-text')).toBeHidden();
  await expect(banner).toContainText('v1 → v2: 2 changes, 1 pending kept');
  await banner.getByRole('button', { name: 'Details' }).click();
  await expect(banner.getByTestId('comparison-pending')).toBeVisible();
  await expect(banner.getByRole('button', { name: 'Less' })).toHaveAttribute('aria-expanded', 'true');
  await shoot390(page, 'comparison-banner-details');
  await banner.getByRole('button', { name: 'Less' }).click();
  await page.setViewportSize({ width: 1440, height: 900 });

  // Accepting everything gives v2's accepted text.
  await page.getByRole('button', { name: 'Accept all shown' }).click();
  await page.getByRole('dialog', { name: 'Accept all 3 shown changes?' }).getByRole('button', { name: /Accept/ }).first().click();
  await expect(page.getByTestId('progress')).toHaveText('3 of 3 decided');
  const draftId = page.url().split('/').pop()!;
  const review = await page.evaluate(async (id) => {
    const s = JSON.parse(sessionStorage.getItem('redline.session') ?? 'null') as { token: string; orgId: string } | null;
    const res = await fetch(`/api/documents/${id}/review`, { headers: { authorization: `Bearer ${s?.token ?? ''}`, 'x-org-id': s?.orgId ?? '' } });
    return (await res.json()) as { contentBase64: string };
  }, draftId);
  expect(contractText(new Uint8Array(Buffer.from(review.contentBase64, 'base64')))).toEqual(contractText(decideAll(V2, 'accept')));

  // Compared as Word does, the banner says so; the dialog remembers the choice for this user.
  await page.getByRole('link', { name: 'All documents' }).click();
  const openDialog = async () => {
    const toggle = page.getByRole('button', { name: `Versions of ${FILE}` });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await page.getByRole('button', { name: `Compare with… (v2 of ${FILE})` }).click();
    return page.getByRole('dialog', { name: 'Compare v2 with…' });
  };
  const again = await openDialog();
  await again.getByRole('radio', { name: /Compare as Word does/ }).check();
  await again.getByRole('button', { name: 'Compare and review' }).click();
  await expect(banner.getByTestId('comparison-pending')).toHaveText(
    'Compared as if every tracked change were accepted (as Word compares). Pending tracked changes: v1 held 1, v2 held 1; none of them is shown as pending.');
  await expect(list.getByRole('option').filter({ hasText: 'Author' })).toHaveCount(0);
  await page.getByRole('link', { name: 'All documents' }).click();
  await expect((await openDialog()).getByRole('radio', { name: /Compare as Word does/ })).toBeChecked();
});

/** Screenshots at 1440x900 and 390x844, kept under /tmp/h34-shots (issue 34's notes show them). */
async function shoot(page: Page, name: string): Promise<void> {
  const dir = process.env.H34_SHOTS ?? SCREENS;
  mkdirSync(dir, { recursive: true });
  for (const [width, height] of [[1440, 900], [390, 844]] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: path.join(dir, `${name}-${width}x${height}.png`) });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test("Word's compare options: with case changes left out, a version that only changed case is identical; the choice is remembered", async ({ page, request }) => {
  test.setTimeout(90_000);
  const email = `options-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
  const session = await codeSessionThroughApi(request, email, '/api/auth/sign-up/request-code', { identifier: email, name: 'Olga Options', organisation: 'Options LLP' });
  const FILE = `Case ${Date.now()}.docx`;
  const text = (supplier: string) => buildDocx({ body: [p(`1. The ${supplier} shall deliver the goods within 30 days.`), p('2. The Customer shall pay within 60 days.')] });
  const v1 = (await (await request.post('/api/uploads', {
    headers: session.headers, multipart: { purpose: 'source_doc', file: { name: FILE, mimeType: DOCX_MIME, buffer: Buffer.from(text('Supplier')) } },
  })).json()) as { id: string };
  expect((await request.post(`/api/uploads/${v1.id}/versions`, {
    headers: session.headers, multipart: { file: { name: FILE, mimeType: DOCX_MIME, buffer: Buffer.from(text('SUPPLIER')) } },
  })).status()).toBe(201);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInThroughUi(page, email);
  await page.getByRole('button', { name: `Versions of ${FILE}` }).click();
  const openDialog = async () => {
    await page.getByRole('button', { name: `Compare with… (v2 of ${FILE})` }).click();
    return page.getByRole('dialog', { name: 'Compare v2 with…' });
  };
  const dialog = await openDialog();
  const options = dialog.getByTestId('compare-options');
  await expect(options).toContainText('as Word’s defaults');
  await options.getByText('Options').click();
  await options.getByRole('checkbox', { name: 'Case changes' }).uncheck();
  await expect(options).toContainText('(case ignored)');
  await expectNoAxeViolations(page);
  await shoot(page, 'compare-dialog-options');
  await dialog.getByRole('button', { name: 'Compare and review' }).click();
  await expect(dialog.getByRole('status')).toContainText('v2 and v1 are identical: nothing to review.');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  // Remembered for this user: the next comparison starts from the same options.
  await page.reload();
  await page.getByRole('button', { name: `Versions of ${FILE}` }).click();
  const again = await openDialog();
  await expect(again.getByTestId('compare-options')).toContainText('(case ignored)');
  await again.getByTestId('compare-options').getByText('Options').click();
  await expect(again.getByRole('checkbox', { name: 'Case changes' })).not.toBeChecked();
});

/** A screenshot at the phone size the page is already at (a disclosure opened there would close on resize). */
async function shoot390(page: Page, name: string): Promise<void> {
  const dir = process.env.H34_SHOTS ?? SCREENS;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}-390x844.png`) });
}
