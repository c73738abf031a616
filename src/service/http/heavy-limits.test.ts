import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import type { DocumentRow } from '../../contract/document';
import { ROUTES } from '../../contract/routes';
import { buildKindSample } from '../../docx/fixture';
import { multipartBody, startTestService, type TestService } from '../../../test/support/test-service';
import { createService, type Service } from '../app';
import { DEFAULT_HEAVY_LIMITS, loadConfig } from '../config';
import { createMcpServer } from '../connector/mcp-tools';
import { HEAVY_ROUTES } from './heavy-limits';

// Issue 21 item 10: per-user budgets on the heavy routes, counted in the database.
describe('rate limits on heavy operations', () => {
  let t: TestService;
  let other: Service;
  let alice: SessionGrant;
  let bob: SessionGrant;

  beforeAll(async () => {
    t = await startTestService({ heavyLimits: { upload: 2, compare: 1, working_draft: 1, report: 1, reading: 1 } });
    // A second instance on the same database.
    other = await createService(t.config, { db: t.ctx.db, logger: false });
    alice = await t.signUpAndSignIn('alice@heavy.example');
    bob = await t.signUpAndSignIn('bob@heavy.example');
  });
  afterAll(async () => {
    await other.close();
    await t.destroy();
  });

  const post = (grant: SessionGrant, url: string, bytes = buildKindSample('insert'), on: Service = t) => {
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'Contract.docx', bytes });
    return on.app.inject({ method: 'POST', url, payload: body.payload, headers: { ...body.headers, ...t.headers(grant) } });
  };
  const call = (grant: SessionGrant, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: t.headers(grant), ...(payload ? { payload } : {}) });
  const expectLimited = (res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }, what: string) => {
    expect(res.statusCode, what).toBe(429);
    expect((res.json() as { code: string }).code).toBe('rate_limited');
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  };

  it('names every heavy route of the catalogue, with the documented defaults', () => {
    expect([...HEAVY_ROUTES.entries()].map(([spec, kind]) => `${spec.method} ${spec.path} ${kind}`).sort()).toEqual([
      `${ROUTES.decisionReportCsv.method} ${ROUTES.decisionReportCsv.path} report`,
      `${ROUTES.decisionReportPdf.method} ${ROUTES.decisionReportPdf.path} report`,
      `${ROUTES.saveDraft.method} ${ROUTES.saveDraft.path} upload`,
      `${ROUTES.createUpload.method} ${ROUTES.createUpload.path} upload`,
      `${ROUTES.compareVersions.method} ${ROUTES.compareVersions.path} compare`,
      `${ROUTES.untrackedWorkingDraft.method} ${ROUTES.untrackedWorkingDraft.path} compare`,
      `${ROUTES.createVersion.method} ${ROUTES.createVersion.path} upload`,
      `${ROUTES.startWorkingDraft.method} ${ROUTES.startWorkingDraft.path} working_draft`,
    ].sort());
    expect(loadConfig({}).heavyLimits).toEqual(DEFAULT_HEAVY_LIMITS);
    expect(loadConfig({ RATE_UPLOADS_PER_USER_PER_MINUTE: '5', RATE_COMPARES_PER_USER_PER_MINUTE: '6', RATE_WORKING_DRAFTS_PER_USER_PER_MINUTE: '7', RATE_REPORTS_PER_USER_PER_MINUTE: '8', RATE_READINGS_PER_USER_PER_MINUTE: '9' }).heavyLimits)
      .toEqual({ upload: 5, compare: 6, working_draft: 7, report: 8, reading: 9 });
  });

  it('answers 429 with Retry-After past each budget, per user, before doing any of the work', async () => {
    const first = (await post(alice, '/api/uploads')).json() as DocumentRow;
    const second = (await post(alice, '/api/uploads', buildKindSample('delete'))).json() as DocumentRow;
    const rows = async () => (await t.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM uploads'))[0]!.n;
    const before = await rows();
    // Uploads, versions and draft saves share one budget.
    expectLimited(await post(alice, '/api/uploads'), 'upload');
    expectLimited(await post(alice, `/api/uploads/${first.id}/versions`), 'version');
    // Another user has a budget of their own.
    expect((await post(bob, '/api/uploads')).statusCode).toBe(201);

    const draft = await call(alice, 'POST', `/api/uploads/${first.id}/working-draft`);
    expect(draft.statusCode).toBe(201);
    expectLimited(await call(alice, 'POST', `/api/uploads/${first.id}/working-draft`), 'working draft');
    const draftId = (draft.json() as DocumentRow).id;
    expectLimited(await t.app.inject({
      method: 'PUT', url: `/api/documents/${draftId}/draft`, payload: Buffer.from(buildKindSample('insert')),
      headers: { ...t.headers(alice), 'content-type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
    }), 'draft save');

    expect((await call(alice, 'POST', `/api/uploads/${second.id}/compare`, { against: first.id })).statusCode).toBe(201);
    expectLimited(await call(alice, 'POST', `/api/uploads/${second.id}/compare`, { against: first.id }), 'compare');
    expectLimited(await call(alice, 'POST', `/api/uploads/${second.id}/untracked/working-draft`), 'untracked working draft');

    expect((await call(alice, 'GET', `/api/documents/${draftId}/report.pdf`)).statusCode).toBe(200);
    expectLimited(await call(alice, 'GET', `/api/documents/${draftId}/report.csv`), 'report');
    // Light routes are not counted.
    expect((await call(alice, 'GET', `/api/documents/${draftId}/review`)).statusCode).toBe(200);
    // Refused requests wrote nothing: since, only bob's upload, the working draft and the comparison draft.
    expect(await rows()).toBe(before + 1 + 2);
  });

  it('holds across instances sharing the database', async () => {
    const carol = await t.signUpAndSignIn('carol@heavy.example');
    expect((await post(carol, '/api/uploads')).statusCode).toBe(201);
    expect((await post(carol, '/api/uploads', buildKindSample('delete'), other)).statusCode).toBe(201);
    expectLimited(await post(carol, '/api/uploads', buildKindSample('insert'), other), 'upload on the other instance');
    expectLimited(await post(carol, '/api/uploads'), 'upload on the first instance');
  });

  // Issue 31 item 3: a view's first reading (a parse on an engine thread) and a search spend the
  // reading budget, over HTTP and MCP alike; pages and outlines of a view already read are free.
  it('spends the reading budget on first readings and searches, over HTTP and MCP, and not on pages already read', async () => {
    const erin = await t.signUpAndSignIn('erin@heavy.example');
    const upload = (await post(erin, '/api/uploads')).json() as DocumentRow;
    expect((await call(erin, 'GET', `/api/uploads/${upload.id}/text`)).statusCode).toBe(200);
    expect((await call(erin, 'GET', `/api/uploads/${upload.id}/text?limit=1`)).statusCode).toBe(200);
    expect((await call(erin, 'GET', `/api/uploads/${upload.id}/outline`)).statusCode).toBe(200);
    expectLimited(await call(erin, 'GET', `/api/uploads/${upload.id}/search?q=the`), 'search');
    expectLimited(await call(erin, 'GET', `/api/uploads/${upload.id}/text?view=rejected`), 'first reading of another view');
    const server = createMcpServer({ orgId: erin.orgId, userId: erin.user.id }, t.ctx);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test-assistant', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const refused = await client.callTool({ name: 'search_document', arguments: { documentId: upload.id, query: 'the' } });
      expect((refused.structuredContent as { problem: { code: string } }).problem.code).toBe('rate_limited');
      const page = await client.callTool({ name: 'read_document', arguments: { documentId: upload.id } });
      expect(page.isError).not.toBe(true);
    } finally {
      await client.close();
    }
  });

  it("spends the same compare budget through the assistant's MCP tool compare_versions", async () => {
    const dave = await t.signUpAndSignIn('dave@heavy.example');
    const first = (await post(dave, '/api/uploads')).json() as DocumentRow;
    const second = (await post(dave, '/api/uploads', buildKindSample('delete'))).json() as DocumentRow;
    const server = createMcpServer({ orgId: dave.orgId, userId: dave.user.id }, t.ctx);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test-assistant', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const made = await client.callTool({ name: 'compare_versions', arguments: { uploadId: second.id, against: first.id } });
      expect(made.isError).not.toBe(true);
      const refused = await client.callTool({ name: 'compare_versions', arguments: { uploadId: second.id, against: first.id } });
      expect(refused.isError).toBe(true);
      expect((refused.structuredContent as { problem: { code: string } }).problem.code).toBe('rate_limited');
      expectLimited(await call(dave, 'POST', `/api/uploads/${second.id}/compare`, { against: first.id }), 'compare over HTTP after the tool');
    } finally {
      await client.close();
    }
  });
});
