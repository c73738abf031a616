import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../src/contract/auth';
import type { DocumentRow } from '../../src/contract/document';
import { buildBenchmarkContract, buildKindSample } from '../../src/docx/fixture';
import { DEMO_EMAIL } from '../../src/service/seed';
import { multipartBody, startTestService, type TestService } from '../support/test-service';
import { childDatabaseUnavailable, prepareChildDatabase, type ChildDatabase } from './child-database';
import { signInOverHttp, startChildService, type ChildService } from './child-service';
import { bulkParagraphs } from './hostile-docx';
import { ServiceClient } from './service-client';

const MB = 2 ** 20;
const skip = childDatabaseUnavailable();
if (skip) console.warn(`hostile-uploads.test.ts: ${skip}`);

// Issue 21 item 3: a .docx of 123 KB holding 30 MB of ordinary paragraphs passes every zip-bomb
// cap and takes seconds to parse; on the main thread it stalled every request, health checks
// included. The service runs as its own process, so its stalls cannot hide in the test's.
// The long version, four at once with figures: bench/hostile-uploads.ts.
describe.skipIf(skip !== null)('a laborious upload, parsed in full (work caps raised)', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'redline-hostile-'));
  let database: ChildDatabase | null = null;
  let service: ChildService | null = null;
  let client: ServiceClient;
  const hostile = bulkParagraphs(30 * MB);

  beforeAll(async () => {
    database = await prepareChildDatabase(dataDir);
    service = await startChildService({
      dataDir, seedDemo: true, ...(database.databaseUrl ? { databaseUrl: database.databaseUrl } : {}),
      env: { DOCX_MAX_PARAGRAPHS: String(10 ** 8), DOCX_MAX_TEXT_BYTES: String(2 ** 30), ENGINE_THREADS: '1', ENGINE_JOBS_PER_ORG: '1' },
    });
    client = new ServiceClient(service.url, await signInOverHttp(service.url, DEMO_EMAIL));
    expect((await client.upload('warm.docx', buildKindSample('insert'))).status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
    await database?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps /api/health/live answering within a fraction of a second while it is parsed', async () => {
    let done = false;
    const latencies: number[] = [];
    const polling = (async () => {
      while (!done) {
        const sent = performance.now();
        const res = await fetch(`${service!.url}/api/health/live`, { signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        latencies.push(performance.now() - sent);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const began = performance.now();
    const answer = await client.upload('hostile.docx', hostile, undefined, 120_000);
    const took = performance.now() - began;
    done = true;
    await polling;
    expect(answer.status).toBe(201);
    const worst = Math.max(...latencies);
    console.info(`hostile upload: answered in ${took.toFixed(0)} ms; /api/health/live ${latencies.length} times, worst ${worst.toFixed(0)} ms`);
    // The upload takes seconds (on the main thread it held every answer that long); a busy
    // shared machine adds tens of ms to any answer, hence the margin over bench's 100 ms target.
    expect(worst).toBeLessThan(750);
    // The answers came while the upload was parsed (on the main thread the worst one waited for
    // all of it), whatever this machine's speed.
    expect(latencies.length).toBeGreaterThan(5);
    expect(worst).toBeLessThan(took / 2);
  }, 120_000);

  it("refuses an organisation's job past its share with 503 and Retry-After, and takes it again once the first is done", async () => {
    const [first, second] = await Promise.all([
      client.upload('hostile-1.docx', hostile, undefined, 120_000),
      // Sent while the first is parsed.
      new Promise((r) => setTimeout(r, 100)).then(() => fetchUpload(client, 'hostile-2.docx', hostile)),
    ]);
    expect(first.status).toBe(201);
    expect(second.status).toBe(503);
    expect(second.code).toBe('service_unavailable');
    expect(Number(second.retryAfter)).toBeGreaterThanOrEqual(1);
    expect((await client.upload('after.docx', buildKindSample('insert'))).status).toBe(201);
  }, 120_000);
});

async function fetchUpload(client: ServiceClient, name: string, bytes: Uint8Array): Promise<{ status: number; code: string; retryAfter: string | null }> {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${client.url}/api/uploads`, { method: 'POST', headers: client.headers(), body: form, signal: AbortSignal.timeout(120_000) });
  const body = await res.json() as { code: string };
  return { status: res.status, code: body.code, retryAfter: res.headers.get('retry-after') };
}

describe('the work caps on uploads, versions and saved drafts', () => {
  let t: TestService;
  let alice: SessionGrant;

  beforeAll(async () => {
    t = await startTestService({ docxWork: { maxStoryBytes: 4 * MB, maxParagraphs: 5_000 } });
    alice = await t.signUpAndSignIn('alice@caps.example');
  });
  afterAll(async () => t.destroy());

  const post = (url: string, bytes: Uint8Array) => {
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'Contract.docx', bytes });
    return t.app.inject({ method: 'POST', url, payload: body.payload, headers: { ...body.headers, ...t.headers(alice) } });
  };
  const expectRefused = (res: { statusCode: number; json(): unknown }, setting: string) => {
    expect(res.statusCode).toBe(413);
    const problem = res.json() as { code: string; limit: string; detail: string };
    expect(problem.code).toBe('payload_too_large');
    expect(problem.limit).toBe(setting);
    expect(problem.detail).toContain(setting);
  };

  it('answers 413 naming the limit past either cap, on every route that ingests', async () => {
    // 2 MB of XML: about 11,000 paragraphs, under the size cap.
    expectRefused(await post('/api/uploads', bulkParagraphs(2 * MB)), 'DOCX_MAX_PARAGRAPHS');
    expectRefused(await post('/api/uploads', bulkParagraphs(5 * MB)), 'DOCX_MAX_TEXT_BYTES');
    const created = await post('/api/uploads', buildKindSample('insert'));
    expect(created.statusCode).toBe(201);
    const id = (created.json() as DocumentRow).id;
    expectRefused(await post(`/api/uploads/${id}/versions`, bulkParagraphs(2 * MB)), 'DOCX_MAX_PARAGRAPHS');
    const draft = await t.app.inject({ method: 'POST', url: `/api/uploads/${id}/working-draft`, headers: t.headers(alice) });
    expect(draft.statusCode).toBe(201);
    const saved = await t.app.inject({
      method: 'PUT', url: `/api/documents/${(draft.json() as DocumentRow).id}/draft`, payload: Buffer.from(bulkParagraphs(5 * MB)),
      headers: { ...t.headers(alice), 'content-type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
    });
    expectRefused(saved, 'DOCX_MAX_TEXT_BYTES');
    // Nothing was written: the series holds the upload and its draft only.
    const list = await t.app.inject({ method: 'GET', url: '/api/uploads', headers: t.headers(alice) });
    expect((list.json() as { items: unknown[] }).items).toHaveLength(2);
  });

  it('takes the 300-page benchmark contract (7.5 MB of XML, 13,800 paragraphs) under the default caps, and refuses the 30 MB one', async () => {
    const defaults = await startTestService();
    try {
      const bob = await defaults.signUpAndSignIn('bob@caps.example');
      const send = (bytes: Uint8Array) => {
        const body = multipartBody({ purpose: 'source_doc' }, { name: 'Contract.docx', bytes });
        return defaults.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...defaults.headers(bob) } });
      };
      expect((await send(buildBenchmarkContract())).statusCode).toBe(201);
      expectRefused(await send(bulkParagraphs(30 * MB)), 'DOCX_MAX_PARAGRAPHS');
    } finally {
      await defaults.destroy();
    }
  }, 60_000);
});
