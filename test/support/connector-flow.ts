import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';

/**
 * The browser's and the assistant's parts of the connector's OAuth flow, over real HTTP, as
 * the connector tests and the route-credential walk run it.
 */

/** A GET over node:http with any Host header (a client that lies about the host it asks). */
function getWithHost(url: string, headers: Headers, host: string): Promise<Response> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'GET', headers: { ...Object.fromEntries(headers), host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const answer = new Headers();
        for (const [name, value] of Object.entries(res.headers)) for (const v of [value ?? []].flat()) answer.append(name, v);
        const status = res.statusCode ?? 500;
        resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers: answer }));
      });
      res.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

/** The browser's cookies: name, value and path, as a browser keeps them for one host. */
export class CookieJar {
  private cookies = new Map<string, { value: string; path: string }>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((s) => s.trim());
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      const attr = (key: string) => attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.split('=')[1];
      const path = attr('path') ?? '/';
      const expired = attr('max-age') === '0' || (attr('expires') && Date.parse(attr('expires')!) < Date.now());
      const key = `${path} ${name}`;
      if (expired || value === '') this.cookies.delete(key);
      else this.cookies.set(key, { value, path });
    }
  }

  header(url: string): string {
    const path = new URL(url).pathname;
    return [...this.cookies.entries()]
      .filter(([, c]) => path === c.path || path.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map(([key, c]) => `${key.split(' ')[1]}=${c.value}`)
      .join('; ');
  }
}

export class Browser {
  readonly jar = new CookieJar();
  constructor(private readonly base: string) {}

  /** One request with the jar's cookies; `host`: a Host header of the caller's choosing (fetch always sends the URL's). */
  async request(url: string, init: RequestInit = {}, host?: string): Promise<Response> {
    const absolute = new URL(url, this.base).toString();
    const headers = new Headers(init.headers);
    const cookie = this.jar.header(absolute);
    if (cookie) headers.set('cookie', cookie);
    const response = host ? await getWithHost(absolute, headers, host) : await fetch(absolute, { ...init, headers, redirect: 'manual' });
    this.jar.store(response);
    return response;
  }

  /** Follows redirects on this origin; stops at the first page or at a redirect elsewhere (the client's redirect URI). */
  async navigate(url: string): Promise<{ url: string; response: Response }> {
    let current = new URL(url, this.base).toString();
    for (let hops = 0; hops < 10; hops++) {
      const response = await this.request(current);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { url: current, response };
      const next = new URL(location, current).toString();
      if (new URL(next).origin !== new URL(this.base).origin) return { url: next, response };
      current = next;
    }
    throw new Error('too many redirects');
  }

  json(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
  }
}

export const pkcePair = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};


async function ok(response: Response, what: string, status = 200): Promise<Response> {
  if (response.status !== status) throw new Error(`${what} answered ${response.status}: ${await response.text()}`);
  return response;
}

/** The connector's OAuth flow against a service listening at `base`, step by step as a real client and browser make it. */
export class ConnectorFlow {
  static readonly redirectUri = 'http://127.0.0.1:9/cb';

  constructor(readonly base: string) {}

  get resource(): string {
    return `${this.base}/api/mcp`;
  }

  /** A client registered by hand (RFC 7591). */
  async registerClient(redirectUri = ConnectorFlow.redirectUri): Promise<string> {
    const res = await ok(await fetch(`${this.base}/oauth/reg`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Hand-made client', redirect_uris: [redirectUri], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' }),
    }), 'registration', 201);
    return ((await res.json()) as { client_id: string }).client_id;
  }

  authorizeUrl(clientId: string, challenge: string, extra: Record<string, string> = {}): string {
    return `${this.base}/oauth/auth?${new URLSearchParams({
      client_id: clientId, response_type: 'code', redirect_uri: ConnectorFlow.redirectUri, scope: 'documents', state: 's-1',
      code_challenge: challenge, code_challenge_method: 'S256', resource: this.resource, ...extra,
    })}`;
  }

  token(params: Record<string, string>): Promise<Response> {
    return fetch(`${this.base}/oauth/token`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params),
    });
  }

  /** What the SPA page does: sign in with an e-mail code (read from the dev outbox), read the interaction, post the consent. */
  async signInAndConsent(browser: Browser, interactionPage: string, email: string, approve = true): Promise<{ redirect: URL; details: Record<string, unknown> }> {
    const page = new URL(interactionPage);
    if (page.pathname !== '/connector/authorize') throw new Error(`the authorization went to ${interactionPage}`);
    const interaction = page.searchParams.get('interaction')!;
    const details = await ok(await browser.request(`/api/auth/connector/interactions/${interaction}`), 'interaction');
    await ok(await browser.json('/api/auth/sign-in/request-code', { identifier: email }), 'request-code', 202);
    const code = (await (await browser.request(`/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json()).code as string;
    const session = (await (await ok(await browser.json('/api/auth/verify', { identifier: email, code }), 'verify')).json()) as { session_token: string; orgId: string };
    const consent = await ok(await browser.json('/api/auth/connector/consent', { interaction, approve, orgId: session.orgId },
      { authorization: `Bearer ${session.session_token}` }), 'consent');
    const { redirectTo } = (await consent.json()) as { redirectTo: string };
    const done = await browser.navigate(redirectTo);
    return { redirect: new URL(done.url), details: (await details.json()) as Record<string, unknown> };
  }

  /** Consent given, not yet redeemed: the authorization code and what redeems it. */
  async authorize(email: string): Promise<{ clientId: string; code: string; verifier: string }> {
    const clientId = await this.registerClient();
    const { verifier, challenge } = pkcePair();
    const browser = new Browser(this.base);
    const landing = await browser.navigate(this.authorizeUrl(clientId, challenge));
    const { redirect } = await this.signInAndConsent(browser, landing.url, email);
    return { clientId, code: redirect.searchParams.get('code')!, verifier };
  }

  redeem(grant: { clientId: string; code: string; verifier: string }): Promise<Response> {
    return this.token({ grant_type: 'authorization_code', code: grant.code, redirect_uri: ConnectorFlow.redirectUri, code_verifier: grant.verifier, client_id: grant.clientId });
  }

  /** The whole flow: the tokens an assistant holds once the user has consented. */
  async connect(email: string): Promise<{ clientId: string; access_token: string; refresh_token: string }> {
    const grant = await this.authorize(email);
    const tokens = (await (await ok(await this.redeem(grant), 'token')).json()) as { access_token: string; refresh_token: string };
    return { clientId: grant.clientId, ...tokens };
  }
}
