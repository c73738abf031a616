import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import type { DocumentRow } from '../../contract/document';
import { buildDemoContract } from '../../docx/fixture';
import { Browser, ConnectorFlow, pkcePair } from '../../../test/support/connector-flow';
import { multipartBody, startHttpTestService, type TestService } from '../../../test/support/test-service';
import type { Connector } from './connector';

/**
 * The whole connector flow as a real client runs it, over real HTTP on 127.0.0.1: the MCP
 * SDK's own OAuth client (discovery from the 401's WWW-Authenticate, RFC 9728 and RFC 8414
 * metadata, dynamic registration, PKCE, resource indicator), then the browser's part
 * scripted request by request exactly as the SPA page makes it (following the redirects
 * with a cookie jar; e-mail code sign-in through the dev outbox; the consent POST), token
 * exchange, every tool, refresh rotation, and sign-out everywhere.
 */

/** The MCP client's storage, as a desktop assistant keeps it; the "redirect" is captured for the scripted browser. */
class TestAuthProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | null = null;
  readonly redirectUrl = 'http://127.0.0.1:9/callback';
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Test Assistant', redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'], token_endpoint_auth_method: 'none',
    };
  }
  state() { return 'state-from-the-client'; }
  clientInformation() { return this.info; }
  saveClientInformation(info: OAuthClientInformationMixed) { this.info = info; }
  tokens() { return this.saved; }
  saveTokens(tokens: OAuthTokens) { this.saved = tokens; }
  redirectToAuthorization(url: URL) { this.authorizationUrl = url; }
  saveCodeVerifier(verifier: string) { this.verifier = verifier; }
  codeVerifier() { return this.verifier; }
}

/** The parts of the tools' structured answers the test reads. */
interface ToolValue {
  items: DocumentRow[];
  revisions: { change_id: string; justification: string | null; kind: string; group?: string }[];
  track: { items: { id: string }[]; counts: Record<string, number> };
  problem: Record<string, unknown>;
}

describe('the assistant connector', () => {
  let t: TestService;
  let base: string;
  let connector: Connector;
  let lawyer: SessionGrant;
  const email = 'counsel@firm.example';
  let draft: DocumentRow;

  beforeAll(async () => {
    t = await startHttpTestService();
    base = t.config.publicUrl;
    connector = t.ctx.connector as Connector;
    flow = new ConnectorFlow(base);
    lawyer = await t.signUpAndSignIn(email, 'Firm');
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'MSA.docx', bytes: buildDemoContract() });
    const created = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(lawyer) } });
    draft = (await t.app.inject({ method: 'POST', url: `/api/uploads/${created.json().id}/working-draft`, headers: t.headers(lawyer) })).json();
  }, 30_000);
  afterAll(async () => t?.destroy());

  let flow: ConnectorFlow;
  const signInAndConsent = (browser: Browser, page: string, approve = true) => flow.signInAndConsent(browser, page, email, approve);
  const registerClient = (redirectUri?: string) => flow.registerClient(redirectUri);
  const authorizeUrl = (clientId: string, challenge: string, extra: Record<string, string> = {}) => flow.authorizeUrl(clientId, challenge, extra);
  const token = (params: Record<string, string>) => flow.token(params);

  it('publishes RFC 8414 and RFC 9728 metadata', async () => {
    const as = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json();
    expect(as).toMatchObject({
      issuer: base, authorization_endpoint: `${base}/oauth/auth`, token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/reg`, code_challenge_methods_supported: ['S256'], response_types_supported: ['code'],
    });
    const prm = await (await fetch(`${base}/.well-known/oauth-protected-resource/api/mcp`)).json();
    expect(prm).toMatchObject({ resource: `${base}/api/mcp`, authorization_servers: [base], scopes_supported: ['documents'] });
    const unauthenticated = await fetch(`${base}/api/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/api/mcp", scope="documents"`);
    expect(unauthenticated.headers.get('content-type')).toContain('application/problem+json');
  });

  it('runs the whole flow: register, authorize with PKCE, sign in, consent, tools, refresh, sign out everywhere', async () => {
    const auth = new TestAuthProvider();
    const mcpUrl = new URL(`${base}/api/mcp`);
    const first = new Client({ name: 'test-assistant', version: '1.0.0' });
    await expect(first.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: auth }))).rejects.toThrow(/Unauthorized/i);
    expect(auth.info?.client_id).toEqual(expect.any(String));
    const authorizationUrl = auth.authorizationUrl!;
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('resource')).toBe(`${base}/api/mcp`);

    // The browser: the authorization endpoint sends it to our sign-in + consent page.
    const browser = new Browser(base);
    const landing = await browser.navigate(authorizationUrl.toString());
    const { redirect, details } = await signInAndConsent(browser, landing.url);
    expect(details).toMatchObject({ clientName: 'Test Assistant', redirectHost: '127.0.0.1:9', scopes: ['documents'] });
    expect(redirect.origin + redirect.pathname).toBe(auth.redirectUrl);
    expect(redirect.searchParams.get('state')).toBe('state-from-the-client');
    expect(redirect.searchParams.get('iss')).toBe(base);
    const code = redirect.searchParams.get('code')!;

    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: auth });
    await transport.finishAuth(code);
    expect(auth.saved).toMatchObject({ token_type: expect.stringMatching(/bearer/i), expires_in: 3600, refresh_token: expect.any(String), scope: 'documents' });
    const client = new Client({ name: 'test-assistant', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: auth }));
    expect((await client.listTools()).tools.map((tool) => tool.name).sort())
      .toEqual(['add_comment', 'apply_decisions', 'check_document', 'compare_versions', 'get_outline', 'get_report', 'get_review', 'get_untracked_edits', 'list_comments', 'list_documents', 'propose_check_fixes', 'propose_redlines', 'read_document', 'reply_to_comment', 'revert_revisions', 'search_document']);

    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      return { isError: result.isError === true, value: result.structuredContent as unknown as ToolValue };
    };
    const listed = await call('list_documents', {});
    expect(listed.value.items.map((d) => d.id)).toContain(draft.id);
    const review = await call('get_review', { documentId: draft.id });
    const theirs = review.value.revisions;
    expect(theirs.length).toBeGreaterThan(3);
    expect(review.value.track).toMatchObject({ counts: { open: theirs.length } });

    const proposed = await call('propose_redlines', {
      documentId: draft.id, author: 'Assistant',
      edits: [
        { op: 'replace', find: 'Agreement', text: 'Contract', justification: 'Defined term used elsewhere.' },
        { op: 'delete', find: 'Agreement', occurrence: 2, justification: 'Redundant.' },
      ],
    });
    expect(proposed.isError).toBe(false);
    const mine = proposed.value.revisions.filter((r) => r.justification === 'Defined term used elsewhere.' || r.justification === 'Redundant.');
    expect(mine.length).toBeGreaterThanOrEqual(2);

    const decided = await call('apply_decisions', { documentId: draft.id, accept: [theirs[0]!.change_id], reject: [theirs[1]!.change_id] });
    expect(decided.isError).toBe(false);
    expect(decided.value.track).toMatchObject({ counts: { in: 1, back: 1 } });

    // Withdrawing: its own proposals go without a recorded decision; anyone else's are refused.
    const refused = await call('revert_revisions', { documentId: draft.id, changeIds: [theirs[2]!.change_id] });
    expect(refused.isError).toBe(true);
    expect(refused.value.problem).toMatchObject({ status: 403, code: 'not_own_proposal' });
    // One change of the replacement withdraws the whole edit (its deletion and insertion: one group).
    const replacement = mine.filter((r) => r.justification === 'Defined term used elsewhere.');
    expect(replacement.map((r) => r.kind).sort()).toEqual(['delete', 'insert']);
    expect(new Set(replacement.map((r) => r.group)).size).toBe(1);
    const half = await call('revert_revisions', { documentId: draft.id, changeIds: [replacement[1]!.change_id] });
    expect(half.isError).toBe(false);
    const left = half.value.track.items.map((i) => i.id);
    for (const r of replacement) expect(left).not.toContain(r.change_id);
    const withdrawn = await call('revert_revisions', { documentId: draft.id, changeIds: mine.filter((r) => !replacement.includes(r)).map((r) => r.change_id) });
    expect(withdrawn.isError).toBe(false);
    const trackIds = withdrawn.value.track.items.map((i) => i.id);
    for (const r of mine) expect(trackIds).not.toContain(r.change_id);
    expect(withdrawn.value.track).toMatchObject({ counts: { in: 1, back: 1 } });

    // The token is a session of that user and org: document routes take it, for that org only.
    const bearer = { authorization: `Bearer ${auth.saved!.access_token}` };
    expect((await fetch(`${base}/api/documents/${draft.id}/review`, { headers: { ...bearer, 'x-org-id': lawyer.orgId } })).status).toBe(200);
    const sessions = (await (await fetch(`${base}/api/auth/sessions`, { headers: t.headers(lawyer) })).json()) as { items: { kind: string; client: string }[] };
    expect(sessions.items).toContainEqual(expect.objectContaining({ kind: 'connector', client: 'Test Assistant' }));

    // Refresh rotates: the new pair works, the old refresh token is refused.
    const oldRefresh = auth.saved!.refresh_token!;
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: oldRefresh, client_id: auth.info!.client_id });
    expect(refreshed.status).toBe(200);
    const pair = (await refreshed.json()) as { access_token: string; refresh_token: string };
    expect(pair.refresh_token).not.toBe(oldRefresh);
    const again = await token({ grant_type: 'refresh_token', refresh_token: oldRefresh, client_id: auth.info!.client_id });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
    // Reusing a rotated refresh token revokes the grant (a stolen token's thief and owner both lose it).
    expect((await fetch(`${base}/api/documents/${draft.id}/review`, { headers: { authorization: `Bearer ${pair.access_token}`, 'x-org-id': lawyer.orgId } })).status).toBe(401);
  }, 30_000);

  it('loses access after sign out everywhere', async () => {
    const browser = new Browser(base);
    const clientId = await registerClient();
    const { verifier, challenge } = pkcePair();
    const landing = await browser.navigate(authorizeUrl(clientId, challenge));
    const { redirect } = await signInAndConsent(browser, landing.url);
    const tokens = (await (await token({
      grant_type: 'authorization_code', code: redirect.searchParams.get('code')!, redirect_uri: 'http://127.0.0.1:9/cb', code_verifier: verifier, client_id: clientId,
    })).json()) as { access_token: string; refresh_token: string };
    const mcp = (accessToken: string) => fetch(`${base}/api/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect((await mcp(tokens.access_token)).status).toBe(200);

    const web = await t.signIn(email);
    const out = await fetch(`${base}/api/auth/sign-out-everywhere`, { method: 'POST', headers: { authorization: `Bearer ${web.session_token}` } });
    expect(out.status).toBe(200);
    expect((await out.json()) as { grantsRevoked: number }).toMatchObject({ grantsRevoked: expect.any(Number) });

    const after = await mcp(tokens.access_token);
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const refresh = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ error: 'invalid_grant' });
  }, 30_000);

  it('refuses a wrong PKCE verifier and a reused code (RFC 6749 errors at the token endpoint)', async () => {
    const browser = new Browser(base);
    const clientId = await registerClient();
    const { verifier, challenge } = pkcePair();
    const landing = await browser.navigate(authorizeUrl(clientId, challenge));
    const { redirect } = await signInAndConsent(browser, landing.url);
    const code = redirect.searchParams.get('code')!;
    const exchange = (codeVerifier: string) => token({ grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1:9/cb', code_verifier: codeVerifier, client_id: clientId });
    const wrong = await exchange(pkcePair().verifier);
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_grant' });
    const right = await exchange(verifier);
    expect(right.status).toBe(200);
    const { access_token: accessToken } = (await right.json()) as { access_token: string };
    const reused = await exchange(verifier);
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({ error: 'invalid_grant' });
    // A reused code revokes what it issued.
    expect(await connector.resolveAccessToken(accessToken)).toBeNull();
  }, 30_000);

  it('registers http redirect URIs only on loopback hosts; anything else needs https (OAuth 2.1, MCP)', async () => {
    // A private-use scheme is a native app's (RFC 8252), registered as one.
    const register = (redirectUri: string) => fetch(`${base}/oauth/reg`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Redirect policy', redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'none',
        ...(redirectUri.startsWith('http') ? {} : { application_type: 'native' }),
      }),
    });
    for (const allowed of ['http://127.0.0.1:7777/cb', 'http://localhost:7777/cb', 'http://[::1]:7777/cb', 'https://assistant.example/cb', 'com.example.assistant:/oauth']) {
      const res = await register(allowed);
      expect(res.status, allowed).toBe(201);
    }
    for (const refused of ['http://evil.example/cb', 'http://127.0.0.1.evil.example/cb', 'http://10.0.0.5/cb', 'javascript:alert(1)', 'myapp:/cb']) {
      const res = await register(refused);
      expect(res.status, refused).toBe(400);
      const body = (await res.json()) as { error: string; error_description: string };
      expect(body.error, refused).toBe('invalid_redirect_uri');
      expect(body.error_description).toContain(refused.startsWith('http') ? 'loopback' : 'scheme');
    }
    // Nothing was stored for a refused registration: only the five allowed clients exist.
    const stored = await t.ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM oauth_models WHERE model = 'Client' AND payload->>'client_name' = 'Redirect policy'");
    expect(stored[0]!.n).toBe(5);
  }, 30_000);

  it('answers problem details for an unknown client, a mismatched redirect URI and a tampered interaction', async () => {
    const { challenge } = pkcePair();
    const unknown = await fetch(authorizeUrl('no-such-client', challenge), { redirect: 'manual' });
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('content-type')).toContain('application/problem+json');
    expect(await unknown.json()).toMatchObject({ status: 400, code: 'invalid_client' });

    const clientId = await registerClient();
    const mismatched = await fetch(authorizeUrl(clientId, challenge, { redirect_uri: 'http://127.0.0.1:9/cb/other' }), { redirect: 'manual' });
    expect(mismatched.status).toBe(400);
    expect(await mismatched.json()).toMatchObject({ code: 'invalid_redirect_uri' });

    // Without PKCE, or with plain PKCE, the answer goes back to the (valid) redirect URI as an error.
    const noPkce = await fetch(authorizeUrl(clientId, challenge, { code_challenge_method: 'plain' }), { redirect: 'manual' });
    expect(new URL(noPkce.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    // A resource other than ours is refused (RFC 8707 invalid_target).
    const otherResource = await fetch(authorizeUrl(clientId, challenge, { resource: 'https://elsewhere.example/api' }), { redirect: 'manual' });
    expect(new URL(otherResource.headers.get('location')!).searchParams.get('error')).toBe('invalid_target');

    // The interaction: an unknown id, and a real one answered from another browser (no binding cookie).
    const browser = new Browser(base);
    const landing = await browser.navigate(authorizeUrl(clientId, challenge));
    const interaction = new URL(landing.url).searchParams.get('interaction')!;
    const web = await t.signIn(email);
    const consent = (id: string, cookie?: string) => fetch(`${base}/api/auth/connector/consent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${web.session_token}`, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify({ interaction: id, approve: true }),
    });
    const tampered = await consent(`${interaction}x`, `redline_connector_${interaction}x=1`);
    expect(tampered.status).toBe(404);
    expect(await tampered.json()).toMatchObject({ code: 'interaction_expired' });
    const foreign = await consent(interaction);
    expect(foreign.status).toBe(403);
    expect((await fetch(`${base}/api/auth/connector/interactions/${interaction}`)).status).toBe(403);
    // The interaction page itself refuses a browser without oidc-provider's cookie.
    const stranger = await fetch(`${base}/oauth/interaction/${interaction}`, { redirect: 'manual' });
    expect(stranger.headers.get('location')).toBe('/connector/authorize?error=interaction_expired');
  }, 30_000);

  it('lets the user decline, and the client hears access_denied', async () => {
    const browser = new Browser(base);
    const clientId = await registerClient();
    const landing = await browser.navigate(authorizeUrl(clientId, pkcePair().challenge));
    const { redirect } = await signInAndConsent(browser, landing.url, false);
    expect(redirect.searchParams.get('error')).toBe('access_denied');
    expect(redirect.searchParams.get('state')).toBe('s-1');
    expect(redirect.searchParams.get('code')).toBeNull();
  }, 30_000);

  it('refuses a token issued for another resource (audience check)', async () => {
    const browser = new Browser(base);
    const clientId = await registerClient();
    const { verifier, challenge } = pkcePair();
    const landing = await browser.navigate(authorizeUrl(clientId, challenge));
    const { redirect } = await signInAndConsent(browser, landing.url);
    const issued = (await (await token({
      grant_type: 'authorization_code', code: redirect.searchParams.get('code')!, redirect_uri: 'http://127.0.0.1:9/cb', code_verifier: verifier, client_id: clientId,
    })).json()) as { access_token: string };
    const real = await connector.provider.AccessToken.find(issued.access_token);
    expect(real).toBeDefined();
    expect(await connector.resolveAccessToken(issued.access_token)).not.toBeNull();
    // The same grant, user and client, but the audience of another resource server.
    const forged = new connector.provider.AccessToken({
      accountId: real!.accountId, clientId, grantId: real!.grantId, aud: 'https://other-resource.example/api', scope: 'documents', expiresWithSession: false,
    });
    const other = await forged.save();
    expect(await connector.resolveAccessToken(other)).toBeNull();
    const res = await fetch(`${base}/api/documents/${draft.id}/review`, { headers: { authorization: `Bearer ${other}`, 'x-org-id': lawyer.orgId } });
    expect(res.status).toBe(401);
    // And a connector token is no way to approve another connector.
    const consent = await fetch(`${base}/api/auth/connector/consent`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${issued.access_token}` },
      body: JSON.stringify({ interaction: 'anything', approve: true }),
    });
    expect(consent.status).toBe(403);
    expect(await consent.json()).toMatchObject({ code: 'session_required' });
  }, 30_000);
});
