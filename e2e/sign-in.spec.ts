import { expect, test } from '@playwright/test';
import { DEMO_CONTRACT, DEMO_EMAIL, codeFromMailbox, expectNoAxeViolations, newestMailId, signInThroughUi } from './helpers';

test('signs in with an e-mail code and lists the demo contract', async ({ page }) => {
  await page.goto('/documents');
  // Signed out: any page sends you to sign-in first.
  await expect(page).toHaveURL(/\/sign-in$/);
  await expectNoAxeViolations(page);

  await signInThroughUi(page);
  await expect(page).toHaveURL(/\/documents$/);
  await expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible();
  // The seed has an original and a working draft of the demo contract: one entry, whose name and
  // Review action open the draft, with both versions behind "Versions".
  await expect(page.getByRole('link', { name: DEMO_CONTRACT, exact: true })).toHaveCount(1);
  await expect(page.getByRole('link', { name: `Review ${DEMO_CONTRACT}`, exact: true })).toHaveCount(1);
  await page.getByRole('button', { name: `Versions of ${DEMO_CONTRACT}` }).click();
  const versions = page.getByRole('list', { name: `Versions of ${DEMO_CONTRACT}` });
  // (Other specs of the same run may have added working drafts to the demo series.)
  await expect(versions.getByText('Working draft', { exact: true }).first()).toBeVisible();
  await expect(versions.getByText('Original', { exact: true })).toHaveCount(1);
  await expectNoAxeViolations(page);

  // The token is in sessionStorage, never in the address bar.
  expect(page.url()).not.toMatch(/token/i);
  const stored = await page.evaluate(() => sessionStorage.getItem('redline.session'));
  expect(stored).toContain('token');
});

test('says clearly when a code is wrong', async ({ page }) => {
  await page.goto('/sign-in');
  await page.getByLabel('E-mail').fill(DEMO_EMAIL);
  const before = await newestMailId(page.request, DEMO_EMAIL);
  await page.getByRole('button', { name: 'Send code' }).click();
  const code = await codeFromMailbox(page.request, DEMO_EMAIL, before);
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
