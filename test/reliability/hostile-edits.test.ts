import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentRow } from '../../src/contract/document';
import { DocumentText, type ParagraphBlock } from '../../src/contract/reading';
import { ReviewResponse } from '../../src/contract/review';
import { buildBenchmarkContract } from '../../src/docx/fixture';
import { plainBodyParagraphs, spreadReplaceEdits } from '../support/redline-batches';
import { childDatabaseUnavailable } from './child-database';
import { startDemoService, type DemoService } from './demo-service';
import { healthDuring, timed } from './health-during';

const skip = childDatabaseUnavailable();
if (skip) console.warn(`hostile-edits.test.ts: ${skip}`);

/**
 * The bound on health's worst answer while a batch is written and answered. The target is 100 ms
 * (bench:hostile prints the figure). What is left on the service's thread after the batch (the
 * commit, on PGlite when the database is embedded; the answer's 3.5 MB of JSON; the track of
 * 3,900 changes, in steps) is tens of milliseconds each on a quiet machine, but this test measured
 * a worst of 1,061 ms at load 29 on 2 shared cores. The old code parsed the new content on the
 * service's thread for the answer's track and unzipped it for the caps: health's worst was 4.1 to
 * 4.8 s at load 31 (190 to 222 ms on a quiet machine, where no bound can tell them apart): the
 * bound catches a return of the multi-second stall; the Server-Timing check below fails on the old
 * code wherever it runs.
 */
const HEALTH_BOUND_MS = 2500;

// Issue 31 item 2: the answer to a batch of anchored edits must not hold up every other request.
describe.skipIf(skip !== null)('hostile edits: a batch of 500 anchored edits on a 9,000-paragraph draft, with health polled', () => {
  let demo: DemoService | null = null;
  beforeAll(async () => {
    demo = await startDemoService('hostile-edits', {});
  }, 120_000);
  afterAll(async () => demo?.stop());

  it('writes and answers the batch off the thread answering requests', async () => {
    const { service, client } = demo!;
    const draft: DocumentRow = await client.newDraft('Framework.docx', buildBenchmarkContract({ pages: 200 }));
    const paragraphs: ParagraphBlock[] = [];
    for (let cursor: string | null = ''; cursor !== null;) {
      const page = await client.call('GET', `/uploads/${draft.id}/text?limit=1000${cursor ? `&cursor=${cursor}` : ''}`, undefined, 120_000);
      expect(page.status).toBe(200);
      const text = DocumentText.parse(page.body);
      paragraphs.push(...plainBodyParagraphs(text.blocks));
      cursor = text.nextCursor;
    }
    // The review is read first, as a reviewer's page does: the batch and its answer are what is measured.
    await client.review(draft.id);
    const edits = spreadReplaceEdits(paragraphs, 500);
    const { result, worst, asked } = await healthDuring(service.url, () => timed(async () => {
      const res = await fetch(`${service.url}/api/documents/${draft.id}/redlines`, {
        method: 'POST', headers: client.headers({ 'content-type': 'application/json' }), body: JSON.stringify({ edits }), signal: AbortSignal.timeout(240_000),
      });
      return { status: res.status, body: await res.json() as unknown, timing: res.headers.get('server-timing') ?? '' };
    }));
    expect(result.status, JSON.stringify(result.body).slice(0, 300)).toBe(200);
    expect(ReviewResponse.parse(result.body).revisions.filter((r) => r.text_preview === 'the amended words')).toHaveLength(500);
    console.info(`500 anchored edits on a 9,000-paragraph draft: ${result.ms.toFixed(0)} ms (${result.timing}); /api/health/live ${asked} times, worst ${worst.toFixed(0)} ms`);
    // Written on an engine thread, which also held the content to the caps: no `caps` step on the service's thread.
    expect(result.timing).toContain('engine;dur=');
    expect(result.timing).not.toMatch(/(^|,\s*)caps;/);
    expect(asked).toBeGreaterThan(5);
    expect(worst).toBeLessThan(HEALTH_BOUND_MS);
  }, 360_000);
});
