import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_CONTRACT = 'Master Services Agreement (demo).docx';

/**
 * The serial number of the newest message sent to an address (0 when none): read it before
 * asking for a code, then wait for a message with a larger one. A clock-based "sent after I
 * asked" test mistakes the code of a sign-in a moment earlier for the new one.
 */
export async function newestMailId(request: APIRequestContext, email: string): Promise<number> {
  const res = await request.get(`/api/dev/mailbox?to=${encodeURIComponent(email)}`);
  if (res.status() === 404) return 0;
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { id: number }).id;
}

/** The code of the first message to an address newer than `after` (from newestMailId). */
export async function codeFromMailbox(request: APIRequestContext, email: string, after: number): Promise<string> {
  let code: string | null = null;
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/dev/mailbox?to=${encodeURIComponent(email)}`);
        if (!res.ok()) return null;
        const message = (await res.json()) as { id: number; code: string | null };
        // Only a message sent after we asked: an older code would have been cancelled.
        if (message.id <= after) return null;
        code = message.code;
        return code;
      },
      { timeout: 10_000 },
    )
    .not.toBeNull();
  return code!;
}

/** Signs in through the real sign-in page, as a person would. */
export async function signInThroughUi(page: Page, email = DEMO_EMAIL): Promise<void> {
  if (!page.url().includes('/sign-in')) await page.goto('/sign-in');
  await page.getByLabel('E-mail').fill(email);
  const before = await newestMailId(page.request, email);
  await page.getByRole('button', { name: 'Send code' }).click();
  const code = await codeFromMailbox(page.request, email, before);
  await page.getByLabel('Code', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export interface ApiSession {
  token: string;
  orgId: string;
  headers: Record<string, string>;
}

/** Signs in over the API (for test set-up and checks, not for what the test is about). */
export async function signInThroughApi(request: APIRequestContext, email = DEMO_EMAIL): Promise<ApiSession> {
  return codeSessionThroughApi(request, email, '/api/auth/sign-in/request-code', { identifier: email });
}

/**
 * Asks for an e-mail code at `requestPath` (sign-in or sign-up), reads it from the dev
 * mailbox and verifies it: the session the service grants.
 */
export async function codeSessionThroughApi(request: APIRequestContext, email: string, requestPath: string, body: object): Promise<ApiSession> {
  const before = await newestMailId(request, email);
  const sent = await request.post(requestPath, { data: body });
  expect(sent.status()).toBe(202);
  const code = await codeFromMailbox(request, email, before);
  const verified = await request.post('/api/auth/verify', { data: { identifier: email, code } });
  expect(verified.ok()).toBe(true);
  const grant = (await verified.json()) as { session_token: string; orgId: string };
  return {
    token: grant.session_token,
    orgId: grant.orgId,
    headers: { authorization: `Bearer ${grant.session_token}`, 'x-org-id': grant.orgId },
  };
}

/** axe-core on the page as it is now: zero violations of WCAG 2.1 A/AA and best practices. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')})`);
  expect(summary).toEqual([]);
}
