import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import { acceptedCredentials, ROUTES, routePath, type Credential, type RouteName, type RouteSpec } from '../../contract/routes';
import { buildDemoContract } from '../../docx/fixture';
import { CONNECTOR_ABILITIES } from '../connector/connector';
import { ConnectorFlow } from '../../../test/support/connector-flow';
import { validRequest } from '../../../test/support/route-requests';
import { multipartBody, startHttpTestService, type TestService } from '../../../test/support/test-service';

/**
 * Every route of the catalogue, called with each kind of credential: a web session, the
 * assistant connector's access token (obtained through the real OAuth flow), an
 * organisation API key, and another organisation's session. What each must get follows
 * from the credentials the catalogue declares for the route; and the routes that accept
 * the connector's token or an API key are written out here, from the consent page's text
 * and the API keys' promise, so a route that widens them fails this test too.
 */

/** The consent page names documents, reviews, comparison, redlines, decisions and comments: the MCP tools and their REST twins. */
const CONNECTOR_ROUTES: RouteName[] = [
  'mcpPost', 'mcpGet', 'mcpDelete',
  'listUploads', 'getUpload', 'getReview', 'compareVersions', 'writeRedlines', 'applyRevisions',
  'listComments', 'addComment', 'replyToComment',
  'readUploadText', 'searchUploadText', 'outlineUpload',
  'checkDocument', 'proposeCheckFixes',
];
/** API keys may create, list, read (the row, the text) and download uploads, nothing else. */
const API_KEY_ROUTES: RouteName[] = ['createUpload', 'listUploads', 'getUpload', 'downloadUpload', 'readUploadText', 'searchUploadText', 'outlineUpload'];

/** Codes that mean the credential itself was refused. */
const CREDENTIAL_REFUSALS = ['unauthenticated', 'session_required', 'forbidden'];

interface Answer { status: number; code: string | null }

/** Every route, those that delete the draft's series last, so the routes before them act on a live draft. */
function walkOrder(): [RouteName, RouteSpec][] {
  const all = Object.entries(ROUTES) as [RouteName, RouteSpec][];
  const deletes = ([, spec]: [RouteName, RouteSpec]) => spec.path.startsWith('/uploads/') && (spec.method === 'DELETE' || spec.path.endsWith('/delete'));
  return [...all.filter((r) => !deletes(r)), ...all.filter(deletes)];
}

describe('which credentials every route accepts', () => {
  let t: TestService;
  let base: string;
  let email: string;
  let a: SessionGrant;
  let otherEmail: string;
  let connectorToken: string;
  let apiKey: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await startHttpTestService();
    base = t.config.publicUrl;
    email = 'owner@org-a.example';
    otherEmail = 'owner@org-b.example';
    a = await t.signUpAndSignIn(email, 'Org A');
    await t.signUpAndSignIn(otherEmail, 'Org B');
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'A.docx', bytes: buildDemoContract() });
    const upload = (await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(a) } })).json();
    const draft = (await t.app.inject({ method: 'POST', url: `/api/uploads/${upload.id}/working-draft`, headers: t.headers(a) })).json();
    const key = (await t.app.inject({ method: 'POST', url: '/api/org/api-keys', payload: { name: 'automation' }, headers: t.headers(a) })).json();
    apiKey = key.key;
    const spare = await t.signIn(email);
    const sessions = (await t.app.inject({ method: 'GET', url: '/api/auth/sessions', headers: t.headers(spare) })).json();
    const spareId = sessions.items.find((s: { current: boolean }) => s.current).id;
    Object.assign(ids, {
      uploadId: upload.id, documentId: draft.id, keyId: key.id, sessionId: spareId, userId: a.user.id,
      providerId: 'none', changeId: 'c1', commentId: '0', interaction: 'no-such-interaction',
    });
    connectorToken = (await new ConnectorFlow(base).connect(email)).access_token;
  }, 60_000);
  afterAll(async () => t?.destroy());

  /** One call over real HTTP (streams such as /events answer their headers, then the body is dropped). */
  async function call(spec: RouteSpec, name: RouteName, headers: Record<string, string>): Promise<Answer> {
    const request = validRequest(name, headers, ids);
    const payload = request.payload;
    const json = payload !== undefined && !Buffer.isBuffer(payload) && typeof payload === 'object';
    const res = await fetch(`${base}/api${routePath(spec, ids)}`, {
      method: spec.method,
      headers: { ...request.headers, ...(json ? { 'content-type': 'application/json' } : {}) },
      ...(payload === undefined ? {} : { body: json ? JSON.stringify(payload) : typeof payload === 'string' ? payload : new Uint8Array(payload as Buffer) }),
      redirect: 'manual',
    });
    const problem = res.headers.get('content-type')?.includes('problem+json') ? (await res.json()) as { code?: string } : null;
    if (!problem) await res.body?.cancel();
    return { status: res.status, code: problem?.code ?? null };
  }

  /** What a route must answer a credential it accepts: anything but a refusal of the credential. */
  function expectPassed(answer: Answer, what: string): void {
    expect(answer.status, `${what}: ${JSON.stringify(answer)}`).not.toBe(401);
    expect(CREDENTIAL_REFUSALS, `${what}: ${JSON.stringify(answer)}`).not.toContain(answer.code);
  }

  /** What a route must answer a credential it does not accept. */
  function expectRefused(spec: RouteSpec, answer: Answer, what: string): void {
    // The MCP endpoint speaks OAuth (RFC 9728): 401 pointing at its metadata; every other route 403 session_required.
    if (spec.access === 'own') expect(answer, what).toEqual({ status: 401, code: 'unauthenticated' });
    else expect(answer, what).toEqual({ status: 403, code: 'session_required' });
  }

  async function walk(credential: Credential, headers: () => Promise<Record<string, string>>): Promise<number> {
    let checked = 0;
    for (const [name, spec] of walkOrder()) {
      const answer = await call(spec, name, await headers());
      const what = `${credential} on ${name} (${spec.method} ${spec.path})`;
      if (spec.access === 'public') expect(['unauthenticated', 'session_required'], what).not.toContain(answer.code);
      else if (acceptedCredentials(spec).includes(credential)) expectPassed(answer, what);
      else expectRefused(spec, answer, what);
      checked++;
    }
    return checked;
  }

  it('declares the connector token exactly on the routes its consent page names, and API keys on the upload routes', () => {
    const accepting = (credential: Credential) => (Object.entries(ROUTES) as [RouteName, RouteSpec][])
      .filter(([, spec]) => acceptedCredentials(spec).includes(credential)).map(([name]) => name).sort();
    expect(accepting('connector')).toEqual([...CONNECTOR_ROUTES].sort());
    expect(accepting('api-key')).toEqual([...API_KEY_ROUTES].sort());
    // Every session route takes a person's own sign-in; the MCP endpoint takes only the connector.
    for (const [name, spec] of Object.entries(ROUTES) as [RouteName, RouteSpec][]) {
      if (spec.access === 'session' || spec.access === 'session-no-org') expect(acceptedCredentials(spec), name).toContain('web');
    }
    // The consent page names what the connector's routes do (and nothing about administration).
    const consent = CONNECTOR_ABILITIES.join(' ').toLowerCase();
    for (const word of ['documents', 'reviews', 'compare', 'redlines', 'accept or reject', 'withdraw', 'comments']) expect(consent).toContain(word);
    for (const word of ['member', 'api key', 'session', 'sign out']) expect(consent).not.toContain(word);
  });

  // The connector and the API key walk first: the web walk signs out everywhere and revokes the key.
  it('the connector token: accepted on its routes, 403 session_required everywhere else', async () => {
    const checked = await walk('connector', async () => ({ authorization: `Bearer ${connectorToken}`, 'x-org-id': a.orgId }));
    expect(checked).toBe(Object.keys(ROUTES).length);
  }, 120_000);

  it('an API key: accepted on the upload routes, 403 session_required everywhere else', async () => {
    await walk('api-key', async () => ({ authorization: `Bearer ${apiKey}`, 'x-org-id': a.orgId }));
  }, 120_000);

  it("another organisation's session: 403 on every route of this organisation", async () => {
    for (const [name, spec] of walkOrder()) {
      // A fresh session per route: some routes end the session they are called with.
      const b = await t.signIn(otherEmail);
      const answer = await call(spec, name, t.headers(b, a.orgId));
      const what = `org B's session on ${name}: ${JSON.stringify(answer)}`;
      if (spec.access === 'session') expect(answer, what).toEqual({ status: 403, code: 'forbidden' });
      else if (spec.access === 'own') expectRefused(spec, answer, what);
      // Account-wide routes act on B's own account (tenant-isolation.test.ts checks they show B nothing of A's).
      else if (spec.access === 'session-no-org') expectPassed(answer, what);
    }
  }, 120_000);

  it('a web session: accepted on every route but the MCP endpoint', async () => {
    // A fresh session per route: sign-out, sign-out everywhere and ending a session end the caller's own.
    await walk('web', async () => t.headers(await t.signIn(email)));
  }, 120_000);
});
