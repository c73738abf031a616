import { createHash, randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { codeFromMailbox, DEMO_EMAIL, newestMailId } from './helpers';

/**
 * The connector's authorization in a real browser: the authorization endpoint sends
 * Chromium to the SPA's sign-in + consent page; the person signs in with an e-mail code
 * and allows; the browser lands on the client's redirect URI with a code, which the
 * client trades (PKCE) for a token that works on /api/mcp.
 *
 * The whole flow runs on the service's public URL (PUBLIC_URL, http://localhost:<port> by
 * default): oidc-provider's absolute URLs and its cookies must stay on one host.
 */
test('an assistant is connected through the sign-in and consent pages', async ({ page, baseURL }) => {
  const origin = `http://localhost:${new URL(baseURL!).port}`;
  const redirectUri = 'http://127.0.0.1:9/callback';
  const registered = await page.request.post(`${origin}/oauth/reg`, {
    data: { client_name: 'E2E Assistant', redirect_uris: [redirectUri], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' },
  });
  expect(registered.status()).toBe(201);
  const clientId = ((await registered.json()) as { client_id: string }).client_id;
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorize = `${origin}/oauth/auth?${new URLSearchParams({
    client_id: clientId, response_type: 'code', redirect_uri: redirectUri, scope: 'documents', state: 'e2e-state',
    code_challenge: challenge, code_challenge_method: 'S256', resource: `${origin}/api/mcp`,
  })}`;

  // The client's redirect URI is not a server here: answer it in the browser and keep the URL.
  let landedAt: URL | null = null;
  await page.route('http://127.0.0.1:9/**', async (route) => {
    landedAt = new URL(route.request().url());
    await route.fulfill({ status: 200, contentType: 'text/plain', body: 'connected' });
  });

  await page.goto(authorize);
  await expect(page).toHaveURL(/\/connector\/authorize\?interaction=/);
  await expect(page.getByText('E2E Assistant')).toBeVisible();
  await page.getByLabel('E-mail').fill(DEMO_EMAIL);
  const before = await newestMailId(page.request, DEMO_EMAIL);
  await page.getByRole('button', { name: 'Send code' }).click();
  const code = await codeFromMailbox(page.request, DEMO_EMAIL, before);
  await page.getByLabel('Code', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page.getByRole('heading', { name: 'Allow E2E Assistant to act for you?' })).toBeVisible();
  await expect(page.getByText('127.0.0.1:9')).toBeVisible();
  await expect(page.getByText('Withdraw its own proposals.')).toBeVisible();
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect.poll(() => landedAt?.searchParams.get('state') ?? null).toBe('e2e-state');

  const exchanged = await page.request.post(`${origin}/oauth/token`, {
    form: { grant_type: 'authorization_code', code: landedAt!.searchParams.get('code')!, redirect_uri: redirectUri, code_verifier: verifier, client_id: clientId },
  });
  expect(exchanged.status()).toBe(200);
  const { access_token: accessToken } = (await exchanged.json()) as { access_token: string };
  const tools = await page.request.post(`${origin}/api/mcp`, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json, text/event-stream' },
    data: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
  });
  expect(tools.status()).toBe(200);
  expect(((await tools.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name)).toContain('propose_redlines');
});
