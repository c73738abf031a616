import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { buildDocx, by, del, ins, p } from '../src/docx/fixture/index';
import { codeSessionThroughApi, expectNoAxeViolations, signInThroughUi } from './helpers';

/**
 * Issue 24 item 10 on the documents page: a series keeps its first version's name when the
 * counterparty's file comes back under another name; a comparison's redline is listed as a
 * comparison, never stands for the review's progress and never hides the untracked warning;
 * a review of an older version is no review of the latest; comparing identical versions says
 * so and adds nothing.
 */

const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const SCREENS = path.resolve('.tmp/screens');
const counterparty = by('Counterparty LLP', '2026-11-20T10:00:00Z');

const SENT = buildDocx({
  body: [
    p('1. The Supplier shall deliver the goods within 30 days of the order.'),
    p('2. The Customer shall pay each invoice within 60 days.'),
  ],
});
/** Their turn: a tracked change, and 30 days quietly became 90 days. */
const RETURNED = buildDocx({
  body: [
    p('1. The Supplier shall deliver the goods within 90 days of the order.'),
    p('2. The Customer shall pay each invoice within ', del(counterparty, '60'), ins(counterparty, '45'), ' days.'),
  ],
});

async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENS, { recursive: true });
  for (const [width, height] of [[1440, 900], [390, 844]] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: path.join(SCREENS, `${name}-${width}x${height}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('a series keeps its name, lists a comparison as one, keeps its review and warning, and says when versions are identical', async ({ page, request }) => {
  test.setTimeout(120_000);
  const email = `desk-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;
  const session = await codeSessionThroughApi(request, email, '/api/auth/sign-up/request-code', { identifier: email, name: 'Dana Desk', organisation: 'Desk LLP' });
  const NAME = `Supply Agreement ${Date.now()}.docx`;
  const THEIRS = 'Supply Agreement (Counterparty comments).docx';
  const v1 = (await (await request.post('/api/uploads', {
    headers: session.headers, multipart: { purpose: 'source_doc', file: { name: NAME, mimeType: DOCX_MIME, buffer: Buffer.from(SENT) } },
  })).json()) as { id: string };
  // v2: the lawyer's review draft; v3: their version, under their file name.
  const review = (await (await request.post(`/api/uploads/${v1.id}/working-draft`, { headers: session.headers })).json()) as { id: string };
  const added = await request.post(`/api/uploads/${v1.id}/versions`, {
    headers: session.headers, multipart: { file: { name: THEIRS, mimeType: DOCX_MIME, buffer: Buffer.from(RETURNED) } },
  });
  expect(added.status()).toBe(201);
  const v3 = (await added.json()) as { id: string };
  await expect.poll(async () => (await request.get(`/api/uploads/${v3.id}/untracked`, { headers: session.headers })).status(), { timeout: 30_000 }).toBe(200);

  await page.setViewportSize({ width: 1440, height: 900 });
  await signInThroughUi(page, email);
  // The series is still known by the name it was sent under.
  const series = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: NAME, exact: true }) });
  await expect(series).toHaveCount(1);
  await expect(page.getByRole('heading', { name: THEIRS })).toHaveCount(0);
  await expect(series.getByTestId('untracked-warning')).toContainText(/in v3 (was|were) made without tracking/);

  // Compare v3 with v1: the redline opens in review.
  await page.getByRole('button', { name: `Versions of ${NAME}` }).click();
  await series.getByRole('button', { name: `Compare with… (v3 of ${THEIRS})` }).click();
  const dialog = page.getByRole('dialog', { name: 'Compare v3 with…' });
  await dialog.getByLabel('Older version').selectOption({ index: 1 });
  await expect(dialog.getByLabel('Older version')).toHaveValue(v1.id);
  await dialog.getByRole('button', { name: 'Compare and review' }).click();
  await expect(page).toHaveURL(/\/documents\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('comparison-banner')).toContainText('what changed in v3 since v1');
  const redlineId = page.url().split('/').pop()!;

  // Back on the documents page: the lawyer's draft reviews v1, not their v3, so the redline of v3
  // is the matter's review in progress (issue 34.2), with its progress; the draft stays listed,
  // opened from its own row, and so does v3's warning.
  await page.getByRole('link', { name: 'All documents' }).click();
  await expect(series).toContainText('4 versions');
  await expect(series.getByTestId('series-comparison')).toHaveText('Comparison v3 with v1');
  await expect(series.getByRole('link', { name: `Review ${NAME}` })).toHaveAttribute('href', `/documents/${redlineId}`);
  await expect(series.getByRole('button', { name: `Start review of ${NAME}` })).toHaveCount(0);
  await expect(series.getByTestId('untracked-warning')).toContainText(/in v3 (was|were) made without tracking/);
  const toggle = page.getByRole('button', { name: `Versions of ${NAME}` });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await expect(series.getByRole('list', { name: `Versions of ${NAME}` })).toContainText('Comparison v3 with v1');
  await expect(series.getByRole('link', { name: `Open ${NAME} v2` })).toHaveAttribute('href', `/documents/${review.id}`);

  // v2 (the review draft, v1's bytes) against v1: identical, said in the dialog; nothing added, no navigation.
  await series.getByRole('button', { name: `Compare with… (v2 of ${NAME})` }).click();
  const same = page.getByRole('dialog', { name: 'Compare v2 with…' });
  await same.getByRole('button', { name: 'Compare and review' }).click();
  await expect(same.getByRole('status')).toHaveText('v2 and v1 are identical: nothing to review.');
  await expect(page).toHaveURL(/\/documents\/?$/);
  await expectNoAxeViolations(page);
  await screenshot(page, 'desk-identical');
  await same.getByRole('button', { name: 'Cancel' }).click();
  await expect(series).toContainText('4 versions');
  await expectNoAxeViolations(page);
  await screenshot(page, 'desk-series');

  // Rename series renames it (its first version); the versions keep their own names.
  const RENAMED = `Master Supply Agreement ${Date.now()}.docx`;
  await series.getByRole('button', { name: `Rename series ${NAME}` }).click();
  const rename = page.getByRole('dialog', { name: 'Rename' });
  await rename.getByLabel('File name').fill(RENAMED);
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`Renamed the series to ${RENAMED}.`)).toBeVisible();
  await expect(page.getByRole('heading', { name: RENAMED, exact: true })).toBeVisible();
});
