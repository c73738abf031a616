import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { childDatabaseUnavailable, prepareChildDatabase, type ChildDatabase } from './child-database';
import { runKillTrials } from './kill-trials';

const skip = childDatabaseUnavailable();
if (skip) console.warn(`sigkill.test.ts: ${skip}`);
const TRIALS = 4;

// The long version (more trials, a bigger draft, both databases) is bench/faults.ts.
describe.skipIf(skip !== null)(`SIGKILL mid-apply, then restart (${process.env.DATABASE_URL ? 'private PostgreSQL' : 'PGlite'})`, () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'redline-kill-'));
  let database: ChildDatabase | null = null;
  afterAll(async () => {
    await database?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('leaves the draft exactly before or after the batch, never between, with every blob present', async () => {
    database = await prepareChildDatabase(dataDir);
    const report = await runKillTrials({ trials: TRIALS, seed: 7, dataDir, pages: 8, ...(database.databaseUrl ? { databaseUrl: database.databaseUrl } : {}) });
    console.info(`SIGKILL trials: apply ${report.applyMs.toFixed(0)} ms; ${report.trials.map((t) => `kill at ${t.delayMs} ms -> ${t.outcome}`).join(', ')}; `
      + `peak RSS ${(report.peakRssBytes / 2 ** 20).toFixed(0)} MB; ${report.integrity.uploads} uploads, ${report.integrity.batches} batches checked`);
    expect(report.problems).toEqual([]);
    expect(report.trials).toHaveLength(TRIALS);
    expect(report.trials.every((t) => t.outcome !== 'neither')).toBe(true);
    // Every trial's batch ends up applied once: by the killed process or by the retry.
    expect(report.integrity.batches).toBe(TRIALS + 1);
  }, 150_000);
});
