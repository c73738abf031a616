import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import { DocumentRow } from '../../contract/document';
import { ReviewResponse } from '../../contract/review';
import { listRevisions, openDocx } from '../../docx';
import { buildDemoContract } from '../../docx/fixture';
import { addMember, createOrg, createUser } from '../auth/directory';
import type { Database } from '../store/database';
import { openPostgresDatabase } from '../store/postgres-database';
import { multipartBody } from '../testing/test-service';
import { startCluster, type Cluster } from './cluster';
import { startLocalS3, type LocalS3 } from './local-s3';
import { createScratchDatabase, LOCAL_POSTGRES_URL, postgresReachable } from './postgres-admin';
import { SERVED_BY_HEADER } from './round-robin-proxy';

/**
 * Three real service processes (`src/service/main.ts`) on one PostgreSQL database of
 * their own and one s3rver, behind the round-robin proxy: what holds across instances.
 */
const SERVER_URL = process.env.DATABASE_URL || LOCAL_POSTGRES_URL;
const reachable = await postgresReachable(SERVER_URL);
if (!reachable) console.warn(`cluster test skipped: PostgreSQL is not reachable at ${SERVER_URL.replace(/\/\/[^@/]*@/, '//***@')}`);

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  json<T = Record<string, unknown>>(): T;
}

/** One HTTP request; `from` picks the loopback source address, so each "client" has its own IP. */
function send(base: string, method: string, url: string, options: { headers?: Record<string, string>; body?: object | Buffer; from?: string } = {}): Promise<Answer> {
  const target = new URL(url, base);
  const payload = options.body === undefined ? undefined : Buffer.isBuffer(options.body) ? options.body : Buffer.from(JSON.stringify(options.body));
  const headers: Record<string, string> = { ...options.headers };
  if (payload && !Buffer.isBuffer(options.body)) headers['content-type'] = 'application/json';
  if (payload) headers['content-length'] = String(payload.byteLength);
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method, headers,
      localAddress: options.from ?? '127.0.0.1', agent: false, timeout: 20_000,
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body, json: <T>() => JSON.parse(body.toString('utf8')) as T });
      });
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`${method} ${url} timed out`)));
    request.on('error', reject);
    request.end(payload);
  });
}

describe.skipIf(!reachable)('three instances on PostgreSQL + S3 behind the round-robin proxy', () => {
  let tmp: string;
  let s3: LocalS3;
  let database: { url: string; drop(): Promise<void> };
  let cluster: Cluster;
  let db: Database;
  let ipCounter = 1;
  const nextIp = () => `127.0.${10 + (ipCounter >> 8)}.${ipCounter++ & 255}`;

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'redline-cluster-'));
    s3 = await startLocalS3(path.join(tmp, 's3'));
    database = await createScratchDatabase(SERVER_URL, 'redline_cluster_test');
    cluster = await startCluster({
      instances: 3, databaseUrl: database.url, blobStoreEnv: s3.env, dataDir: tmp,
      codeHmacKey: randomBytes(32).toString('base64url'),
      // Tests sign the same person in several times; the per-IP limits stay at DESIGN's values.
      env: { LOG_LEVEL: 'warn', STATIC_DIR: '', RATE_RESEND_COOLDOWN_MS: '0', RATE_CODES_PER_ADDRESS_PER_HOUR: '1000', SMTP_URL: '' },
      startTimeoutMs: 45_000,
    });
    db = openPostgresDatabase({ connectionString: database.url, maxConnections: 2 });
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    await cluster?.stop();
    await database?.drop();
    await s3?.close();
    rmSync(tmp, { recursive: true, force: true });
  }, 30_000);

  const newUser = async (email: string) => db.transaction(async (tx) => {
    const user = await createUser(tx, email, email.split('@')[0]!);
    const orgId = await createOrg(tx, `Org of ${email}`);
    await addMember(tx, orgId, user.id, 'owner');
  });
  /** The real code flow through the proxy: request a code, read it from the (shared) outbox, verify it. */
  const signIn = async (email: string): Promise<SessionGrant> => {
    const from = nextIp();
    const requested = await send(cluster.url, 'POST', '/api/auth/sign-in/request-code', { body: { identifier: email }, from });
    expect(requested.status).toBe(202);
    const mail = await send(cluster.url, 'GET', `/api/dev/mailbox?to=${encodeURIComponent(email)}`, { from });
    const code = mail.json<{ code: string | null }>().code;
    expect(code).toMatch(/^\d{8}$/);
    const verified = await send(cluster.url, 'POST', '/api/auth/verify', { body: { identifier: email, code }, from });
    expect(verified.status).toBe(200);
    return verified.json<SessionGrant>();
  };
  const auth = (grant: SessionGrant) => ({ authorization: `Bearer ${grant.session_token}`, 'x-org-id': grant.orgId });

  it('rotates requests over the three instances', async () => {
    const servedBy = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const res = await send(cluster.url, 'GET', '/api/openapi.json');
      expect(res.status).toBe(200);
      servedBy.add(String(res.headers[SERVED_BY_HEADER]));
    }
    expect(servedBy).toEqual(new Set(cluster.instances.map((i) => new URL(i.url).host)));
  });

  it('holds the per-IP rate limit across instances, per real client address', async () => {
    const from = nextIp();
    const answers: Answer[] = [];
    for (let i = 0; i < 4; i++) {
      answers.push(await send(cluster.url, 'POST', '/api/auth/sign-in/request-code', { body: { identifier: `nobody-${i}@cluster.example` }, from }));
    }
    // Three sends per IP per minute, counted in the database: each instance saw at most two of them.
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 429]);
    expect(new Set(answers.slice(0, 3).map((a) => a.headers[SERVED_BY_HEADER])).size).toBe(3);
    expect(answers[3]!.json().code).toBe('rate_limited');
    expect(Number(answers[3]!.headers['retry-after'])).toBeGreaterThan(0);
    // Another client address is not limited: the proxy passed on who the client was.
    const other = await send(cluster.url, 'POST', '/api/auth/sign-in/request-code', { body: { identifier: 'nobody@cluster.example' }, from: nextIp() });
    expect(other.status).toBe(202);
  });

  it('signs out everywhere: every session of the user ends on every instance', async () => {
    await newUser('everywhere@cluster.example');
    await newUser('bystander@cluster.example');
    const grants = [await signIn('everywhere@cluster.example'), await signIn('everywhere@cluster.example'), await signIn('everywhere@cluster.example')];
    const bystander = await signIn('bystander@cluster.example');
    const sessionStatus = (instance: string, grant: SessionGrant) =>
      send(instance, 'GET', '/api/auth/session', { headers: auth(grant) }).then((r) => r.status);
    for (const instance of cluster.instances) for (const grant of grants) expect(await sessionStatus(instance.url, grant)).toBe(200);

    const out = await send(cluster.instances[1]!.url, 'POST', '/api/auth/sign-out-everywhere', { headers: { authorization: `Bearer ${grants[0]!.session_token}` } });
    expect(out.status).toBeLessThan(300);
    for (const instance of cluster.instances) {
      for (const grant of grants) expect(await sessionStatus(instance.url, grant)).toBe(401);
      expect(await sessionStatus(instance.url, bystander)).toBe(200);
    }
  });

  it('serialises concurrent applies on one draft through different instances, losing nothing', async () => {
    await newUser('reviewer@cluster.example');
    const reviewer = await signIn('reviewer@cluster.example');
    const form = multipartBody({ purpose: 'source_doc' }, { name: 'MSA.docx', bytes: buildDemoContract() });
    const created = await send(cluster.url, 'POST', '/api/uploads', { headers: { ...auth(reviewer), ...form.headers }, body: form.payload });
    expect(created.status).toBe(201);
    const draftRes = await send(cluster.url, 'POST', `/api/uploads/${DocumentRow.parse(created.json()).id}/working-draft`, { headers: auth(reviewer) });
    expect(draftRes.status).toBe(201);
    const draft = DocumentRow.parse(draftRes.json());
    const before = ReviewResponse.parse((await send(cluster.url, 'GET', `/api/documents/${draft.id}/review`, { headers: auth(reviewer) })).json());
    const bytes = new Uint8Array(Buffer.from(before.contentBase64, 'base64'));
    const all = before.revisions.map((r) => r.change_id);
    // Changes whose decision resolves nothing else, so every batch below is independent of the others.
    const resolvesOnlyItself = (id: string, decision: 'accept' | 'reject') =>
      openDocx(bytes).apply({ accept: decision === 'accept' ? [id] : [], reject: decision === 'reject' ? [id] : [] }).changeIds().length === all.length - 1;
    const independent = all.filter((id) => resolvesOnlyItself(id, 'accept') && resolvesOnlyItself(id, 'reject')).slice(0, 12);
    expect(independent.length).toBeGreaterThanOrEqual(8);
    const verdict = (i: number) => (i % 2 === 0 ? 'in' : 'back');

    // All at once, spread over the instances directly, plus the first change a second time on another instance.
    const batches = independent.map((id, i) => ({ id, instance: cluster.instances[i % 3]!, body: verdict(i) === 'in' ? { accepted_change_ids: [id], rejected_change_ids: [] } : { accepted_change_ids: [], rejected_change_ids: [id] } }));
    batches.push({ ...batches[0]!, instance: cluster.instances[1]! });
    const answers = await Promise.all(batches.map((b) => send(b.instance.url, 'POST', `/api/documents/${draft.id}/revisions/apply`, { headers: auth(reviewer), body: b.body })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.slice(1, -1).every((s) => s === 200)).toBe(true);
    // The same decision sent twice: exactly one applies, the other learns it was already decided.
    expect([statuses[0], statuses.at(-1)].sort()).toEqual([200, 409]);
    expect([answers[0]!, answers.at(-1)!].find((a) => a.status === 409)!.json().code).toBe('already_decided');

    const after = ReviewResponse.parse((await send(cluster.url, 'GET', `/api/documents/${draft.id}/review`, { headers: auth(reviewer) })).json());
    expect(after.revisions.map((r) => r.change_id).sort()).toEqual(all.filter((id) => !independent.includes(id)).sort());
    expect(listRevisions(new Uint8Array(Buffer.from(after.contentBase64, 'base64'))).map((r) => r.change_id).sort())
      .toEqual(all.filter((id) => !independent.includes(id)).sort());
    const items = new Map(after.track!.items.map((item) => [item.id, item]));
    independent.forEach((id, i) => expect(items.get(id)).toMatchObject({ state: verdict(i), decidedByUserId: reviewer.user.id }));
    const log = await db.query<{ seq: number; kind: string }>('SELECT seq, kind FROM decision_batches WHERE upload_id = $1 ORDER BY seq', [draft.id]);
    expect(log.map((e) => e.seq)).toEqual(independent.map((_, i) => i + 1));
    expect(log.every((e) => e.kind === 'decide')).toBe(true);
  });
});
