import { expect, test } from '@playwright/test';
import { DEMO_EMAIL, expectNoAxeViolations, signInThroughApi, signInThroughUi } from './helpers';

test('the sessions page lists this session and another, and ends the other', async ({ page, request }) => {
  const other = await signInThroughApi(request);
  await signInThroughUi(page);
  await expect(page).toHaveURL(/\/documents$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sessions' }).click();
  await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();
  await expect(page.getByText('This session')).toHaveCount(1);
  await expectNoAxeViolations(page);

  const before = await page.getByRole('button', { name: /^End/ }).count();
  expect(before).toBeGreaterThanOrEqual(2);
  // Ending a session other than this one: the API session stops working.
  await page.getByRole('button', { name: /^End session of/ }).first().click();
  await expect(page.getByRole('button', { name: /^End/ })).toHaveCount(before - 1);
  await expect(page.getByText(/^Ended the session of/)).toBeVisible();
  // Several test sessions of the demo user may be live; keep ending others until ours is gone.
  for (let i = 0; i < 20; i++) {
    const probe = await request.get('/api/auth/session', { headers: other.headers });
    if (probe.status() === 401) break;
    const count = await page.getByRole('button', { name: /^End/ }).count();
    await page.getByRole('button', { name: /^End session of/ }).first().click();
    await expect(page.getByRole('button', { name: /^End/ })).toHaveCount(count - 1);
  }
  expect((await request.get('/api/auth/session', { headers: other.headers })).status()).toBe(401);
});

test('sign out everywhere ends this session too', async ({ page }) => {
  await signInThroughUi(page);
  await expect(page).toHaveURL(/\/documents$/);
  await page.goto('/account/sessions');
  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByRole('status')).toContainText('Signed out everywhere');
});

test('owners see the members page and invite a colleague', async ({ page }) => {
  await signInThroughUi(page);
  await expect(page).toHaveURL(/\/documents$/);
  await page.goto('/account/members');
  await expect(page.getByRole('heading', { name: 'Members' })).toBeVisible();
  await expect(page.getByRole('cell', { name: DEMO_EMAIL, exact: true })).toBeVisible();
  const colleague = `colleague-${Date.now()}@example.com`;
  await page.getByLabel('E-mail').fill(colleague);
  await page.getByRole('button', { name: 'Invite' }).click();
  await expect(page.getByRole('cell', { name: colleague, exact: true })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: `Remove ${colleague}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('cell', { name: colleague, exact: true })).toHaveCount(0);
});

test('a failed provider sign-in and a spent handoff are explained', async ({ page }) => {
  await page.goto('/sign-in?error=no_account');
  await expect(page.getByRole('alert')).toContainText('No Redline account matches this sign-in');
  await page.goto('/sign-in/complete?handoff=AAAAAAAAAAAAAAAAAAAAAA');
  await expect(page.getByRole('alert')).toContainText('not valid');
  // The handoff is taken out of the address bar at once.
  expect(page.url()).not.toContain('handoff');
});
