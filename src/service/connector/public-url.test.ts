import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, ConnectorFlow, pkcePair } from '../../../test/support/connector-flow';
import { startHttpTestService, startTestService, type TestService } from '../../../test/support/test-service';

/**
 * Every absolute URL the service answers comes from PUBLIC_URL, never from the request:
 * a caller sending `Host: evil.example` (or X-Forwarded-Host/-Proto) must not be able to
 * point OAuth discovery, the resource metadata, the consent page's redirect or the
 * OpenAPI servers at a host of its choosing (and so into a cache shared with others).
 */

const EVIL = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' };
const METADATA = ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration', '/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/api/mcp'];

/** Every string in a JSON value that looks like an absolute URL. */
function urlsIn(value: unknown): string[] {
  if (typeof value === 'string') return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(urlsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(urlsIn);
  return [];
}

describe('absolute URLs come from PUBLIC_URL', () => {
  let t: TestService;
  let https: TestService;
  let base: string;
  const email = 'counsel@public-url.example';

  beforeAll(async () => {
    t = await startHttpTestService();
    base = t.config.publicUrl;
    await t.signUpAndSignIn(email, 'Firm');
    // Behind a TLS-terminating proxy: PUBLIC_URL is https although the connection is not.
    https = await startTestService({ publicUrl: 'https://redline.example.com', trustProxy: true });
  }, 60_000);
  afterAll(async () => {
    await t?.destroy();
    await https?.destroy();
  });

  for (const [name, service, origin] of [['http', () => t, () => base], ['https behind a proxy', () => https, () => 'https://redline.example.com']] as const) {
    it(`answers metadata naming only PUBLIC_URL whatever the Host (${name}), with Cache-Control`, async () => {
      for (const path of METADATA) {
        const res = await service().app.inject({ method: 'GET', url: path, headers: EVIL });
        expect(res.statusCode, path).toBe(200);
        expect(res.body, path).not.toContain('evil.example');
        const urls = urlsIn(res.json());
        expect(urls.length, path).toBeGreaterThan(0);
        for (const url of urls) expect(url.startsWith(`${origin()}/`) || url === origin(), `${path}: ${url}`).toBe(true);
        expect(res.headers['cache-control'], path).toMatch(/max-age=\d+/);
      }
      const as = (await service().app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server', headers: EVIL })).json();
      expect(as).toMatchObject({ issuer: origin(), authorization_endpoint: `${origin()}/oauth/auth`, token_endpoint: `${origin()}/oauth/token` });
      const openapi = (await service().app.inject({ method: 'GET', url: '/api/openapi.json', headers: EVIL })).json();
      expect(openapi.servers).toEqual([{ url: `${origin()}/api` }]);
      const mcp = await service().app.inject({ method: 'POST', url: '/api/mcp', headers: { ...EVIL, 'content-type': 'application/json' }, payload: '{}' });
      expect(mcp.statusCode).toBe(401);
      expect(mcp.headers['www-authenticate']).toContain(`resource_metadata="${origin()}/.well-known/oauth-protected-resource/api/mcp"`);
    });
  }

  it("sends the consent page's answer to PUBLIC_URL even when the authorization began with another Host", async () => {
    const flow = new ConnectorFlow(base);
    const clientId = await flow.registerClient();
    const { verifier, challenge } = pkcePair();
    const browser = new Browser(base);
    // The authorization request arrives naming another host; the browser then goes on as usual.
    const start = await browser.request(flow.authorizeUrl(clientId, challenge), {}, 'evil.example');
    expect(start.status).toBe(303);
    expect(start.headers.get('location')).not.toContain('evil.example');
    const landing = await browser.navigate(new URL(start.headers.get('location')!, base).toString());
    const interaction = new URL(landing.url).searchParams.get('interaction')!;
    await browser.json('/api/auth/sign-in/request-code', { identifier: email });
    const code = (await (await browser.request(`/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json()).code as string;
    const session = (await (await browser.json('/api/auth/verify', { identifier: email, code })).json()) as { session_token: string; orgId: string };
    const consent = await browser.json('/api/auth/connector/consent', { interaction, approve: true, orgId: session.orgId }, { authorization: `Bearer ${session.session_token}` });
    expect(consent.status).toBe(200);
    const { redirectTo } = (await consent.json()) as { redirectTo: string };
    expect(redirectTo.startsWith(`${base}/oauth/`), redirectTo).toBe(true);
    // And it works: the client gets its code, which redeems.
    const done = await browser.navigate(redirectTo);
    const redirect = new URL(done.url);
    expect(redirect.searchParams.get('iss')).toBe(base);
    const redeemed = await flow.redeem({ clientId, code: redirect.searchParams.get('code')!, verifier });
    expect(redeemed.status).toBe(200);
  }, 30_000);
});
