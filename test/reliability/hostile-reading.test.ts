import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentRow } from '../../src/contract/document';
import { buildBenchmarkContract, buildDocx, p } from '../../src/docx/fixture';
import { childDatabaseUnavailable } from './child-database';
import type { ChildService } from './child-service';
import { startDemoService, type DemoService } from './demo-service';
import { healthDuring, timed } from './health-during';
import type { ServiceClient } from './service-client';

const skip = childDatabaseUnavailable();
if (skip) console.warn(`hostile-reading.test.ts: ${skip}`);

/**
 * The bound on health's worst answer. The target is 100 ms (bench:hostile and bench:reading print
 * the figure); with the work on engine threads the service's thread only posts, waits and
 * answers, and the worst answers measured were 59 to 194 ms during the searches and 170 to 376 ms
 * during the first readings and the report, at load averages of 14 to 29 on 2 shared cores (an
 * idle service's worst there: 25 to 93 ms). The old code held every answer 22 s (minutes for
 * some of the searches) and 2.2 s.
 */
const HEALTH_BOUND_MS = 500;

// Issue 31 items 1 and 3: one search or one first reading must not hold up every other request.
describe.skipIf(skip !== null)('hostile reading: regular expressions, first readings and reports, with health polled', () => {
  let demo: DemoService | null = null;
  let service: ChildService;
  let client: ServiceClient;

  beforeAll(async () => {
    demo = await startDemoService('hostile-reading', { SEARCH_TIME_LIMIT_MS: '1500' });
    ({ service, client } = demo);
  }, 120_000);
  afterAll(async () => demo?.stop());

  it('answers the regular expressions that backtracked for seconds at once, and ends one past its time limit, health answering throughout', async () => {
    const draft = await client.newDraft('Letters.docx', buildDocx({ body: [p('a'.repeat(400)), p(`${'ab'.repeat(200)}!`)] }));
    const run = await client.newDraft('Run.docx', buildDocx({ body: [p('x'.repeat(30_000))] }));
    // The first reading is not what this test measures.
    expect((await client.call('GET', `/uploads/${draft.id}/text`)).status).toBe(200);
    expect((await client.call('GET', `/uploads/${run.id}/text`)).status).toBe(200);
    const shapes = ['.*.*.*=', 'a*a*a*a*a*a*b', '\\S*\\S*\\S*\\S*\\S*\\S*z', '.{0,50}.{0,50}.{0,50}!', '(ab?)+$', '(a+)+$'];
    const { result, worst, asked } = await healthDuring(service.url, async () => {
      const answers = [];
      for (const q of shapes) answers.push(await timed(() => client.call('GET', `/uploads/${draft.id}/search?regex=true&q=${encodeURIComponent(q)}`, undefined, 120_000)));
      // Listing every match of this one reads the rest of the run for each: 30,000 x's take minutes of CPU.
      const long = await timed(() => client.call('GET', `/uploads/${run.id}/search?regex=true&q=${encodeURIComponent('x+? |x')}`, undefined, 120_000));
      return { answers, long };
    });
    result.answers.forEach((answer, i) => {
      expect(answer.status, `${shapes[i]}: ${JSON.stringify(answer.body)}`).toBe(200);
      // On JavaScript's RegExp the first took 9.5 s and the second minutes.
      expect(answer.ms, shapes[i]).toBeLessThan(2000);
    });
    expect(result.long.status).toBe(422);
    expect((result.long.body as { code: string }).code).toBe('search_too_slow');
    expect(result.long.ms).toBeLessThan(1500 + 3000);
    console.info(`hostile searches: ${result.answers.map((a) => a.ms.toFixed(0)).join(', ')} ms, the long one ${result.long.ms.toFixed(0)} ms; /api/health/live ${asked} times, worst ${worst.toFixed(0)} ms`);
    expect(worst).toBeLessThan(HEALTH_BOUND_MS);
    // The service is still whole: a plain search answers.
    expect((await client.call('GET', `/uploads/${draft.id}/search?q=ab`)).status).toBe(200);
  }, 180_000);

  it('reads a long draft for the first time and renders its PDF report off the thread answering requests', async () => {
    const original = await client.upload('Framework.docx', buildBenchmarkContract({ pages: 200, revisions: 1500 }), undefined, 120_000);
    expect(original.status).toBe(201);
    const originalId = (original.body as DocumentRow).id;
    const made = await client.call('POST', `/uploads/${originalId}/working-draft`, undefined, 120_000);
    expect(made.status).toBe(201);
    const draftId = (made.body as DocumentRow).id;
    // The review the report is built from is read (and kept) before: the report's rendering is what is measured.
    expect((await client.call('GET', `/documents/${draftId}/review`, undefined, 120_000)).status).toBe(200);
    const { result, worst, asked } = await healthDuring(service.url, () => Promise.all([
      timed(() => client.call('GET', `/uploads/${draftId}/text`, undefined, 120_000)),
      timed(() => client.call('GET', `/uploads/${originalId}/outline`, undefined, 120_000)),
      timed(async () => {
        const res = await fetch(`${client.url}/api/documents/${draftId}/report.pdf`, { headers: client.headers(), signal: AbortSignal.timeout(120_000) });
        const bytes = new Uint8Array(await res.arrayBuffer());
        return { status: res.status, body: new TextDecoder().decode(bytes.slice(0, 5)) };
      }),
    ]));
    const [text, outline, pdf] = result;
    expect(text.status).toBe(200);
    expect(outline.status).toBe(200);
    expect(pdf.status).toBe(200);
    expect(pdf.body).toBe('%PDF-');
    console.info(`first readings of a 9,000-paragraph draft (${text.ms.toFixed(0)} ms, ${outline.ms.toFixed(0)} ms) and its PDF report (${pdf.ms.toFixed(0)} ms); /api/health/live ${asked} times, worst ${worst.toFixed(0)} ms`);
    expect(asked).toBeGreaterThan(5);
    expect(worst).toBeLessThan(HEALTH_BOUND_MS);
  }, 300_000);
});
