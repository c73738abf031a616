import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DocumentRow } from '../../src/contract/document';
import { buildDemoContract } from '../../src/docx/fixture';
import { DEMO_EMAIL } from '../../src/service/seed';
import { multipartBody } from '../support/test-service';
import { childDatabaseUnavailable, prepareChildDatabase, type ChildDatabase } from './child-database';
import { signInOverHttp, startChildService } from './child-service';

const skip = childDatabaseUnavailable();
if (skip) console.warn(`graceful-shutdown.test.ts: ${skip}`);

/** Sends a request's head and half its body now; `finish()` sends the rest and answers the response. */
function halfSentRequest(url: string, method: string, headers: Record<string, string>, body: Buffer) {
  const target = new URL(url);
  const request = http.request({ host: target.hostname, port: target.port, path: target.pathname, method, headers: { ...headers, 'content-length': String(body.byteLength) }, agent: false });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', reject);
  });
  const half = Math.floor(body.byteLength / 2);
  request.flushHeaders();
  request.write(body.subarray(0, half));
  return { finish: () => { request.end(body.subarray(half)); return answer; } };
}

async function refusesConnections(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/api/health/live`, { signal: AbortSignal.timeout(1_000) });
    return false;
  } catch (error) {
    return /ECONNREFUSED/.test(String((error as { cause?: unknown }).cause ?? error));
  }
}

describe.skipIf(skip !== null)('graceful shutdown on SIGTERM', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'redline-shutdown-'));
  let database: ChildDatabase | null = null;
  afterAll(async () => {
    await database?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('fails readiness, keeps serving through the drain, finishes the request in flight, stops listening, exits 0', async () => {
    database = await prepareChildDatabase(dataDir);
    const env = { SHUTDOWN_DRAIN_MS: '1500', SHUTDOWN_GRACE_MS: '20000' };
    const service = await startChildService({ dataDir, env, seedDemo: true, ...(database.databaseUrl ? { databaseUrl: database.databaseUrl } : {}) });
    const grant = await signInOverHttp(service.url, DEMO_EMAIL);
    const auth = { authorization: `Bearer ${grant.session_token}`, 'x-org-id': grant.orgId };
    expect((await fetch(`${service.url}/api/health/ready`)).status).toBe(200);

    // An upload whose body is half sent when the signal arrives: a request in flight.
    const form = multipartBody({ purpose: 'source_doc' }, { name: 'In flight.docx', bytes: buildDemoContract() });
    const inFlight = halfSentRequest(`${service.url}/api/uploads`, 'POST', { ...auth, ...form.headers }, form.payload);
    await new Promise((r) => setTimeout(r, 200));
    service.signal('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));

    // Draining: readiness fails at once, yet new requests are still served until the drain delay ends.
    const ready = await fetch(`${service.url}/api/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ code: 'not_ready', state: 'draining' });
    expect((await fetch(`${service.url}/api/uploads`, { headers: auth })).status).toBe(200);

    // After the drain delay the instance stops listening, but it is still running: the upload is unfinished.
    const deadline = Date.now() + 5_000;
    while (!(await refusesConnections(service.url))) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 100));
    }
    let exitedEarly = false;
    void service.exited.then(() => { exitedEarly = true; });
    await new Promise((r) => setTimeout(r, 500));
    expect(exitedEarly).toBe(false);

    const answered = await inFlight.finish();
    expect(answered.status).toBe(201);
    const row = DocumentRow.parse(JSON.parse(answered.body));
    expect(await service.exited).toBe(0);

    // The upload it finished while shutting down is there after a restart.
    const again = await startChildService({ dataDir, ...(database.databaseUrl ? { databaseUrl: database.databaseUrl } : {}) });
    try {
      const regrant = await signInOverHttp(again.url, DEMO_EMAIL);
      const listed = await fetch(`${again.url}/api/uploads/${row.id}`, { headers: { authorization: `Bearer ${regrant.session_token}`, 'x-org-id': regrant.orgId } });
      expect(listed.status).toBe(200);
    } finally {
      await again.stop();
    }
  }, 120_000);
});
