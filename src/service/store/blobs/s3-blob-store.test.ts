import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../../contract/auth';
import { DocumentRow } from '../../../contract/document';
import { buildKindSample } from '../../../docx/fixture';
import { startLocalS3, type LocalS3 } from '../../cluster/local-s3';
import { loadConfig } from '../../config';
import { multipartBody, startTestService, type TestService } from '../../../../test/support/test-service';
import { storageKeyFor } from '../content-store';
import { BlobStoreUnavailableError } from './blob-store';
import { createS3BlobStore } from './s3-blob-store';

/** A loopback port that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('S3 blob store against s3rver on loopback', () => {
  let dir: string;
  let s3: LocalS3;
  let store: ReturnType<typeof createS3BlobStore>;
  let t: TestService;
  let alice: SessionGrant;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'redline-s3-'));
    s3 = await startLocalS3(dir);
    const settings = loadConfig({ ...s3.env, DATA_DIR: dir }).s3!;
    store = createS3BlobStore(settings);
    // The whole service on the S3 store, selected by configuration as in production.
    t = await startTestService({ blobStore: 's3', s3: settings });
    alice = await t.signUpAndSignIn('alice@s3.example');
  });
  afterAll(async () => {
    await t?.destroy();
    store?.client.destroy();
    await s3?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const exists = async (sha256: string) => {
    try {
      await store.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: storageKeyFor(sha256) }));
      return true;
    } catch {
      return false;
    }
  };
  const upload = async (bytes: Uint8Array) => {
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'Contract.docx', bytes });
    const res = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(alice) } });
    expect(res.statusCode).toBe(201);
    return DocumentRow.parse(res.json());
  };
  const deleteSeries = async (id: string) => {
    const res = await t.app.inject({ method: 'DELETE', url: `/api/uploads/${id}`, headers: t.headers(alice) });
    expect(res.statusCode).toBe(200);
  };

  it('stores, reads and deletes bytes exactly (5 MB, with the SDK checksum defaults turned off)', async () => {
    expect(store.kind).toBe('s3');
    const bytes = new Uint8Array(randomBytes(5 * 1024 * 1024));
    const key = `sha256/${randomBytes(32).toString('hex')}`;
    await store.put(key, bytes);
    await store.put(key, bytes); // idempotent
    const back = await store.get(key);
    expect(back?.byteLength).toBe(bytes.byteLength);
    expect(Buffer.from(back!).equals(Buffer.from(bytes))).toBe(true);
    await store.delete(key);
    expect(await store.get(key)).toBeNull();
    await store.delete(key); // deleting what is gone is harmless
    await expect(store.put('../escape', bytes)).rejects.toThrow(/invalid blob key/);
  });

  it('an unreachable store is BlobStoreUnavailableError, and the HTTP layer answers 503', async () => {
    const settings = { ...t.config.s3!, endpoint: `http://127.0.0.1:${await closedPort()}` };
    const down = createS3BlobStore(settings);
    try {
      await expect(down.put('sha256/x', new Uint8Array([1]))).rejects.toBeInstanceOf(BlobStoreUnavailableError);
      await expect(down.get('sha256/x')).rejects.toBeInstanceOf(BlobStoreUnavailableError);
    } finally {
      down.client.destroy();
    }
    const offline = await startTestService({ blobStore: 's3', s3: settings });
    try {
      const grant = await offline.signUpAndSignIn('bob@s3.example');
      const body = multipartBody({ purpose: 'source_doc' }, { name: 'Contract.docx', bytes: buildKindSample('insert') });
      const res = await offline.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...offline.headers(grant) } });
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('service_unavailable');
      expect(res.headers['retry-after']).toBeDefined();
      expect((await offline.ctx.db.query('SELECT id FROM uploads')).length).toBe(0);
    } finally {
      await offline.destroy();
    }
  });

  it('uploads land in the bucket under their content address; the sweep frees them once no row references them', async () => {
    const row = await upload(buildKindSample('r-prop-change'));
    expect(row.storageKey).toBe(storageKeyFor(row.contentSha256!));
    expect(await exists(row.contentSha256!)).toBe(true);
    const download = await t.app.inject({ method: 'GET', url: `/api/uploads/${row.id}/content`, headers: t.headers(alice) });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.byteLength).toBe(row.sizeBytes);

    await deleteSeries(row.id);
    expect((await t.ctx.content.sweep(3600_000)).removed).not.toContain(row.contentSha256);
    expect(await exists(row.contentSha256!)).toBe(true);
    expect((await t.ctx.content.sweep(0)).removed).toContain(row.contentSha256);
    expect(await exists(row.contentSha256!)).toBe(false);
  });

  it('never removes a blob a live row references or an upload in flight has written', async () => {
    const shared = buildKindSample('tc-prop-change');
    const a = await upload(shared);
    const b = await upload(shared);
    await deleteSeries(a.id);
    // In flight: bytes stored and registered, the row not yet committed.
    const inFlight = await t.ctx.content.put(buildKindSample('p-prop-change'));
    expect((await t.ctx.content.sweep(3600_000)).removed).not.toContain(inFlight.sha256);
    expect(await exists(inFlight.sha256)).toBe(true);
    expect((await t.ctx.content.sweep(0)).removed).not.toContain(b.contentSha256);
    expect(await exists(b.contentSha256!)).toBe(true);
  });

  it('a put racing the sweep of the same content always ends with the bytes stored', async () => {
    const bytes = buildKindSample('sect-prop-change');
    const graceMs = 200;
    for (let round = 0; round < 6; round++) {
      const row = await upload(bytes);
      await deleteSeries(row.id);
      await new Promise((r) => setTimeout(r, graceMs + 100));
      // The sweep may remove it now (unreferenced, past the grace period) while an upload of the same content arrives.
      const sweep = () => t.ctx.content.sweep(graceMs);
      const [, put] = await Promise.all([
        round % 2 ? sweep() : new Promise((r) => setImmediate(r)).then(sweep),
        t.ctx.content.put(bytes),
      ]);
      expect(put.sha256).toBe(row.contentSha256);
      // Whichever order they ran in, a completed put vouches for its bytes.
      expect(Buffer.from(await t.ctx.content.get(put.sha256)).equals(Buffer.from(bytes))).toBe(true);
      expect(await exists(put.sha256)).toBe(true);
    }
  });
});
