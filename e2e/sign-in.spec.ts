import { expect, test } from '@playwright/test';
import { DEMO_CONTRACT, DEMO_EMAIL, codeFromMailbox, expectNoAxeViolations, signInThroughUi } from './helpers';

test('signs in with an e-mail code and lists the demo contract', async ({ page }) => {
  await page.goto('/documents');
  // Signed out: any page sends you to sign-in first.
  await expect(page).toHaveURL(/\/sign-in$/);
  await expectNoAxeViolations(page);

  await signInThroughUi(page);
  await expect(page).toHaveURL(/\/documents$/);
  await expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible();
  // The seed has an original and a working draft of the demo contract; the draft opens review.
  const draftLink = page.getByRole('link', { name: DEMO_CONTRACT });
  await expect(draftLink).toHaveCount(1);
  const series = page.getByRole('rowgroup', { name: `Series ${DEMO_CONTRACT}` });
  await expect(series.getByRole('cell', { name: 'Working draft', exact: true })).toBeVisible();
  await expect(series.getByRole('cell', { name: 'Original', exact: true })).toBeVisible();
  await expectNoAxeViolations(page);

  // The token is in sessionStorage, never in the address bar.
  expect(page.url()).not.toMatch(/token/i);
  const stored = await page.evaluate(() => sessionStorage.getItem('redline.session'));
  expect(stored).toContain('token');
});

test('says clearly when a code is wrong', async ({ page }) => {
  await page.goto('/sign-in');
  await page.getByLabel('E-mail').fill(DEMO_EMAIL);
  const asked = Date.now();
  await page.getByRole('button', { name: 'Send code' }).click();
  const code = await codeFromMailbox(page.request, DEMO_EMAIL, asked);
  const wrong = code.endsWith('0') ? `${code.slice(0, 7)}1` : `${code.slice(0, 7)}0`;
  await page.getByLabel('Code', { exact: true }).fill(wrong);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText('That code is not right');
  await expectNoAxeViolations(page);
});

test('a 401 returns to sign-in and then back to where the user was', async ({ page }) => {
  await signInThroughUi(page);
  await expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible();
  // End the session behind the app's back: the next call answers 401.
  await page.evaluate(() => {
    const raw = sessionStorage.getItem('redline.session');
    if (raw) sessionStorage.setItem('redline.session', JSON.stringify({ ...JSON.parse(raw), token: 'revoked-token' }));
  });
  await page.goto('/documents?from=test');
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByRole('status')).toContainText('session has ended');
  await signInThroughUi(page);
  await expect(page).toHaveURL(/\/documents\?from=test$/);
});
