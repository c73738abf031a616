import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import { ROUTES, routePath, type RouteName } from '../../contract/routes';
import { buildDemoContract } from '../../docx/fixture';
import { validRequest } from '../../../test/support/route-requests';
import { multipartBody, startTestService, type TestService } from '../../../test/support/test-service';

/**
 * Every route of org A, called with org B's session and A's ids. Each row says what B
 * must get; the test fails if a catalogue route has no row, so a new route cannot
 * ship without its isolation case.
 */
type Expectation = 'not-found' | 'own-only' | 'public' | 'own-auth';

const TABLE: Record<RouteName, Expectation> = {
  requestSignInCode: 'public', verifyCode: 'public', requestSignUpCode: 'public', listProviders: 'public', startProvider: 'public',
  providerCallback: 'public', tradeHandoff: 'public', devMailbox: 'public', openapi: 'public', healthLive: 'public', healthReady: 'public',
  mcpPost: 'own-auth', mcpGet: 'own-auth', mcpDelete: 'own-auth',
  // Routes that act on the caller's own account or org: B sees only B's things.
  signOut: 'own-only', describeSession: 'own-only', signOutEverywhere: 'own-only', listSessions: 'own-only', listUploads: 'own-only',
  listMembers: 'own-only', inviteMember: 'own-only', createApiKey: 'own-only', listApiKeys: 'own-only', createUpload: 'own-only',
  connectorConsent: 'own-only', listDraftProgress: 'own-only',
  connectorInteraction: 'public', // bound to the browser that started the authorization by a cookie
  // Routes naming one of A's resources: B gets 404, never 403 (no hint that it exists).
  getUpload: 'not-found', downloadUpload: 'not-found', readUploadText: 'not-found', searchUploadText: 'not-found', outlineUpload: 'not-found', renameUpload: 'not-found', createVersion: 'not-found',
  startWorkingDraft: 'not-found', deleteSeries: 'not-found', deleteSeriesAlias: 'not-found', saveDraft: 'not-found',
  getReview: 'not-found', getRenderWindow: 'not-found', getRender: 'not-found', getSideBySide: 'not-found', applyRevisions: 'not-found', undoRevisions: 'not-found', writeRedlines: 'not-found', reviewEvents: 'not-found',
  endSession: 'not-found', removeMember: 'not-found', revokeApiKey: 'not-found',
  noteDecision: 'not-found', decisionReportPdf: 'not-found', decisionReportCsv: 'not-found',
  listComments: 'not-found', addComment: 'not-found', replyToComment: 'not-found', resolveComment: 'not-found', downloadDraft: 'not-found',
  compareVersions: 'not-found', getComparison: 'not-found', listComparisonProgress: 'own-only', getUntracked: 'not-found', untrackedWorkingDraft: 'not-found',
  checkDocument: 'not-found', proposeCheckFixes: 'not-found',
};

/** The query string of a route that needs one, so only the ownership check can refuse it. */
const QUERY: Partial<Record<RouteName, string>> = { searchUploadText: '?q=Agreement' };

describe('tenant isolation across every route', () => {
  let t: TestService;
  let a: SessionGrant;
  let b: SessionGrant;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestService();
    a = await t.signUpAndSignIn('a@tenant-a.example', 'Tenant A');
    b = await t.signUpAndSignIn('b@tenant-b.example', 'Tenant B');
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'A.docx', bytes: buildDemoContract() });
    const upload = (await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(a) } })).json();
    const draft = (await t.app.inject({ method: 'POST', url: `/api/uploads/${upload.id}/working-draft`, headers: t.headers(a) })).json();
    const key = (await t.app.inject({ method: 'POST', url: '/api/org/api-keys', payload: { name: 'k' }, headers: t.headers(a) })).json();
    const sessions = (await t.app.inject({ method: 'GET', url: '/api/auth/sessions', headers: t.headers(a) })).json();
    Object.assign(ids, { uploadId: upload.id, documentId: draft.id, keyId: key.id, sessionId: sessions.items[0].id, userId: a.user.id, providerId: 'none', changeId: 'c1', commentId: '0' });
  });
  afterAll(async () => t.destroy());

  it('has a row for every catalogue route', () => {
    expect(Object.keys(TABLE).sort()).toEqual(Object.keys(ROUTES).sort());
  });

  for (const [name, expectation] of Object.entries(TABLE) as [RouteName, Expectation][]) {
    if (expectation !== 'not-found') continue;
    it(`${name}: org B gets 404 for org A's resource, and A's resource is untouched`, async () => {
      const spec = ROUTES[name];
      const before = (await t.app.inject({ method: 'GET', url: `/api/uploads/${ids.documentId}`, headers: t.headers(a) })).json();
      const res = await t.app.inject({ method: spec.method, url: `/api${routePath(spec, ids)}${QUERY[name] ?? ''}`, ...validRequest(name, t.headers(b), ids) });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('not_found');
      const after = (await t.app.inject({ method: 'GET', url: `/api/uploads/${ids.documentId}`, headers: t.headers(a) })).json();
      expect(after).toEqual(before);
    });
  }

  it("refuses B's session acting for A's organisation on every org route (403)", async () => {
    for (const [name, expectation] of Object.entries(TABLE) as [RouteName, Expectation][]) {
      const spec = ROUTES[name];
      if (spec.access !== 'session') continue;
      expect(['not-found', 'own-only']).toContain(expectation);
      const res = await t.app.inject({ method: spec.method, url: `/api${routePath(spec, ids)}`, headers: t.headers(b, a.orgId) });
      expect(res.statusCode, name).toBe(403);
    }
  });

  it("shows B none of A's things in B's own listings", async () => {
    const uploads = (await t.app.inject({ method: 'GET', url: '/api/uploads', headers: t.headers(b) })).json();
    expect(uploads.items).toEqual([]);
    const progress = (await t.app.inject({ method: 'GET', url: '/api/documents/progress', headers: t.headers(b) })).json();
    expect(progress.items).toEqual([]);
    const members = (await t.app.inject({ method: 'GET', url: '/api/org/members', headers: t.headers(b) })).json();
    expect(members.items.map((m: { email: string }) => m.email)).toEqual(['b@tenant-b.example']);
    const keys = (await t.app.inject({ method: 'GET', url: '/api/org/api-keys', headers: t.headers(b) })).json();
    expect(keys.items).toEqual([]);
    const sessions = (await t.app.inject({ method: 'GET', url: '/api/auth/sessions', headers: t.headers(b) })).json();
    expect(sessions.items.every((s: { id: string }) => s.id !== ids.sessionId)).toBe(true);
  });
});

describe('CORS', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ corsOrigins: ['https://dms.example.com'] });
  });
  afterAll(async () => t.destroy());

  it('answers listed origins and no others', async () => {
    const ok = await t.app.inject({ method: 'OPTIONS', url: '/api/uploads', headers: { origin: 'https://dms.example.com', 'access-control-request-method': 'GET' } });
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe('https://dms.example.com');
    expect(ok.headers['access-control-allow-headers']).toContain('x-org-id');
    expect(ok.headers['access-control-allow-headers']).toContain('Prefer');
    const evil = await t.app.inject({ method: 'OPTIONS', url: '/api/uploads', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
    expect(evil.statusCode).toBe(403);
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
    const get = await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { origin: 'https://evil.example' } });
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
  });
});
