import path from 'node:path';
import type { ReviewResponse } from '../../src/contract/review';
import { openDocx } from '../../src/docx';
import { nativeZipCodec } from '../../src/service/engine/native-zip-codec';
import { buildBenchmarkContract } from '../../src/docx/fixture';
import { Prng } from '../../src/docx/fixture/prng';
import { DEMO_EMAIL } from '../../src/service/seed';
import { createDiskBlobStore } from '../../src/service/store/blobs/disk-blob-store';
import type { Database } from '../../src/service/store/database';
import { openPgliteDatabase } from '../../src/service/store/pglite-database';
import { openPostgresDatabase } from '../../src/service/store/postgres-database';
import { signInOverHttp, startChildService, type ChildService } from './child-service';
import { ServiceClient, sha256Hex } from './service-client';
import { checkStoreIntegrity, type IntegrityReport } from './store-integrity';

export interface KillTrialOptions {
  trials: number;
  seed: number;
  /** The service's data directory (blobs, and the PGlite database when databaseUrl is unset). */
  dataDir: string;
  /** A private PostgreSQL cluster; unset: the embedded PGlite database. */
  databaseUrl?: string;
  /** Size of the benchmark contract the draft is made from (bigger: a longer apply to land in). */
  pages: number;
  log?: (line: string) => void;
}

export interface KillTrial {
  delayMs: number;
  /** The apply's status if it answered before the kill, else null. */
  answered: number | null;
  outcome: 'before' | 'after' | 'neither';
  /** The status of the same batch sent again after the restart. */
  retried: number;
  restartMs: number;
}

export interface KillTrialReport {
  applyMs: number;
  trials: KillTrial[];
  /** Every broken promise found, as a sentence; empty when every trial held. */
  problems: string[];
  integrity: IntegrityReport;
  peakRssBytes: number;
}

const decode = (base64: string) => new Uint8Array(Buffer.from(base64, 'base64'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * SIGKILL in the middle of an apply, then restart, many times over. The real service
 * runs as a child process on one data directory and database; each trial fires an
 * apply of a random batch, kills the process after a random delay within the apply's
 * usual duration (engine work, blob write, commit, answer), restarts it and reads the
 * draft. The draft must be exactly as it was before the batch or exactly as the batch
 * leaves it (the engine, run here on the before bytes, says what that is), never
 * between; an answered 200 must have survived; sending the batch again must either
 * apply it (before) or answer 409 already_decided (after). At the end every row's
 * blob must exist and every decision log must lead to its draft's content.
 */
export async function runKillTrials(options: KillTrialOptions): Promise<KillTrialReport> {
  const log = options.log ?? (() => {});
  const rng = new Prng(options.seed);
  const problems: string[] = [];
  const trials: KillTrial[] = [];
  let peakRss = 0;
  // Each restart takes a fresh free port: reusing the killed one could race another
  // test's service for it. Sessions live in the database, so the grant stays valid.
  const start = () => startChildService({ dataDir: options.dataDir, seedDemo: true, ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}) });
  let child: ChildService = await start();
  try {
    const grant = await signInOverHttp(child.url, DEMO_EMAIL);
    let client = new ServiceClient(child.url, grant);
    const draft = await client.newDraft('Benchmark contract.docx', buildBenchmarkContract({ pages: options.pages, revisions: options.pages * 25, seed: options.seed }));
    // One undisturbed apply: proves the path works and tells how long an apply takes.
    const first = await client.review(draft.id);
    const began = performance.now();
    const warm = await client.call('POST', `/documents/${draft.id}/revisions/apply`, { accepted_change_ids: [first.revisions[0]!.change_id] });
    const applyMs = performance.now() - began;
    if (warm.status !== 200) throw new Error(`the warm-up apply answered ${warm.status}: ${JSON.stringify(warm.body)}`);
    log(`draft ${draft.id}: ${first.revisions.length} revisions, an apply takes ${applyMs.toFixed(0)} ms`);

    for (let n = 1; n <= options.trials; n++) {
      const before = await client.review(draft.id);
      const open = before.revisions.map((r) => r.change_id);
      if (open.length === 0) break;
      const batch = pickBatch(rng, open);
      // The service's codec, so the same decisions give the same bytes.
      const expected = openDocx(decode(before.contentBase64), { codec: nativeZipCodec }).apply(batch).toBytes();
      const expectedSha = sha256Hex(expected);
      const expectedRemaining = openDocx(expected).revisions().map((r) => r.change_id);

      const body = { accepted_change_ids: batch.accept, rejected_change_ids: batch.reject };
      let answered: number | null = null;
      const inFlight = client.call('POST', `/documents/${draft.id}/revisions/apply`, body)
        .then((a) => { answered = a.status; }, () => {});
      const delayMs = Math.round(rng.next() * applyMs * 1.5);
      await sleep(delayMs);
      peakRss = Math.max(peakRss, child.rssBytes());
      await child.kill();
      await inFlight;

      const restartBegan = performance.now();
      child = await start();
      client = new ServiceClient(child.url, grant);
      const restartMs = Math.round(performance.now() - restartBegan);
      const after = await client.review(draft.id);
      const sha = after.document.contentSha256;
      const outcome = sha === before.document.contentSha256 ? 'before' : sha === expectedSha ? 'after' : 'neither';
      const where = `trial ${n} (kill after ${delayMs} ms, answered ${answered ?? 'nothing'})`;
      if (sha256Hex(decode(after.contentBase64)) !== sha) problems.push(`${where}: the content served does not hash to the row's contentSha256`);
      if (outcome === 'neither') problems.push(`${where}: the draft is neither the before nor the after state (sha ${sha?.slice(0, 12)})`);
      if (answered === 200 && outcome !== 'after') problems.push(`${where}: the apply answered 200 but the batch did not survive the restart`);
      if (outcome === 'before') problems.push(...sameState(where, before, after));
      if (outcome === 'after') problems.push(...afterState(where, before, after, batch, expectedRemaining));

      // The batch again: applied now if the kill lost it, refused as already decided if not.
      const retry = await client.call('POST', `/documents/${draft.id}/revisions/apply`, body);
      if (outcome === 'before' && retry.status !== 200) problems.push(`${where}: the retry answered ${retry.status}, expected 200`);
      if (outcome === 'after' && !(retry.status === 409 && (retry.body as { code?: string }).code === 'already_decided')) {
        problems.push(`${where}: the retry answered ${retry.status} ${JSON.stringify(retry.body).slice(0, 200)}, expected 409 already_decided`);
      }
      if (retry.status === 200) {
        const retried = await client.review(draft.id);
        if (retried.document.contentSha256 !== expectedSha) problems.push(`${where}: the retried batch produced ${retried.document.contentSha256?.slice(0, 12)}, not the engine's result`);
      }
      trials.push({ delayMs, answered, outcome, retried: retry.status, restartMs });
      log(`${where}: ${outcome}; retry ${retry.status}; restart ${restartMs} ms`);
    }

    // Every row's bytes are downloadable through the service...
    const listed = await client.call('GET', '/uploads?limit=100');
    for (const row of (listed.body as { items: { id: string; contentSha256: string | null }[] }).items) {
      const got = await client.downloadSha(row.id);
      if (got.status !== 200 || got.sha256 !== row.contentSha256) problems.push(`upload ${row.id}: download answered ${got.status} with sha ${got.sha256?.slice(0, 12)}`);
    }
    peakRss = Math.max(peakRss, child.rssBytes());
    await child.stop();
    // ...and, read from the store itself, every row (and every undo step) has its blob.
    const integrity = await withDatabase(options, (db) => checkStoreIntegrity(db, createDiskBlobStore(path.join(options.dataDir, 'blobs'))));
    problems.push(...integrity.problems);
    return { applyMs, trials, problems, integrity, peakRssBytes: peakRss };
  } catch (error) {
    throw new Error(`${(error as Error).message}\n--- service output ---\n${child.output()}`, { cause: error });
  } finally {
    await child.kill();
  }
}

function pickBatch(rng: Prng, open: string[]): { accept: string[]; reject: string[] } {
  const pool = [...open];
  const size = rng.int(1, Math.min(8, pool.length));
  const accept: string[] = [];
  const reject: string[] = [];
  for (let i = 0; i < size; i++) {
    const [id] = pool.splice(rng.int(0, pool.length - 1), 1);
    (rng.next() < 0.5 ? accept : reject).push(id!);
  }
  return { accept, reject };
}

function sameState(where: string, before: ReviewResponse, after: ReviewResponse): string[] {
  const problems: string[] = [];
  if (JSON.stringify(after.revisions) !== JSON.stringify(before.revisions)) problems.push(`${where}: content is the before state but the revisions differ`);
  if (JSON.stringify(after.track) !== JSON.stringify(before.track)) problems.push(`${where}: content is the before state but the track differs`);
  return problems;
}

function afterState(where: string, before: ReviewResponse, after: ReviewResponse, batch: { accept: string[]; reject: string[] }, remaining: string[]): string[] {
  const problems: string[] = [];
  const ids = after.revisions.map((r) => r.change_id);
  if (JSON.stringify(ids) !== JSON.stringify(remaining)) problems.push(`${where}: the revisions left are not the engine's (${ids.length} vs ${remaining.length})`);
  const track = after.track;
  if (!track) return [...problems, `${where}: no track after the restart`];
  const states = new Map(track.items.map((i) => [i.id, i.state]));
  if (JSON.stringify(track.items.map((i) => i.id)) !== JSON.stringify(before.track?.items.map((i) => i.id))) problems.push(`${where}: the track's items changed`);
  for (const id of batch.accept) if (states.get(id) !== 'in') problems.push(`${where}: accepted ${id} is ${states.get(id)} in the track`);
  for (const id of batch.reject) if (states.get(id) !== 'back') problems.push(`${where}: rejected ${id} is ${states.get(id)} in the track`);
  const openIds = track.items.filter((i) => i.state === 'open').map((i) => i.id);
  if (JSON.stringify([...openIds].sort()) !== JSON.stringify([...ids].sort())) problems.push(`${where}: the track's open items are not the draft's revisions`);
  const count = (s: string) => track.items.filter((i) => i.state === s).length;
  if (track.counts.open !== count('open') || track.counts.in !== count('in') || track.counts.back !== count('back')) problems.push(`${where}: the track's counts disagree with its items`);
  return problems;
}

async function withDatabase<T>(options: KillTrialOptions, work: (db: Database) => Promise<T>): Promise<T> {
  const db = options.databaseUrl
    ? openPostgresDatabase({ connectionString: options.databaseUrl, maxConnections: 2 })
    : await openPgliteDatabase(path.join(options.dataDir, 'db'));
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}
