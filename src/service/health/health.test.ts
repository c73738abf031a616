import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LivenessAnswer, ReadinessAnswer } from '../../contract/health';
import { createDiskBlobStore } from '../store/blobs/disk-blob-store';
import type { Database } from '../store/database';
import { openTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { SwitchableBlobStore } from '../../../test/reliability/switchable-blob-store';
import { startTestService, type TestService } from '../../../test/support/test-service';

/** A real database that can be made to stop answering, as a stuck connection pool would. */
function stallable(db: Database): { db: Database; stall(on: boolean): void } {
  let stalled = false;
  const wrapped = new Proxy(db, {
    get(target, key, receiver) {
      if (key === 'query') {
        return (...args: Parameters<Database['query']>) => stalled ? new Promise(() => {}) : target.query(...args);
      }
      const value = Reflect.get(target, key, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db: wrapped, stall: (on) => { stalled = on; } };
}

describe('health routes', () => {
  let t: TestService;
  let testDb: TestDatabase;
  let blobs: SwitchableBlobStore;
  let database: ReturnType<typeof stallable>;
  let blobDir: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    blobDir = mkdtempSync(path.join(os.tmpdir(), 'redline-health-'));
    blobs = new SwitchableBlobStore(createDiskBlobStore(blobDir));
    testDb = await openTestDatabase();
    database = stallable(testDb.db);
    t = await startTestService({ logLevel: 'info' }, { db: database.db, blobs, logger: { write: (line) => void logLines.push(line) } });
  });
  afterAll(async () => {
    await t?.destroy();
    await testDb?.destroy();
    rmSync(blobDir, { recursive: true, force: true });
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('answers liveness and readiness without authentication', async () => {
    const live = await get('/api/health/live');
    expect(live.statusCode).toBe(200);
    expect(LivenessAnswer.parse(live.json())).toEqual({ state: 'live' });
    const ready = await get('/api/health/ready');
    expect(ready.statusCode).toBe(200);
    expect(ready.headers['cache-control']).toBe('no-store');
    const answer = ReadinessAnswer.parse(ready.json());
    expect(answer.state).toBe('ready');
    expect(answer.checks.database.ok && answer.checks.blobStore.ok).toBe(true);
  });

  it('is not ready while the blob store is down, and ready again when it is back', async () => {
    blobs.mode = 'down';
    const down = await get('/api/health/ready');
    expect(down.statusCode).toBe(503);
    expect(down.headers['content-type']).toContain('application/problem+json');
    expect(down.json()).toMatchObject({ status: 503, code: 'not_ready', state: 'not_ready', checks: { database: { ok: true }, blobStore: { ok: false } } });
    expect(down.json().detail).toContain('blobStore');
    blobs.mode = 'up';
    expect((await get('/api/health/ready')).statusCode).toBe(200);
  });

  it('gives up on a database that does not answer within a second', async () => {
    database.stall(true);
    const started = Date.now();
    const stuck = await get('/api/health/ready');
    database.stall(false);
    expect(stuck.statusCode).toBe(503);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(stuck.json()).toMatchObject({ state: 'not_ready', checks: { database: { ok: false, error: expect.stringContaining('1000 ms') } } });
    // Liveness never touches a dependency.
    expect((await get('/api/health/live')).statusCode).toBe(200);
  });

  it('fails readiness once draining, while liveness still answers', async () => {
    expect((await get('/api/health/ready')).statusCode).toBe(200);
    t.readiness.startDraining();
    const draining = await get('/api/health/ready');
    expect(draining.statusCode).toBe(503);
    expect(draining.json()).toMatchObject({ state: 'draining', code: 'not_ready' });
    expect((await get('/api/health/live')).statusCode).toBe(200);
  });

  it('logs health checks only at warn level, other requests at info', async () => {
    logLines.length = 0;
    await get('/api/health/live');
    await get('/api/health/ready');
    await get('/api/openapi.json');
    const urls = logLines.map((line) => (JSON.parse(line) as { req?: { url?: string } }).req?.url).filter(Boolean);
    expect(urls).toContain('/api/openapi.json');
    expect(urls.filter((u) => u!.startsWith('/api/health'))).toEqual([]);
  });
});
