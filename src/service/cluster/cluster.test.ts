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
import { multipartBody } from '../../../test/support/test-service';
import { startCluster, type Cluster } from './cluster';
import type { LocalS3 } from './local-s3';
import { startLocalS3Process } from '../../../test/support/local-s3-process';
import { createScratchDatabase, LOCAL_POSTGRES_URL, postgresReachable } from './postgres-admin';
import { buildBenchmarkContract } from '../../docx/fixture/benchmark-contract';
import { findHaproxy, HAPROXY_MISSING } from './haproxy';
import { SERVED_BY_HEADER } from './haproxy-config';

/**
 * Three real service processes (`src/service/main.ts`) on one PostgreSQL database of
 * their own and one s3rver, behind HAProxy: what holds across instances, and what an
 * operator sees when one instance dies or all are restarted in turn.
 */
const SERVER_URL = process.env.DATABASE_URL || LOCAL_POSTGRES_URL;
const reachable = await postgresReachable(SERVER_URL);
if (!reachable) console.warn(`cluster test skipped: PostgreSQL is not reachable at ${SERVER_URL.replace(/\/\/[^@/]*@/, '//***@')}`);
const haproxy = findHaproxy();
if (!haproxy) console.warn(`cluster test skipped: ${HAPROXY_MISSING}`);

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
      localAddress: options.from ?? '127.0.0.1', agent: false, timeout: 60_000,
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

describe.skipIf(!reachable || !haproxy)('three instances on PostgreSQL + S3 behind HAProxy', () => {
  let tmp: string;
  let s3: LocalS3;
  let database: { url: string; drop(): Promise<void> };
  let cluster: Cluster;
  let db: Database;
  let ipCounter = 1;
  const nextIp = () => `127.0.${10 + (ipCounter >> 8)}.${ipCounter++ & 255}`;

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'redline-cluster-'));
    s3 = await startLocalS3Process(path.join(tmp, 's3'));
    database = await createScratchDatabase(SERVER_URL, 'redline_cluster_test');
    cluster = await startCluster({
      instances: 3, databaseUrl: database.url, blobStoreEnv: s3.env, dataDir: tmp,
      codeHmacKey: randomBytes(32).toString('base64url'),
      // Tests sign the same person in several times; the per-IP limits stay at DESIGN's values.
      env: { LOG_LEVEL: 'warn', STATIC_DIR: '', RATE_RESEND_COOLDOWN_MS: '0', RATE_CODES_PER_ADDRESS_PER_HOUR: '1000', SMTP_URL: '' },
      startTimeoutMs: 45_000,
      checkIntervalMs: 500,
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
    expect(servedBy).toEqual(new Set(cluster.instances.map((i) => i.name)));
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
  /** A fresh draft of a contract with many changes, and `count` of them that each decide only themselves. */
  const draftWithIndependentChanges = async (grant: SessionGrant, pages: number, count: number) => {
    const form = multipartBody({ purpose: 'source_doc' }, { name: 'Load.docx', bytes: buildBenchmarkContract({ pages }) });
    const created = await send(cluster.url, 'POST', '/api/uploads', { headers: { ...auth(grant), ...form.headers }, body: form.payload });
    expect(created.status).toBe(201);
    const draftRes = await send(cluster.url, 'POST', `/api/uploads/${DocumentRow.parse(created.json()).id}/working-draft`, { headers: auth(grant) });
    expect(draftRes.status).toBe(201);
    const draft = DocumentRow.parse(draftRes.json());
    const review = ReviewResponse.parse((await send(cluster.url, 'GET', `/api/documents/${draft.id}/review`, { headers: auth(grant) })).json());
    // One parse; each candidate is tried on a copy (OpenDocx.copy), not on a fresh parse of the
    // whole contract (two parses per candidate took 58 s of the file's set-up at load 9, 37 s now).
    const doc = openDocx(new Uint8Array(Buffer.from(review.contentBase64, 'base64')));
    const all = review.revisions.map((r) => r.change_id);
    const alone = (id: string, accept: boolean) => doc.copy().apply({ accept: accept ? [id] : [], reject: accept ? [] : [id] }).changeIds().length === all.length - 1;
    const ids: string[] = [];
    for (const id of all) {
      if (ids.length === count) break;
      if (alone(id, true) && alone(id, false)) ids.push(id);
      // The local S3 server runs in this process: a long synchronous stretch here would stall it,
      // fail every instance's readiness, and HAProxy would rightly take them all out.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(ids.length).toBe(count);
    return { draft, ids };
  };

  /**
   * One batch as a careful client sends it: an Idempotency-Key, and one retry after a failure
   * with no answer or a 5xx. A retry told 409 already_decided means the first send was applied
   * (the track is checked afterwards).
   */
  const applyWithOneRetry = async (grant: SessionGrant, draftId: string, id: string, accept: boolean) => {
    const body = accept ? { accepted_change_ids: [id], rejected_change_ids: [] } : { accepted_change_ids: [], rejected_change_ids: [id] };
    const headers = { ...auth(grant), 'idempotency-key': randomBytes(12).toString('hex') };
    const details: string[] = [];
    const once = () => send(cluster.url, 'POST', `/api/documents/${draftId}/revisions/apply`, { headers, body }).then((a) => {
      if (a.status !== 200) details.push(`${a.status} ${a.headers[SERVED_BY_HEADER] ?? 'load balancer'}: ${a.body.toString('utf8').slice(0, 300)}`);
      return a.status;
    }, (error: unknown) => {
      details.push(String(error));
      return 0;
    });
    const first = await once();
    if (first === 200) return { ok: true, retried: false, statuses: [first], details };
    const second = await once();
    return { ok: second === 200 || second === 409, retried: true, statuses: [first, second], details };
  };

  it('loses no batch when an instance is killed mid-load: HAProxy retries elsewhere and marks it down; it rejoins after a restart', async () => {
    await newUser('failover@cluster.example');
    const grant = await signIn('failover@cluster.example');
    const { draft, ids } = await draftWithIndependentChanges(grant, 8, 40);
    const decisions = ids.map((id, i) => ({ id, accept: i % 3 !== 0 }));
    // 8 clients, 5 batches each, one draft; instance 2 is killed with SIGKILL once 6 batches are answered.
    let answered = 0;
    let killedAt = 0;
    let markedDownMs = -1;
    const killing = (async () => {
      while (answered < 6) await new Promise((r) => setTimeout(r, 10));
      killedAt = Date.now();
      await cluster.kill(2);
      markedDownMs = await cluster.waitForState(2, 'DOWN', 10_000).then(() => Date.now() - killedAt);
    })();
    const results = await Promise.all(Array.from({ length: 8 }, async (_, client) => {
      const mine = [];
      for (let k = 0; k < 5; k++) {
        const d = decisions[client * 5 + k]!;
        mine.push({ ...d, ...(await applyWithOneRetry(grant, draft.id, d.id, d.accept)) });
        answered++;
      }
      return mine;
    }));
    await killing;
    const flat = results.flat();
    const retried = flat.filter((r) => r.retried);
    console.info(`failover: ${flat.length} batches, ${flat.filter((r) => !r.ok).length} failed, ${retried.length} retried `
      + `(${retried.map((r) => `${r.statuses.join('->')} [${r.details.join(' | ').slice(0, 160)}]`).join(', ') || 'none'}); instance marked down ${markedDownMs} ms after SIGKILL`);
    expect(flat.filter((r) => !r.ok)).toEqual([]);
    // Every batch is in the track exactly as sent: applied once, by the first send or by the retry.
    const after = ReviewResponse.parse((await send(cluster.url, 'GET', `/api/documents/${draft.id}/review`, { headers: auth(grant) })).json());
    const items = new Map(after.track!.items.map((item) => [item.id, item]));
    for (const d of decisions) expect(items.get(d.id)?.state, d.id).toBe(d.accept ? 'in' : 'back');

    // Back again: HAProxy's checks bring the restarted instance into the rotation.
    await cluster.restart(2);
    const upMs = await cluster.waitForState(2, 'UP', 20_000);
    const servedBy = new Set<string>();
    for (let i = 0; i < 9; i++) servedBy.add(String((await send(cluster.url, 'GET', '/api/health/live')).headers[SERVED_BY_HEADER]));
    console.info(`failover: instance 2 restarted and marked up ${upMs} ms after it answered`);
    expect(servedBy.has('instance-2')).toBe(true);
  }, 120_000);

  it('loses no request while all three instances are restarted in turn under load (SIGTERM, exit 0, restart, rejoin)', async () => {
    await newUser('rolling@cluster.example');
    const grant = await signIn('rolling@cluster.example');
    const { draft, ids } = await draftWithIndependentChanges(grant, 12, 60);
    const pool = [...ids];
    const outcomes: { kind: string; status: number; detail: string; ms: number }[] = [];
    let loading = true;
    // 4 clients: applies of one change each while changes last, reads of the upload list throughout; no retries.
    const clients = Array.from({ length: 4 }, async (_, client) => {
      while (loading) {
        const id = client % 2 === 0 ? pool.shift() : undefined;
        if (id) {
          const started = Date.now();
          const outcome = await send(cluster.url, 'POST', `/api/documents/${draft.id}/revisions/apply`, { headers: auth(grant), body: { accepted_change_ids: [id], rejected_change_ids: [] } })
            .then((a) => ({ status: a.status, detail: a.status === 200 ? '' : a.body.toString('utf8').slice(0, 200) }), (error: unknown) => ({ status: 0, detail: String(error) }));
          outcomes.push({ kind: 'apply', ...outcome, ms: Date.now() - started });
        } else {
          const started = Date.now();
          const outcome = await send(cluster.url, 'GET', '/api/uploads', { headers: auth(grant) })
            .then((a) => ({ status: a.status, detail: a.status === 200 ? '' : a.body.toString('utf8').slice(0, 200) }), (error: unknown) => ({ status: 0, detail: String(error) }));
          outcomes.push({ kind: 'list', ...outcome, ms: Date.now() - started });
        }
      }
    });
    const exitCodes: (number | null)[] = [];
    for (const index of [1, 2, 3]) {
      exitCodes.push(await cluster.terminate(index));
      await cluster.restart(index);
      await cluster.waitForState(index, 'UP', 20_000);
    }
    loading = false;
    await Promise.all(clients);
    const failed = outcomes.filter((o) => o.status !== 200);
    console.info(`rolling restart: ${outcomes.length} requests (${outcomes.filter((o) => o.kind === 'apply').length} applies) during 3 restarts, `
      + `${failed.length} failed; exit codes ${exitCodes.join(', ')}`);
    expect(exitCodes).toEqual([0, 0, 0]);
    expect(failed).toEqual([]);
    expect(outcomes.filter((o) => o.kind === 'apply').length).toBeGreaterThan(10);
  }, 180_000);
});
