/**
 * The checks of a long draft over HTTP (issue 35): GET /documents/{id}/checks on the 100-page
 * benchmark draft (3,000 revisions, as bench/transfer.ts builds it) and on the 9,000-paragraph one (200 pages, 3,000 revisions),
 * as the review page and the assistant ask for them. Prints figures against the targets (300 ms
 * and 1 s); never fails.
 *
 *   npx tsx bench/checks.ts
 *
 * - cold: the first ask for a content (an engine thread parses the draft twice, accepts and
 *   rejects every change, reads the three views and runs the checks on two);
 * - warm: the same content asked again (answered from the findings kept by content hash);
 * - the other view, right after (kept with the first: both views are computed at once);
 * - the first ask of another content of the same size PAUSE_MS after its working draft was made,
 *   as a reviewer opening the draft would ask: the checks are computed in the background as
 *   soon as a content is stored, so this one usually finds them ready.
 * One service process (src/service/main.ts, PGlite, blobs on disk) on BENCH_PORT (default 8795).
 * First, the checks' CPU in this process (checkDraft on the same drafts' bytes, BENCH_CPU_RUNS times,
 * default 3; the first run is the process's first and pays for compiling the code).
 */
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { checkDraft } from '../src/docx/checks/draft-checks';
import { buildBenchmarkContract } from '../src/docx/fixture';
import { startBenchService, stopBenchService } from './bench-service';
import { docxForm, expectStatus, json, latencyLine, ms, request, signIn } from './bench-http';

const PORT = Number(process.env.BENCH_PORT ?? 8795);
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = path.resolve('.tmp/bench-checks-data');
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const PAUSE_MS = Number(process.env.BENCH_PAUSE_MS ?? 15_000);
const CPU_RUNS = Number(process.env.BENCH_CPU_RUNS ?? 3);

const DRAFTS = [
  { name: '100 pages (4,500 paragraphs), 3,000 revisions', pages: 100, revisions: 3000, target: 300 },
  { name: '200 pages (9,000 paragraphs), 3,000 revisions', pages: 200, revisions: 3000, target: 1000 },
];

async function main(): Promise<void> {
  console.log(`load average before: ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} (${os.cpus().length} cores)`);
  for (const d of DRAFTS) {
    const bytes = buildBenchmarkContract({ pages: d.pages, revisions: d.revisions, seed: 1 });
    const cpu: number[] = [];
    for (let i = 0; i < CPU_RUNS; i++) {
      const start = process.cpuUsage();
      checkDraft(bytes);
      const used = process.cpuUsage(start);
      cpu.push((used.user + used.system) / 1000);
    }
    console.log(`${d.name}: checks CPU in process, runs in order: ${cpu.map((x) => `${x.toFixed(0)} ms`).join(', ')}  (load ${os.loadavg()[0]!.toFixed(2)})`);
  }
  const service = await startBenchService(PORT, DATA_DIR);
  try {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const { headers } = await signIn(BASE, 'demo@example.com', '127.0.0.1');
    const call = (method: string, url: string, body?: Buffer, extra: Record<string, string> = {}) =>
      request(BASE, method, url, { headers: { ...headers, ...extra }, agent, timeoutMs: 300_000, ...(body ? { body } : {}) });
    const draftOf = async (pages: number, revisions: number, seed: number): Promise<string> => {
      const docx = buildBenchmarkContract({ pages, revisions, seed });
      const form = docxForm({ purpose: 'source_doc' }, `Checks ${pages} ${seed}.docx`, docx);
      const uploadId = json<{ id: string }>(expectStatus(await call('POST', '/api/uploads', form.body, form.headers), 201, 'upload')).id;
      return json<{ id: string }>(expectStatus(await call('POST', `/api/uploads/${uploadId}/working-draft`), 201, 'working draft')).id;
    };
    for (const d of DRAFTS) {
      const draftId = await draftOf(d.pages, d.revisions, 1);
      const cold = expectStatus(await call('GET', `/api/documents/${draftId}/checks`), 200, 'checks');
      const findings = json<{ findings: { causedBy: string[] }[] }>(cold).findings;
      const other = expectStatus(await call('GET', `/api/documents/${draftId}/checks?view=rejected`), 200, 'checks');
      const warm: number[] = [];
      for (let i = 0; i < RUNS; i++) warm.push(expectStatus(await call('GET', `/api/documents/${draftId}/checks`), 200, 'checks').ms);
      console.log(`${d.name}: ${findings.length} findings (${findings.filter((f) => f.causedBy.length > 0).length} brought by changes), ${(cold.body.byteLength / 1e3).toFixed(0)} kB`);
      console.log(`  cold (first ask of this content): ${ms(cold.ms)}  (target <= ${d.target} ms)`);
      console.log(`  rejected view right after:        ${ms(other.ms)}`);
      console.log(`  warm:                             ${latencyLine(warm)}`);
      const later = await draftOf(d.pages, d.revisions, 2);
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
      const first = expectStatus(await call('GET', `/api/documents/${later}/checks`), 200, 'checks');
      console.log(`  first ask ${PAUSE_MS / 1000} s after another draft was made: ${ms(first.ms)}`);
    }
  } finally {
    await stopBenchService(service);
  }
  console.log(`load average after: ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
