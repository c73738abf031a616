/**
 * Hostile input, the long version (issue #7 item 5). Prints figures; exits non-zero only
 * when a file got a 5xx, a request hung, the service died, or its RSS passed 2 GB.
 *
 *   npx tsx bench/fuzz.ts            # FUZZ_RUNS (default 2000) mutations, FUZZ_SEED (default 1)
 *
 * The real service runs as a child process (PGlite, or a private PostgreSQL cluster with
 * FUZZ_POSTGRES=1). Every seed document and hand-made attack (truncated and bit-flipped
 * zips, zip bombs, bad XML, DTDs, 1 MB attribute values, 100k-deep nesting, wrong content
 * types, 10,000 revisions) goes through upload, working draft, review and an apply of a
 * random subset of its change ids; then FUZZ_RUNS fast-check mutations of the seeds do the
 * same. The short version runs in npm test: test/reliability/fuzz.test.ts.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signInOverHttp, startChildService } from '../test/reliability/child-service';
import { FuzzRun } from '../test/reliability/fuzz-run';
import { startPrivatePostgres, type PrivatePostgres } from '../test/reliability/private-postgres';
import { ServiceClient } from '../test/reliability/service-client';
import { DEMO_EMAIL } from '../src/service/seed';
import { ensurePgliteTemplate } from '../test/support/test-database';

const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 1);

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'redline-bench-fuzz-'));
  let postgres: PrivatePostgres | null = null;
  try {
    if (process.env.FUZZ_POSTGRES) postgres = await startPrivatePostgres();
    else cpSync(await ensurePgliteTemplate(), path.join(dataDir, 'db'), { recursive: true });
    const service = await startChildService({ dataDir, seedDemo: true, ...(postgres ? { databaseUrl: postgres.url } : {}) });
    const began = performance.now();
    const run = new FuzzRun({
      client: new ServiceClient(service.url, await signInOverHttp(service.url, DEMO_EMAIL)), service,
      requestTimeoutMs: 60_000, rssLimitBytes: 2 * 2 ** 30,
      log: process.env.FUZZ_VERBOSE ? (line) => console.log(`  ${line}`) : undefined,
    });
    try {
      await run.runCorpus();
      await run.runMutations(SEED, RUNS);
    } catch (error) {
      console.log(`stopped at the first failing case: ${(error as Error).message.split('\n').slice(0, 6).join(' | ')}`);
    }
    const stats = run.stop();
    const alive = service.rssBytes() > 0;
    await service.stop();
    console.log(`fuzz (${postgres ? 'private PostgreSQL' : 'PGlite'}, seed ${SEED}): ${stats.cases} cases (${RUNS} mutations) in ${((performance.now() - began) / 1000).toFixed(0)} s; `
      + `${stats.requests} requests; ${stats.accepted} files accepted`);
    console.log(`  statuses: ${Object.entries(stats.statuses).sort().map(([k, v]) => `${k}: ${v}`).join(', ')}`);
    console.log(`  peak service RSS ${(stats.peakRssBytes / 2 ** 20).toFixed(0)} MB (limit 2048 MB); slowest: ${stats.slowest.name}, ${stats.slowest.ms.toFixed(0)} ms; service alive at the end: ${alive}`);
    for (const p of stats.problems) console.log(`  PROBLEM ${p}`);
    process.exitCode = stats.problems.length === 0 && alive ? 0 : 1;
  } finally {
    await postgres?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
