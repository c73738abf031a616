/**
 * Load on the scale-out configuration (issue #7 item 3). Prints figures; never fails.
 *
 *   npx tsx bench/load.ts
 *
 * 50 concurrent reviewers, each applying 1-change batches to their own working draft of
 * the 30-page contract (buildBenchmarkContract({ pages: 30, revisions: 300 })), closed loop
 * for BENCH_SECONDS (default 60) s: once on one instance and once on three, each on
 * PostgreSQL + S3 (s3rver) behind HAProxy. Then sign-in (request-code +
 * verify) under load on three instances, each attempt from its own loopback address,
 * and one address hammering request-code to show the per-IP limit (429s counted apart).
 *
 * Everything runs on 127.0.0.1 (client addresses from 127.0.0.0/8); the database is a
 * scratch one on DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432),
 * dropped at the end. Every loop stops at its deadline. BENCH_LOG=FILE keeps the instances' log.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { buildBenchmarkContract } from '../src/docx/fixture';
import { addMember, createOrg, createUser } from '../src/service/auth/directory';
import { startCluster, type Cluster } from '../src/service/cluster/cluster';
import type { LocalS3 } from '../src/service/cluster/local-s3';
import { startLocalS3Process } from '../test/support/local-s3-process';
import { createScratchDatabase, LOCAL_POSTGRES_URL, postgresReachable } from '../src/service/cluster/postgres-admin';
import { openPostgresDatabase } from '../src/service/store/postgres-database';
import type { Database } from '../src/service/store/database';
import { docxForm, expectStatus, json, latencyLine, request, signIn, type Timed } from './bench-http';

const REVIEWERS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const SIGN_IN_SECONDS = Number(process.env.BENCH_SIGN_IN_SECONDS ?? 20);
const SIGN_IN_CONCURRENCY = 20;

interface Tally {
  latencies: number[];
  errors: number;
  limited: number;
  errorSamples: string[];
}
const newTally = (): Tally => ({ latencies: [], errors: 0, limited: 0, errorSamples: [] });

function record(tally: Tally, answer: Timed | Error, expected: number): boolean {
  if (answer instanceof Error) {
    tally.errors++;
    if (tally.errorSamples.length < 3) tally.errorSamples.push(answer.message);
    return false;
  }
  if (answer.status === 429) {
    tally.limited++;
    return false;
  }
  if (answer.status !== expected) {
    tally.errors++;
    if (tally.errorSamples.length < 3) tally.errorSamples.push(`${answer.status} ${answer.body.toString('utf8').slice(0, 160)}`);
    return false;
  }
  tally.latencies.push(answer.ms);
  return true;
}

function report(label: string, tally: Tally, seconds: number): void {
  const ok = tally.latencies.length;
  console.log(`${label}: ${(ok / seconds).toFixed(1)} req/s (${ok} ok in ${seconds} s), ${latencyLine(tally.latencies)}, errors ${tally.errors}, 429s ${tally.limited}`);
  for (const sample of tally.errorSamples) console.log(`    error: ${sample}`);
}

let ipCounter = 0;
/** A fresh loopback client address: 127.1.0.1 onwards. */
const nextIp = () => {
  ipCounter++;
  return `127.1.${(ipCounter >> 8) & 255}.${ipCounter & 255 || 1}`;
};

async function createUsers(db: Database, prefix: string, count: number): Promise<string[]> {
  const emails = Array.from({ length: count }, (_, i) => `${prefix}-${i}@load.example`);
  await db.transaction(async (tx) => {
    const orgId = await createOrg(tx, `Load firm ${prefix}`);
    for (const email of emails) {
      const user = await createUser(tx, email, email.split('@')[0]!);
      await addMember(tx, orgId, user.id, 'member');
    }
  });
  return emails;
}

interface Reviewer {
  headers: Record<string, string>;
  draftId: string;
  open: string[];
  agent: http.Agent;
}

async function prepareReviewers(cluster: Cluster, db: Database, label: string, docx: Uint8Array): Promise<Reviewer[]> {
  const emails = await createUsers(db, `reviewer-${label}`, REVIEWERS);
  const sessions = [];
  for (const email of emails) sessions.push(await signIn(cluster.url, email, nextIp()));
  const form = docxForm({ purpose: 'source_doc' }, '30-page contract.docx', docx);
  const upload = json<{ id: string }>(expectStatus(await request(cluster.url, 'POST', '/api/uploads', { headers: { ...sessions[0]!.headers, ...form.headers }, body: form.body }), 201, 'upload'));
  const reviewers: Reviewer[] = [];
  for (const session of sessions) {
    const draft = json<{ id: string }>(expectStatus(await request(cluster.url, 'POST', `/api/uploads/${upload.id}/working-draft`, { headers: session.headers }), 201, 'working draft'));
    const review = json<{ revisions: { change_id: string }[] }>(expectStatus(await request(cluster.url, 'GET', `/api/documents/${draft.id}/review`, { headers: session.headers }), 200, 'review'));
    reviewers.push({ headers: session.headers, draftId: draft.id, open: review.revisions.map((r) => r.change_id), agent: new http.Agent({ keepAlive: true, maxSockets: 1 }) });
  }
  return reviewers;
}

async function reviewLoad(cluster: Cluster, reviewers: Reviewer[]): Promise<Tally> {
  const tally = newTally();
  const deadline = Date.now() + SECONDS * 1000;
  let exhausted = 0;
  await Promise.all(reviewers.map(async (reviewer, n) => {
    for (let i = 0; Date.now() < deadline; i++) {
      const id = reviewer.open[0];
      if (!id) {
        exhausted++;
        return;
      }
      const body = (i + n) % 2 === 0 ? { accepted_change_ids: [id], rejected_change_ids: [] } : { accepted_change_ids: [], rejected_change_ids: [id] };
      const answer = await request(cluster.url, 'POST', `/api/documents/${reviewer.draftId}/revisions/apply`, { headers: reviewer.headers, body, agent: reviewer.agent })
        .catch((error: Error) => error);
      if (record(tally, answer, 200)) reviewer.open = json<{ revisions: { change_id: string }[] }>(answer as Timed).revisions.map((r) => r.change_id);
    }
  }));
  for (const r of reviewers) r.agent.destroy();
  if (exhausted) console.log(`    (${exhausted} reviewers decided every change before the end)`);
  return tally;
}

/** Sign-ins until the deadline or the addresses run out; `seconds` is how long it really ran. */
async function signInLoad(cluster: Cluster, emails: string[]): Promise<{ requestCode: Tally; verify: Tally; completed: number; seconds: number }> {
  const requestCode = newTally();
  const verify = newTally();
  let next = 0;
  let completed = 0;
  const started = Date.now();
  const deadline = started + SIGN_IN_SECONDS * 1000;
  await Promise.all(Array.from({ length: SIGN_IN_CONCURRENCY }, async () => {
    while (Date.now() < deadline && next < emails.length) {
      const email = emails[next++]!;
      const from = nextIp();
      const requested = await request(cluster.url, 'POST', '/api/auth/sign-in/request-code', { body: { identifier: email }, from }).catch((e: Error) => e);
      if (!record(requestCode, requested, 202)) continue;
      // Reading the outbox is a development route, not part of the measured flow.
      const mail = await request(cluster.url, 'GET', `/api/dev/mailbox?to=${encodeURIComponent(email)}`, { from }).catch((e: Error) => e);
      const code = mail instanceof Error ? null : json<{ code: string | null }>(mail).code;
      if (!code) {
        record(verify, new Error(`no code for ${email}`), 200);
        continue;
      }
      const verified = await request(cluster.url, 'POST', '/api/auth/verify', { body: { identifier: email, code }, from }).catch((e: Error) => e);
      if (record(verify, verified, 200)) completed++;
    }
  }));
  return { requestCode, verify, completed, seconds: (Date.now() - started) / 1000 };
}

async function oneAddressHammering(cluster: Cluster, seconds: number): Promise<Tally> {
  const tally = newTally();
  const from = nextIp();
  const deadline = Date.now() + seconds * 1000;
  let n = 0;
  await Promise.all(Array.from({ length: 5 }, async () => {
    while (Date.now() < deadline) {
      record(tally, await request(cluster.url, 'POST', '/api/auth/sign-in/request-code', { body: { identifier: `hammer-${n++}@load.example` }, from }).catch((e: Error) => e), 202);
    }
  }));
  return tally;
}

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL || LOCAL_POSTGRES_URL;
  if (!(await postgresReachable(serverUrl))) {
    console.log(`bench/load: skipped, PostgreSQL is not reachable at ${serverUrl.replace(/\/\/[^@/]*@/, '//***@')}`);
    return;
  }
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'redline-load-'));
  const database = await createScratchDatabase(serverUrl, 'redline_bench_load');
  let s3: LocalS3 | null = null;
  let cluster: Cluster | null = null;
  let db: Database | null = null;
  const docx = buildBenchmarkContract({ pages: 30, revisions: 300 });
  const codeHmacKey = randomBytes(32).toString('base64url');
  const start = (instances: number) => startCluster({
    instances, databaseUrl: database.url, blobStoreEnv: s3!.env, dataDir: path.join(tmp, `cluster-${instances}`), codeHmacKey,
    env: { LOG_LEVEL: 'warn', STATIC_DIR: '', SMTP_URL: '' },
    // BENCH_LOG=FILE keeps the instances' warnings and errors there.
    ...(process.env.BENCH_LOG ? { log: (line: string) => appendFileSync(process.env.BENCH_LOG!, `${line}\n`) } : {}),
  });
  try {
    // In a process of its own, so the load generator's busy event loop never stalls the store.
    s3 = await startLocalS3Process(path.join(tmp, 's3'));
    console.log(`bench/load: ${REVIEWERS} reviewers x 1-change applies on the 30-page contract (${(docx.byteLength / 1e3).toFixed(0)} kB), ${SECONDS} s per run; PostgreSQL + s3rver; ${os.cpus().length} cores`);
    for (const instances of [1, 3]) {
      cluster = await start(instances);
      db ??= openPostgresDatabase({ connectionString: database.url, maxConnections: 2 });
      const reviewers = await prepareReviewers(cluster, db, `i${instances}`, docx);
      report(`apply, ${instances} instance${instances > 1 ? 's' : ' '}`, await reviewLoad(cluster, reviewers), SECONDS);
      if (instances === 3) {
        // More addresses than the run can use (it stops at whichever comes first); rates are over the real duration.
        const emails = await createUsers(db, 'signin', 12_000);
        const { requestCode, verify, completed, seconds } = await signInLoad(cluster, emails);
        const ran = Number(seconds.toFixed(1));
        if (completed >= emails.length) console.log(`    (all ${emails.length} addresses were used before the ${SIGN_IN_SECONDS} s deadline)`);
        report(`sign-in request-code, 3 instances (${SIGN_IN_CONCURRENCY} concurrent, one address each)`, requestCode, ran);
        report(`sign-in verify, 3 instances`, verify, ran);
        console.log(`    ${completed} complete sign-ins in ${ran} s (${(completed / ran).toFixed(1)}/s)`);
        const hammer = await oneAddressHammering(cluster, 5);
        console.log(`one address hammering request-code for 5 s: ${hammer.latencies.length} accepted, ${hammer.limited} answered 429 (limit 3 per minute per address, across instances), errors ${hammer.errors}`);
      }
      await cluster.stop();
      cluster = null;
    }
  } finally {
    await db?.close();
    await cluster?.stop();
    await s3?.close();
    await database.drop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`bench/load failed: ${error instanceof Error ? error.stack : String(error)}`);
});
