import path from 'node:path';
import { expect, test } from '@playwright/test';
import { buildDocx, by, del, ins, listItem, p } from '../src/docx/fixture/index';
import { signInThroughApi, signInThroughUi } from './helpers';

/**
 * Issue 35 in the review page: on the current change, what accepting and what rejecting it would
 * break; the Checks list beside the changes. Screenshots at 1440 and 390 under .tmp/screenshots/.
 */
const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const SHOTS = path.resolve('.tmp/screenshots');
const alex = by('Alex Chen (Counsel)', '2025-03-01T10:00:00Z');

async function draftWithConsequences(request: Parameters<typeof signInThroughApi>[0]): Promise<string> {
  const api = await signInThroughApi(request);
  const bytes = buildDocx({
    body: [
      p('This Licence is made between Acme Widgets Corporation (the “Licensee”) and Beta Labs Limited (the “Licensor”).'),
      listItem('decimal', 0, del(alex, '“Affiliate” means any entity controlling or controlled by the Licensee.')),
      listItem('decimal', 0, 'The Licensor may license the Licensee’s Affiliates, and each Affiliate shall comply with Schedule 2.'),
      listItem('decimal', 0, 'The Licensee shall pay the fee of [●] within thirty days', ins(alex, ' and the Licencee shall report quarterly'), '.'),
      listItem('decimal', 0, 'The Licensor shall send its notices to the Licencee by email.'),
    ],
  });
  const upload = await request.post('/api/uploads', {
    headers: api.headers,
    multipart: { purpose: 'source_doc', file: { name: `Licence ${Date.now()}.docx`, mimeType: DOCX_MIME, buffer: Buffer.from(bytes) } },
  });
  expect(upload.status()).toBe(201);
  const draft = await request.post(`/api/uploads/${((await upload.json()) as { id: string }).id}/working-draft`, { headers: api.headers });
  return ((await draft.json()) as { id: string }).id;
}

for (const size of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  test(`the current change says what accepting it would break, and the Checks list lists the findings (${size.width})`, async ({ page, request }) => {
    await page.setViewportSize(size);
    const draftId = await draftWithConsequences(request);
    await signInThroughUi(page);
    await expect(page).toHaveURL(/\/documents$/);
    await page.goto(`/documents/${draftId}`);
    await expect(page.locator('[data-testid=document-render][data-rendered=true]')).toBeAttached({ timeout: 20_000 });
    // The first change is the deleted definition.
    const consequences = page.getByTestId('consequences');
    await expect(consequences).toContainText('Accepting it would break', { timeout: 20_000 });
    await expect(consequences).toContainText('“Affiliate” is used twice as a defined term but is defined nowhere in the document.');
    await page.screenshot({ path: path.join(SHOTS, `checks-current-${size.width}.png`), fullPage: false });
    // On a phone the Checks list sits with the changes' list, behind its toggle.
    if (size.width < 768) await page.getByRole('button', { name: /^All changes/ }).click();
    const checks = page.getByTestId('checks-list');
    await checks.locator('summary').click();
    await expect(checks.getByRole('list', { name: 'Checks' }).getByRole('listitem')).toHaveCount(5);
    await expect(checks).toContainText('Schedule 2 is cited, but the document has no schedule 2.');
    await page.screenshot({ path: path.join(SHOTS, `checks-${size.width}.png`), fullPage: false });

    // Walking the list: the misspelling typed in the text has a certain fix (the one in a tracked insertion has none).
    const variants = checks.locator('li[data-kind=term_variant]');
    await expect(variants).toHaveCount(2);
    const fixable = variants.filter({ has: page.getByRole('button', { name: 'Propose “Licensee”' }) });
    if (size.width >= 768) {
      // With the keys: ] until the fixable finding is current, then f.
      for (let i = 0; i < 6 && (await fixable.getAttribute('aria-current')) !== 'true'; i++) await page.keyboard.press(']');
      await expect(fixable).toHaveAttribute('aria-current', 'true');
      await page.screenshot({ path: path.join(SHOTS, `checks-walk-${size.width}.png`), fullPage: false });
      await page.keyboard.press('f');
    } else {
      await fixable.getByRole('button', { name: 'Propose “Licensee”' }).click();
    }
    await expect(page.getByText('The fix is proposed as a tracked change by Redline checks.')).toBeVisible({ timeout: 20_000 });
    // The draft reloads with the proposal among its changes, and the finding is gone from the accepted view.
    await expect(variants).toHaveCount(1, { timeout: 20_000 });
    await page.screenshot({ path: path.join(SHOTS, `checks-proposed-${size.width}.png`), fullPage: false });

    // The documents page shows the draft's count of findings once the service has computed them.
    const count = page.locator('li, article, section').filter({ hasText: 'Licence' }).getByTestId('findings-count').first();
    await expect(async () => {
      await page.goto('/documents');
      await expect(count).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect(count).toHaveText(/· \d+ check findings?/);
    await page.screenshot({ path: path.join(SHOTS, `checks-documents-${size.width}.png`), fullPage: false });
  });
}
