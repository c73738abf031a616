/**
 * Faults, the long version (issue #7 item 4). Prints figures; exits non-zero only when a
 * fault broke a promise (a half-applied batch, a lost blob, a 500), never on a time.
 *
 *   npx tsx bench/faults.ts
 *
 * 1. SIGKILL mid-apply, KILL_TRIALS (default 25) times, on a 30-page draft, once on PGlite
 *    and once on a private PostgreSQL cluster: each restart must find the draft exactly
 *    before or after the batch, and every row's blob present.
 * 2. PostgreSQL restarted RESTARTS (default 5) times during a load run (4 apply workers,
 *    4 readers/uploaders) against a private cluster: clean 503s, reconnection, retries
 *    that succeed, no half-applied batch (the decision log replayed through the engine).
 *
 * Every PostgreSQL here is a throw-away cluster (initdb + pg_ctl on its own port under
 * the temp dir), never a shared server. The short versions run in npm test:
 * test/reliability/{sigkill,faults}.test.ts. The decision-projection fault is
 * covered by src/service/review/review.test.ts.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildDemoContract } from '../src/docx/fixture';
import { runKillTrials, type KillTrialReport } from '../test/reliability/kill-trials';
import { privatePostgresUnavailable, startPrivatePostgres } from '../test/reliability/private-postgres';
import { runRestartLoad } from '../test/reliability/restart-load';
import { ServiceClient } from '../test/reliability/service-client';
import { checkStoreIntegrity } from '../test/reliability/store-integrity';
import { createDiskBlobStore } from '../src/service/store/blobs/disk-blob-store';
import { openPostgresDatabase } from '../src/service/store/postgres-database';
import { ensurePgliteTemplate } from '../test/support/test-database';
import { startTestService } from '../test/support/test-service';

const TRIALS = Number(process.env.KILL_TRIALS ?? 25);
const RESTARTS = Number(process.env.RESTARTS ?? 5);
const problems: string[] = [];
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

function printKills(label: string, report: KillTrialReport, seconds: number): void {
  const outcomes = report.trials.reduce<Record<string, number>>((acc, t) => ({ ...acc, [t.outcome]: (acc[t.outcome] ?? 0) + 1 }), {});
  const answered = report.trials.filter((t) => t.answered !== null).length;
  const restarts = report.trials.map((t) => t.restartMs).sort((a, b) => a - b);
  console.log(`SIGKILL mid-apply (${label}): ${report.trials.length} trials in ${seconds.toFixed(0)} s; apply ${report.applyMs.toFixed(0)} ms; `
    + `outcomes ${JSON.stringify(outcomes)}; ${answered} answered before the kill; restart median ${restarts[Math.floor(restarts.length / 2)]} ms; `
    + `peak RSS ${mb(report.peakRssBytes)}; integrity: ${report.integrity.uploads} uploads, ${report.integrity.batches} batches; problems ${report.problems.length}`);
  for (const p of report.problems) console.log(`  PROBLEM ${p}`);
  problems.push(...report.problems);
}

async function killTrials(database: 'pglite' | 'postgres'): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'redline-bench-kill-'));
  const postgres = database === 'postgres' ? await startPrivatePostgres() : null;
  try {
    if (!postgres) cpSync(await ensurePgliteTemplate(), path.join(dataDir, 'db'), { recursive: true });
    const began = performance.now();
    const report = await runKillTrials({ trials: TRIALS, seed: 2026, dataDir, pages: 30, ...(postgres ? { databaseUrl: postgres.url } : {}) });
    printKills(database === 'postgres' ? 'private PostgreSQL' : 'PGlite', report, (performance.now() - began) / 1000);
  } finally {
    await postgres?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function restartLoad(): Promise<void> {
  const postgres = await startPrivatePostgres();
  const db = openPostgresDatabase({ connectionString: postgres.url, maxConnections: 10 });
  const t = await startTestService({}, { db });
  try {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const client = new ServiceClient(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`, await t.signUpAndSignIn('bench@faults.example'));
    const drafts = [];
    for (let i = 0; i < 4; i++) drafts.push(await client.newDraft(`Draft ${i}.docx`, buildDemoContract()));
    const began = performance.now();
    const report = await runRestartLoad({
      clients: drafts.map(() => client), draftIds: drafts.map((d) => d.id), readers: 4, postgres,
      restarts: RESTARTS, downMs: 1500, calmMs: 2000, db, content: t.ctx.content, seed: 2026,
      log: (line) => console.log(`  ${line}`),
    });
    const integrity = await checkStoreIntegrity(db, createDiskBlobStore(path.join(t.config.dataDir, 'blobs')));
    console.log(`PostgreSQL restarted ${RESTARTS} times under load: ${((performance.now() - began) / 1000).toFixed(1)} s, ${report.requests} requests, `
      + `statuses ${JSON.stringify(report.statuses)}, ${report.recoveredBy503Retry} operations recovered by retrying a 503, `
      + `${report.batchesApplied} batches applied; integrity: ${integrity.uploads} uploads, ${integrity.batches} batches; problems ${report.problems.length + integrity.problems.length}`);
    for (const p of [...report.problems, ...integrity.problems]) console.log(`  PROBLEM ${p}`);
    problems.push(...report.problems, ...integrity.problems);
  } finally {
    await t.destroy();
    await db.close();
    await postgres.destroy();
  }
}

async function main(): Promise<void> {
  const noPostgres = privatePostgresUnavailable();
  await killTrials('pglite');
  if (noPostgres) {
    console.log(`skipped the PostgreSQL parts: ${noPostgres}`);
  } else {
    await killTrials('postgres');
    await restartLoad();
  }
  console.log(problems.length === 0 ? 'faults: every promise held' : `faults: ${problems.length} problems`);
  process.exitCode = problems.length === 0 ? 0 : 1;
}

await main();
