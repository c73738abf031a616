import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../src/service/seed';
import { childDatabaseUnavailable, prepareChildDatabase, type ChildDatabase } from './child-database';
import { signInOverHttp, startChildService, type ChildService } from './child-service';
import { FuzzRun } from './fuzz-run';
import { ServiceClient } from './service-client';

const skip = childDatabaseUnavailable();
if (skip) console.warn(`fuzz.test.ts: ${skip}`);
const GB = 2 ** 30;

// The service runs as its own process so a hang shows as a timeout (an in-process
// engine loop would block the test's own timers), a crash as a dead process, and its
// memory as its own VmRSS. The long version is bench/fuzz.ts.
describe.skipIf(skip !== null)('hostile .docx files at upload and apply', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'redline-fuzz-'));
  let database: ChildDatabase | null = null;
  let service: ChildService | null = null;
  let run: FuzzRun;

  beforeAll(async () => {
    database = await prepareChildDatabase(dataDir);
    service = await startChildService({ dataDir, seedDemo: true, ...(database.databaseUrl ? { databaseUrl: database.databaseUrl } : {}) });
    const client = new ServiceClient(service.url, await signInOverHttp(service.url, DEMO_EMAIL));
    run = new FuzzRun({ client, service, requestTimeoutMs: 30_000, rssLimitBytes: 2 * GB, ...(process.env.FUZZ_LOG ? { log: (line) => console.info(line) } : {}) });
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
    await database?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers every seed and hand-made attack below 500, in time', async () => {
    const before = run.stats.problems.length;
    await run.runCorpus();
    expect(run.stats.problems.slice(before)).toEqual([]);
  }, 120_000);

  it('answers every fast-check mutation below 500, in time', async () => {
    const before = run.stats.problems.length;
    await run.runMutations(20_260_707, 150);
    expect(run.stats.problems.slice(before)).toEqual([]);
  }, 120_000);

  it('keeps the service alive and its RSS under 2 GB throughout', () => {
    const stats = run.stop();
    console.info(`fuzz: ${stats.cases} cases, ${stats.requests} requests, ${stats.accepted} accepted; statuses ${JSON.stringify(stats.statuses)}; `
      + `peak RSS ${(stats.peakRssBytes / 2 ** 20).toFixed(0)} MB; slowest ${stats.slowest.name} ${stats.slowest.ms.toFixed(0)} ms`);
    expect(service!.rssBytes()).toBeGreaterThan(0);
    expect(stats.peakRssBytes).toBeLessThan(2 * GB);
    expect(stats.problems).toEqual([]);
  });
});
