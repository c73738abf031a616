import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../src/contract/auth';
import type { DocumentRow } from '../../src/contract/document';
import { ReviewResponse } from '../../src/contract/review';
import { buildDemoContract, buildKindSample } from '../../src/docx/fixture';
import { createDiskBlobStore } from '../../src/service/store/blobs/disk-blob-store';
import { storageKeyFor } from '../../src/service/store/content-store';
import type { Database } from '../../src/service/store/database';
import { openPostgresDatabase } from '../../src/service/store/postgres-database';
import { multipartBody, startTestService, type TestService } from '../support/test-service';
import { privatePostgresUnavailable, startPrivatePostgres, type PrivatePostgres } from './private-postgres';
import { runRestartLoad } from './restart-load';
import { ServiceClient } from './service-client';
import { checkStoreIntegrity } from './store-integrity';
import { SwitchableBlobStore } from './switchable-blob-store';

// The third fault of issue 7 item 4, the decision projection failing (apply answers
// track: null, the next read rebuilds it from the log), is covered where the hook
// lives: src/service/review/review.test.ts ("answers track: null when the decisions
// store fails ...", using ServiceParts.faults.projection).

const noPostgres = privatePostgresUnavailable();
if (noPostgres) console.warn(`faults.test.ts: ${noPostgres}`);

describe.skipIf(noPostgres !== null)('PostgreSQL restarted in the middle of a load run (private cluster)', () => {
  let postgres: PrivatePostgres;
  let db: Database;
  let t: TestService;

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    db = openPostgresDatabase({ connectionString: postgres.url, maxConnections: 10 });
    t = await startTestService({}, { db });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await t?.destroy();
    await db?.close();
    await postgres?.destroy();
  });

  it('answers clean 503s while it is down, reconnects, and no batch is half applied', async () => {
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const grant = await t.signUpAndSignIn('load@firm.example');
    const client = new ServiceClient(url, grant);
    const drafts = [await client.newDraft('A.docx', buildDemoContract()), await client.newDraft('B.docx', buildDemoContract())];
    const report = await runRestartLoad({
      clients: [client, client], draftIds: drafts.map((d) => d.id), readers: 2, postgres,
      restarts: 1, downMs: 800, calmMs: 1200, db, content: t.ctx.content, seed: 11,
    });
    console.info(`restart under load: ${report.requests} requests, statuses ${JSON.stringify(report.statuses)}, `
      + `${report.recoveredBy503Retry} operations recovered by retrying a 503, ${report.batchesApplied} batches applied`);
    expect(report.problems).toEqual([]);
    expect(report.statuses['503']).toBeGreaterThan(0);
    expect(report.recoveredBy503Retry).toBeGreaterThan(0);
    expect(Object.keys(report.statuses).filter((s) => Number(s) >= 500 && s !== '503')).toEqual([]);
    expect(report.batchesApplied).toBeGreaterThan(2);
    const integrity = await checkStoreIntegrity(db, createDiskBlobStore(path.join(t.config.dataDir, 'blobs')));
    expect(integrity.problems).toEqual([]);
  });
});

describe('the blob store unavailable', () => {
  const blobDir = mkdtempSync(path.join(os.tmpdir(), 'redline-blobs-'));
  const disk = createDiskBlobStore(blobDir);
  const blobs = new SwitchableBlobStore(disk);
  let t: TestService;
  let grant: SessionGrant;

  beforeAll(async () => {
    t = await startTestService({}, { blobs });
    grant = await t.signUpAndSignIn('blobs@firm.example');
  });
  afterAll(async () => {
    blobs.mode = 'up';
    await t?.destroy();
    rmSync(blobDir, { recursive: true, force: true });
  });

  const upload = (bytes: Uint8Array, url = '/api/uploads') => {
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'x.docx', bytes });
    return t.app.inject({ method: 'POST', url, payload: body.payload, headers: { ...body.headers, ...t.headers(grant) } });
  };
  const call = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, headers: t.headers(grant), ...(payload ? { payload } : {}) });
  const count = async (table: string) => (await t.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;
  const expect503 = (res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) => {
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'service_unavailable', status: 503 });
    expect(res.headers['retry-after']).toBeDefined();
  };

  it('fails uploads and applies with 503, records nothing that points at a missing blob, and recovers', async () => {
    const original = await upload(buildDemoContract());
    expect(original.statusCode).toBe(201);
    const draftRes = await call('POST', `/api/uploads/${original.json().id}/working-draft`);
    const draft = draftRes.json() as DocumentRow;
    const before = ReviewResponse.parse((await call('GET', `/api/documents/${draft.id}/review`)).json());
    const ids = before.revisions.slice(0, 3).map((r) => r.change_id);
    const rows = await count('uploads');
    const batches = await count('decision_batches');

    for (const mode of ['down', 'writes-fail'] as const) {
      blobs.mode = mode;
      // A new document, and a new version of an existing one: nothing may be recorded.
      expect503(await upload(buildKindSample('delete')));
      expect503(await upload(buildKindSample('insert'), `/api/uploads/${original.json().id}/versions`));
      // An apply: with reads down it cannot load the draft; with writes failing it
      // computes the batch but cannot store the result. Either way the draft stays put.
      expect503(await call('POST', `/api/documents/${draft.id}/revisions/apply`, { accepted_change_ids: ids }));
      if (mode === 'down') expect503(await call('GET', `/api/uploads/${draft.id}/content`));
      expect(await count('uploads')).toBe(rows);
      expect(await count('decision_batches')).toBe(batches);
      // The database side keeps working: listing needs no bytes.
      const listed = await call('GET', '/api/uploads');
      expect(listed.statusCode).toBe(200);
      expect(listed.json().items).toHaveLength(rows);
    }

    blobs.mode = 'up';
    const after = ReviewResponse.parse((await call('GET', `/api/documents/${draft.id}/review`)).json());
    expect(after.document).toEqual(before.document);
    expect(after.track).toEqual(before.track);
    // Retrying now succeeds.
    expect((await upload(buildKindSample('delete'))).statusCode).toBe(201);
    const applied = await call('POST', `/api/documents/${draft.id}/revisions/apply`, { accepted_change_ids: ids });
    expect(applied.statusCode).toBe(200);
    expect(ReviewResponse.parse(applied.json()).track!.counts.in).toBe(3);

    const integrity = await checkStoreIntegrity(t.ctx.db, disk);
    expect(integrity.problems).toEqual([]);
    expect(integrity.uploads).toBe(rows + 1);
    // The failed puts registered their hashes before writing (by design: the sweep must
    // see a blob in flight); those registrations point at no bytes, are referenced by
    // no row, and the sweep removes them.
    const registered = await t.ctx.db.query<{ sha256: string }>('SELECT sha256 FROM blobs');
    const dangling: string[] = [];
    for (const { sha256 } of registered) if (!(await disk.get(storageKeyFor(sha256)))) dangling.push(sha256);
    expect(dangling.length).toBeGreaterThan(0);
    await t.ctx.content.sweep(0);
    const left = new Set((await t.ctx.db.query<{ sha256: string }>('SELECT sha256 FROM blobs')).map((r) => r.sha256));
    expect(dangling.filter((sha) => left.has(sha))).toEqual([]);
    expect((await checkStoreIntegrity(t.ctx.db, disk)).problems).toEqual([]);
  });
});
