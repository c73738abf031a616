import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../../contract/auth';
import { startTestService, type TestService } from '../../../../test/support/test-service';
import { parseOidcProviders } from './provider-config';
import { safeReturnPath } from './provider-sign-in';
import { startTestIdentityProvider, type TestAccount, type TestIdentityProvider } from './test-identity-provider';

/**
 * The whole redirect dance against a real OpenID Connect provider (oidc-provider on
 * 127.0.0.1) and the real service listening on 127.0.0.1: this test plays the browser,
 * following redirects by hand and carrying the provider's cookies itself.
 */
let svc: TestService;
let idp: TestIdentityProvider;
let base: string;

beforeAll(async () => {
  svc = await startTestService();
  await svc.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(svc.app.server.address() as AddressInfo).port}`;
  // Ports are chosen by the OS, so the public address and the provider (whose issuer is its
  // address) are known only now; routes read both from the configuration on every request.
  svc.ctx.config.publicUrl = base;
  idp = await startTestIdentityProvider(`${base}/api/auth/providers/test/callback`);
  svc.ctx.config.providers = [
    { id: 'test', name: 'Test IdP', issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, tokenEndpointAuthMethod: 'client_secret_basic' },
    // Nothing listens on port 1: discovery fails at once.
    { id: 'down', name: 'Down', issuer: 'http://127.0.0.1:1', clientId: 'x', clientSecret: 'y', tokenEndpointAuthMethod: 'client_secret_basic' },
  ];
});

afterAll(async () => {
  await idp?.close();
  await svc?.destroy();
});

let seq = 0;
const unique = (name: string) => `${name}-${Date.now().toString(36)}-${seq++}@example.com`;

/** The browser: a cookie jar for the provider's origin, and redirects followed by hand. */
class Browser {
  private readonly cookies = new Map<string, string>();

  async get(url: string): Promise<Response> {
    const target = new URL(url);
    const headers: Record<string, string> = {};
    if (target.origin === idp.issuer && this.cookies.size) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    const response = await fetch(target, { redirect: 'manual', headers, signal: AbortSignal.timeout(10_000) });
    if (target.origin === idp.issuer) {
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const eq = pair.indexOf('=');
        const name = pair.slice(0, eq).trim();
        const value = pair.slice(eq + 1).trim();
        if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
        else this.cookies.set(name, value);
      }
    }
    return response;
  }

  /** Follows redirects from `url` until the next hop is the service's provider callback; answers that URL. */
  async toCallback(url: string): Promise<URL> {
    let next = url;
    for (let hop = 0; hop < 12; hop++) {
      const response = await this.get(next);
      const location = response.headers.get('location');
      if (!location || response.status < 300 || response.status > 399) {
        throw new Error(`hop ${hop} (${next}) answered ${response.status}: ${await response.text()}`);
      }
      const resolved = new URL(location, next);
      if (resolved.origin === base) return resolved;
      next = resolved.href;
    }
    throw new Error('too many redirects');
  }
}

/** The service's redirect for one request (start or callback), as a URL. */
async function redirectOf(url: URL | string): Promise<URL> {
  const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
  expect(response.status).toBe(302);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return new URL(response.headers.get('location')!, base);
}

function startUrl(query: Record<string, string> = {}, provider = 'test'): string {
  const search = new URLSearchParams(query).toString();
  return `${base}/api/auth/providers/${provider}/start${search ? `?${search}` : ''}`;
}

/** One sign-in at the provider as `account`; answers the service's redirect after the callback. */
async function signInAs(account: TestAccount, query: Record<string, string> = {}): Promise<URL> {
  idp.next = { kind: 'sign-in', account };
  const callback = await new Browser().toCallback(startUrl(query));
  return redirectOf(callback);
}

function trade(handoff: string) {
  return fetch(`${base}/api/auth/handoff`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ handoff }), signal: AbortSignal.timeout(10_000),
  });
}

async function identitiesOf(userId: string): Promise<{ issuer: string; subject: string }[]> {
  return svc.ctx.db.query('SELECT issuer, subject FROM user_identities WHERE user_id = $1', [userId]);
}

function expectSignInError(location: URL, code: string): void {
  expect(`${location.origin}${location.pathname}`).toBe(`${base}/sign-in`);
  expect(location.searchParams.get('error')).toBe(code);
}

describe('sign-in providers', () => {
  let owner: SessionGrant;
  beforeEach(async () => {
    idp.next = { kind: 'deny' };
  });
  beforeAll(async () => {
    owner = await svc.signUpAndSignIn(unique('owner'));
  });

  it('lists the configured providers (ids and names only)', async () => {
    const response = await fetch(`${base}/api/auth/providers`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ providers: [{ id: 'test', name: 'Test IdP' }, { id: 'down', name: 'Down' }] });
  });

  it('start redirects to the provider with PKCE S256, state and nonce, remembering only the state hash', async () => {
    const location = await redirectOf(startUrl({ returnTo: '/documents' }));
    expect(location.origin).toBe(idp.issuer);
    const params = location.searchParams;
    expect(params.get('response_type')).toBe('code');
    expect(params.get('client_id')).toBe(idp.clientId);
    expect(params.get('redirect_uri')).toBe(`${base}/api/auth/providers/test/callback`);
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get('state')!.length).toBeGreaterThanOrEqual(22);
    expect(params.get('nonce')!.length).toBeGreaterThanOrEqual(22);
    expect(params.get('scope')).toBe('openid email profile');
    const stored = await svc.ctx.db.query<{ state_sha256: string }>('SELECT state_sha256 FROM provider_sign_ins');
    expect(stored.map((r) => r.state_sha256)).not.toContain(params.get('state'));
    expect(stored.every((r) => /^[0-9a-f]{64}$/.test(r.state_sha256))).toBe(true);
  });

  it('signs in an existing user by verified e-mail, then by subject; the handoff works once', async () => {
    const email = unique('alice');
    const alice = await svc.signUpAndSignIn(email);
    const sub = `alice-${seq++}`;
    const location = await signInAs({ sub, email: email.toUpperCase(), emailVerified: true }, { returnTo: '/documents/abc?x=1' });

    expect(`${location.origin}${location.pathname}`).toBe(`${base}/sign-in/complete`);
    expect(location.searchParams.get('returnTo')).toBe('/documents/abc?x=1');
    const handoff = location.searchParams.get('handoff')!;
    expect(handoff).toMatch(/^[A-Za-z0-9_-]{22}$/); // 128 bits, base64url
    expect([...location.searchParams.keys()].sort()).toEqual(['handoff', 'returnTo']);
    expect(await identitiesOf(alice.user.id)).toEqual([{ issuer: idp.issuer, subject: sub }]);

    const traded = await trade(handoff);
    expect(traded.status).toBe(200);
    const grant = (await traded.json()) as SessionGrant;
    expect(grant.user.id).toBe(alice.user.id);
    expect(grant.orgId).toBe(alice.orgId);
    expect(grant.session_token).not.toBe(alice.session_token);
    const session = await svc.app.inject({ method: 'GET', url: '/api/auth/session', headers: svc.headers(grant) });
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({ kind: 'web', user: { id: alice.user.id } });

    // Replayed handoff.
    const replay = await trade(handoff);
    expect(replay.status).toBe(400);
    expect(replay.headers.get('content-type')).toContain('application/problem+json');
    expect(await replay.json()).toMatchObject({ status: 400, code: 'invalid_handoff', detail: expect.stringContaining('already been used') });

    // Next time the identity is found by issuer + subject, whatever e-mail the provider reports now.
    const again = await signInAs({ sub, email: unique('renamed'), emailVerified: false });
    const second = await trade(again.searchParams.get('handoff')!);
    expect(second.status).toBe(200);
    expect(((await second.json()) as SessionGrant).user.id).toBe(alice.user.id);
    expect(again.searchParams.has('returnTo')).toBe(false);
  });

  it('does not link an unverified e-mail, nor create accounts for unknown people', async () => {
    const email = unique('bob');
    const bob = await svc.signUpAndSignIn(email);
    expectSignInError(await signInAs({ sub: `bob-${seq++}`, email, emailVerified: false }), 'no_account');
    expect(await identitiesOf(bob.user.id)).toEqual([]);

    const stranger = unique('stranger');
    expectSignInError(await signInAs({ sub: `stranger-${seq++}`, email: stranger, emailVerified: true }), 'no_account');
    expect(await svc.ctx.db.query('SELECT id FROM users WHERE email = $1', [stranger])).toEqual([]);
  });

  it('a provider error response (access_denied) goes back to sign-in with that error', async () => {
    idp.next = { kind: 'deny' };
    const callback = await new Browser().toCallback(startUrl());
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expectSignInError(await redirectOf(callback), 'access_denied');
  });

  it('refuses a tampered state, and a state used twice', async () => {
    idp.next = { kind: 'sign-in', account: { sub: `carol-${seq++}`, email: owner.user.email, emailVerified: true } };
    const callback = await new Browser().toCallback(startUrl());
    const tampered = new URL(callback);
    // Change one character to a different one, so the tampered state never equals the real one.
    const state = callback.searchParams.get('state')!;
    tampered.searchParams.set('state', `${state.slice(0, 5)}${state[5] === 'A' ? 'B' : 'A'}${state.slice(6)}`);
    expectSignInError(await redirectOf(tampered), 'invalid_state');
    const missing = new URL(callback);
    missing.searchParams.delete('state');
    expectSignInError(await redirectOf(missing), 'invalid_state');

    // The genuine callback still works once; its replay finds no sign-in in progress.
    const first = await redirectOf(callback);
    expect(first.pathname).toBe('/sign-in/complete');
    expectSignInError(await redirectOf(callback), 'invalid_state');
  });

  it('refuses a state that belongs to another provider', async () => {
    idp.next = { kind: 'sign-in', account: { sub: `dave-${seq++}`, email: owner.user.email, emailVerified: true } };
    const callback = await new Browser().toCallback(startUrl());
    const elsewhere = new URL(callback);
    elsewhere.pathname = '/api/auth/providers/down/callback';
    expectSignInError(await redirectOf(elsewhere), 'invalid_state');
  });

  it('refuses an expired sign-in (state past its lifetime)', async () => {
    idp.next = { kind: 'sign-in', account: { sub: `erin-${seq++}`, email: owner.user.email, emailVerified: true } };
    const callback = await new Browser().toCallback(startUrl());
    await svc.ctx.db.query("UPDATE provider_sign_ins SET expires_at = now() - interval '1 second'");
    expectSignInError(await redirectOf(callback), 'state_expired');
  });

  it('refuses an ID token whose nonce is not the one sent', async () => {
    idp.next = { kind: 'sign-in', account: { sub: `frank-${seq++}`, email: owner.user.email, emailVerified: true } };
    const callback = await new Browser().toCallback(startUrl());
    await svc.ctx.db.query("UPDATE provider_sign_ins SET nonce = 'a-different-nonce-than-the-id-token-carries'");
    expectSignInError(await redirectOf(callback), 'invalid_id_token');
  });

  it('refuses an expired handoff with problem details', async () => {
    const location = await signInAs({ sub: `gina-${seq++}`, email: owner.user.email, emailVerified: true });
    const handoff = location.searchParams.get('handoff')!;
    await svc.ctx.db.query("UPDATE sign_in_handoffs SET expires_at = now() - interval '1 second' WHERE consumed_at IS NULL");
    const response = await trade(handoff);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(await response.json()).toMatchObject({ code: 'handoff_expired', type: 'https://redline.dev/problems/handoff-expired' });
    const unknown = await trade('A'.repeat(22));
    expect(await unknown.json()).toMatchObject({ status: 400, code: 'invalid_handoff' });
  });

  it('two concurrent trades of one handoff: exactly one wins', async () => {
    const location = await signInAs({ sub: `hank-${seq++}`, email: owner.user.email, emailVerified: true });
    const handoff = location.searchParams.get('handoff')!;
    const answers = await Promise.all([trade(handoff), trade(handoff), trade(handoff)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400]);
  });

  it('hands a connector authorization its interaction back', async () => {
    const location = await signInAs({ sub: `ivy-${seq++}`, email: owner.user.email, emailVerified: true }, { interaction: 'int_abc-123' });
    expect(`${location.origin}${location.pathname}`).toBe(`${base}/connector/authorize`);
    expect(location.searchParams.get('interaction')).toBe('int_abc-123');
    expect(location.searchParams.get('handoff')).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('start refuses foreign return paths, bad interaction ids and unknown providers', async () => {
    for (const returnTo of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'documents']) {
      const response = await fetch(startUrl({ returnTo }), { redirect: 'manual' });
      expect(response.status, returnTo).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'invalid_request', errors: [{ path: 'returnTo' }] });
    }
    const badInteraction = await fetch(startUrl({ interaction: 'a b' }), { redirect: 'manual' });
    expect(badInteraction.status).toBe(400);
    const unknown = await fetch(startUrl({}, 'nope'), { redirect: 'manual' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'not_found' });
  });

  it('an unreachable provider sends the person back with provider_unavailable', async () => {
    expectSignInError(await redirectOf(startUrl({}, 'down')), 'provider_unavailable');
  });
});

describe('provider configuration and return paths', () => {
  it('parses OIDC_PROVIDERS and refuses what would be unsafe', () => {
    expect(parseOidcProviders(undefined)).toEqual([]);
    expect(parseOidcProviders(JSON.stringify([{ id: 'acme', name: 'Acme', issuer: 'https://id.acme.example', clientId: 'c', clientSecret: 's' }])))
      .toEqual([{ id: 'acme', name: 'Acme', issuer: 'https://id.acme.example', clientId: 'c', clientSecret: 's', tokenEndpointAuthMethod: 'client_secret_basic' }]);
    expect(() => parseOidcProviders('{')).toThrow(/JSON array/);
    expect(() => parseOidcProviders(JSON.stringify([{ id: 'a', name: 'A', issuer: 'http://id.acme.example', clientId: 'c', clientSecret: 's' }]))).toThrow(/https/);
    const twice = { id: 'a', name: 'A', issuer: 'https://x.example', clientId: 'c', clientSecret: 's' };
    expect(() => parseOidcProviders(JSON.stringify([twice, twice]))).toThrow(/used twice/);
    expect(() => parseOidcProviders(JSON.stringify([{ ...twice, id: 'A/B' }]))).toThrow(/id/);
  });

  it('accepts only paths of this origin as return paths', () => {
    expect(safeReturnPath('/documents/1?x=1#c')).toBe('/documents/1?x=1#c');
    for (const bad of ['//evil.example', '/\\evil.example', 'https://evil.example', 'evil', '/a\nb', '']) expect(safeReturnPath(bad), bad).toBeNull();
  });
});
