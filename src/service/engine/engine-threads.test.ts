import { describe, expect, it } from 'vitest';
import { DocxError } from '../../docx';
import { buildKindSample } from '../../docx/fixture';
import { bulkParagraphs } from '../../../test/reliability/hostile-docx';
import { packTexts } from '../reading/reading-work';
import { compileSearch } from '../reading/search-pattern';
import { EngineBusyError, EngineJobTimeoutError, EngineThreads } from './engine-threads';

// Issue 21 item 3: the pool's two bounds, and engine refusals crossing the thread boundary.
describe('the engine threads', () => {
  it('refuses a job past the queue bound, and past an organisation share, at once, with a Retry-After', async () => {
    const pool = new EngineThreads({}, { threads: 1, maxQueued: 1, maxPerOrg: 2 });
    try {
      // Admission is decided as a job is posted: these three are posted before any could finish.
      const running = pool.ingest(buildKindSample('insert'), {}, { orgId: 'a' });
      const waiting = pool.ingest(buildKindSample('insert'), {}, { orgId: 'a' });
      const refused = await pool.ingest(buildKindSample('insert'), {}, { orgId: 'b' }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(EngineBusyError);
      expect((refused as EngineBusyError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
      // The service's own work (an untracked check) is never refused.
      const background = pool.ingest(buildKindSample('delete'), {}, 'background');
      await Promise.all([running, waiting, background]);
      // Once done, both are taken again.
      await pool.ingest(buildKindSample('insert'), {}, { orgId: 'b' });
    } finally {
      await pool.close();
    }
    const shared = new EngineThreads({}, { threads: 1, maxQueued: 10, maxPerOrg: 1 });
    try {
      const running = shared.ingest(buildKindSample('insert'), {}, { orgId: 'a' });
      await expect(shared.ingest(buildKindSample('insert'), {}, { orgId: 'a' })).rejects.toBeInstanceOf(EngineBusyError);
      const other = shared.ingest(buildKindSample('insert'), {}, { orgId: 'b' });
      await Promise.all([running, other]);
      await shared.ingest(buildKindSample('insert'), {}, { orgId: 'a' });
      expect(shared.workersStarted).toBe(1);
    } finally {
      await shared.close();
    }
  }, 60_000);

  it('runs checks computed ahead only on a spare worker: behind every request, leaving one worker free, until a request waits on them', async () => {
    const order: string[] = [];
    const pool = new EngineThreads({}, { threads: 2 });
    try {
      const first = pool.ingest(buildKindSample('insert'), {}, { orgId: 'a' }).then(() => order.push('request 1'));
      const ahead = pool.checksWhenIdle('sha-1', buildKindSample('delete')).then(() => order.push('ahead'));
      const second = pool.ingest(buildKindSample('insert'), {}, { orgId: 'a' }).then(() => order.push('request 2'));
      await Promise.all([first, ahead, second]);
      // Posted before request 2, the spare job still waits for it: one worker busy leaves none over.
      expect(order.indexOf('ahead')).toBeGreaterThan(order.indexOf('request 2'));
    } finally {
      await pool.close();
    }
    const one = new EngineThreads({}, { threads: 2 });
    try {
      const busy = one.ingest(buildKindSample('insert'), {}, { orgId: 'a' });
      const ahead = one.checksWhenIdle('sha-2', buildKindSample('delete'));
      // A request now waits on it: it runs on the second worker without waiting for the first.
      one.promote('sha-2');
      const checks = await ahead;
      expect(Object.keys(checks).sort()).toEqual(['accepted', 'rejected']);
      await busy;
    } finally {
      await one.close();
    }
  }, 60_000);

  it('answers a work limit refusal as the engine does in-process, naming the limit', async () => {
    const pool = new EngineThreads({});
    try {
      const refused = await pool.ingest(bulkParagraphs(64 * 1024), { maxParagraphs: 10 }, { orgId: 'a' }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(DocxError);
      expect((refused as DocxError).code).toBe('too_large');
      expect((refused as DocxError).limit).toBe('paragraphs');
    } finally {
      await pool.close();
    }
  }, 60_000);

  // Issue 31 item 1: a search stops itself at its time limit between matches; one match's search
  // that runs on past the deadline has its thread ended, and the pool goes on with a new one.
  it('ends a job past its deadline with its thread, and runs the next job on a new one', async () => {
    const pool = new EngineThreads({}, { threads: 1 });
    try {
      // An 800-instruction program over a million characters: one search for a match is seconds of CPU.
      const pattern = compileSearch('[a-z]{0,200}[a-z]{0,200}q', { regex: true, caseSensitive: true });
      const began = performance.now();
      const ended = await pool.search(packTexts([`${'x'.repeat(1_000_000)}q`]), pattern, 10, 100, { orgId: 'a' }).catch((e: unknown) => e);
      const took = performance.now() - began;
      expect(ended).toBeInstanceOf(EngineJobTimeoutError);
      // The deadline is the time limit and a second; the thread's start-up comes before it.
      expect(took).toBeLessThan(20_000);
      const found = await pool.search(packTexts(['fees are due', 'no fees']), compileSearch('fees', { regex: false, caseSensitive: false }), 10, 5000, { orgId: 'a' });
      expect(found).toMatchObject({ count: 2, timedOut: false, hits: [[0, 0, 4], [1, 3, 7]] });
      expect(pool.workersStarted).toBe(2);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
