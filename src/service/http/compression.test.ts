/**
 * Transfer (issue 24.11): API answers are compressed (brotli or gzip, as the request accepts)
 * above 1 kB; hashed assets are sent from the .br/.gz the build wrote beside them, cached for a
 * year and varying by Accept-Encoding; nothing is compressed for a request that accepts no
 * encoding; the live event stream and answers that are already compressed (.docx, PDF) are
 * sent as they are. Raw node:http so the bytes on the wire are what the assertions see.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import { ReviewResponse } from '../../contract/review';
import { buildDemoContract } from '../../docx/fixture';
import { multipartBody, startHttpTestService, type TestService } from '../../../test/support/test-service';

interface RawAnswer { status: number; headers: http.IncomingHttpHeaders; body: Buffer }

/** One GET as sent on the wire; a stream is read up to its first chunk and then left. */
function rawGet(base: string, url: string, headers: Record<string, string>, firstChunkOnly = false): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${base}${url}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (firstChunkOnly) {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
          request.destroy();
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    request.on('error', (error) => { if (!firstChunkOnly) reject(error); });
  });
}

const decode = (answer: RawAnswer): Buffer => {
  switch (answer.headers['content-encoding']) {
    case 'br': return brotliDecompressSync(answer.body);
    case 'gzip': return gunzipSync(answer.body);
    default: return answer.body;
  }
};

describe('compression on the wire', () => {
  let t: TestService & { base: string };
  let lawyer: SessionGrant;
  let draftId: string;
  const dist = mkdtempSync(path.join(os.tmpdir(), 'redline-dist-'));
  // A hashed asset as the build leaves it: the file, and its .br/.gz beside it (vite.config.ts).
  const script = Buffer.from(Array.from({ length: 800 }, (_, i) => `export const value${i} = ${i} * 2;\n`).join(''));
  const tiny = Buffer.from('export const x = 1;\n');

  beforeAll(async () => {
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><script type="module" src="/assets/index-abc123.js"></script>');
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), script);
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js.br'), brotliCompressSync(script));
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js.gz'), gzipSync(script));
    writeFileSync(path.join(dist, 'assets', 'tiny-abc123.js'), tiny);
    t = await startHttpTestService({ staticDir: dist });
    lawyer = await t.signUpAndSignIn('transfer@firm.example', 'Firm');
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'MSA.docx', bytes: buildDemoContract() });
    const uploadId = (await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(lawyer) } })).json().id;
    draftId = (await t.app.inject({ method: 'POST', url: `/api/uploads/${uploadId}/working-draft`, headers: t.headers(lawyer) })).json().id;
  }, 60_000);
  afterAll(async () => {
    await t?.destroy();
    rmSync(dist, { recursive: true, force: true });
  });

  const session = () => t.headers(lawyer) as Record<string, string>;

  it('compresses an API answer as the request accepts, and not at all when it accepts nothing', async () => {
    const plain = await rawGet(t.base, `/api/documents/${draftId}/review`, session());
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const full = ReviewResponse.parse(JSON.parse(plain.body.toString()));
    for (const encoding of ['br', 'gzip'] as const) {
      const answer = await rawGet(t.base, `/api/documents/${draftId}/review`, { ...session(), 'accept-encoding': encoding });
      expect(answer.status, encoding).toBe(200);
      expect(answer.headers['content-encoding'], encoding).toBe(encoding);
      expect(answer.headers.vary, encoding).toMatch(/accept-encoding/i);
      expect(answer.body.length, encoding).toBeLessThan(plain.body.length);
      expect(ReviewResponse.parse(JSON.parse(decode(answer).toString())), encoding).toEqual(full);
    }
    // Brotli first when both are accepted.
    expect((await rawGet(t.base, `/api/documents/${draftId}/review`, { ...session(), 'accept-encoding': 'gzip, deflate, br' })).headers['content-encoding']).toBe('br');
    // Under the threshold an answer goes as it is.
    const small = await rawGet(t.base, '/api/health/live', { 'accept-encoding': 'br, gzip' });
    expect(small.status).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('reads request bodies as sent: a compressed body is not inflated past the checked length', async () => {
    const body = gzipSync(JSON.stringify({ identifier: 'inflated@firm.example' }));
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in/request-code', payload: body,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
    expect(res.statusCode).toBe(400);
  });

  it('sends a hashed asset from the file compressed at build, cached for a year', async () => {
    for (const [encoding, file] of [['br', brotliCompressSync(script)], ['gzip', gzipSync(script)]] as const) {
      const answer = await rawGet(t.base, '/assets/index-abc123.js', { 'accept-encoding': encoding });
      expect(answer.status, encoding).toBe(200);
      expect(answer.headers['content-encoding'], encoding).toBe(encoding);
      expect(answer.headers['content-type'], encoding).toMatch(/javascript/);
      expect(answer.headers['cache-control'], encoding).toBe('public, max-age=31536000, immutable');
      expect(answer.headers.vary, encoding).toMatch(/accept-encoding/i);
      expect(answer.body.equals(file), encoding).toBe(true);
      expect(decode(answer).equals(script), encoding).toBe(true);
    }
    const plain = await rawGet(t.base, '/assets/index-abc123.js', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.body.equals(script)).toBe(true);
    // An asset too small to have been compressed is sent as it is.
    const small = await rawGet(t.base, '/assets/tiny-abc123.js', { 'accept-encoding': 'br' });
    expect(small.status).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body.equals(tiny)).toBe(true);
    // The page itself is never cached without asking.
    for (const url of ['/', '/documents/anything']) {
      const page = await rawGet(t.base, url, { 'accept-encoding': 'br' });
      expect(page.status, url).toBe(200);
      expect(page.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('leaves the live event stream and already-compressed answers as they are', async () => {
    const accept = { ...session(), 'accept-encoding': 'br, gzip' };
    const events = await rawGet(t.base, `/api/documents/${draftId}/events`, accept, true);
    expect(events.status).toBe(200);
    expect(events.headers['content-type']).toContain('text/event-stream');
    expect(events.headers['content-encoding']).toBeUndefined();
    expect(events.body.toString()).toMatch(/^retry: \d+/);

    const pdf = await rawGet(t.base, `/api/documents/${draftId}/report.pdf`, accept);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-encoding']).toBeUndefined();
    expect(pdf.body.subarray(0, 5).toString()).toBe('%PDF-');
    for (const url of [`/api/documents/${draftId}/download?variant=clean`, `/api/documents/${draftId}/render`]) {
      const docx = await rawGet(t.base, url, accept);
      expect(docx.status, url).toBe(200);
      expect(docx.headers['content-encoding'], url).toBeUndefined();
      expect(docx.body.subarray(0, 2).toString(), url).toBe('PK');
    }
  });
});
