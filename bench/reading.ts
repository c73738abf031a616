/**
 * Reading a long draft over HTTP (issue 25): the 9,000-paragraph benchmark draft (200 pages of the
 * benchmark contract), as an assistant reads it. Prints figures against the targets; never fails.
 *
 *   npm run bench:reading
 *
 * - the first page of the text (GET /uploads/{id}/text, 200 blocks): cold (the first read of that
 *   content: the draft is parsed and read once) and warm (pages cut from the reading kept by
 *   content hash); target 150 ms;
 * - the outline (GET /uploads/{id}/outline), warm; target 200 ms;
 * - a search (GET /uploads/{id}/search), plain and regular expression, warm; target 100 ms;
 * - the service's memory (RSS) after reading every view, against the draft's XML size;
 * - `/api/health/live`'s worst answer while each cold first reading runs (asked every ~10 ms on
 *   another connection): the first reading parses on an engine thread (issue 31), target 100 ms.
 *
 * The MCP tools read_document, get_outline and search_document call the same service methods.
 * One service process (src/service/main.ts, PGlite, blobs on disk) on BENCH_PORT (default 8794).
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { buildBenchmarkContract } from '../src/docx/fixture';
import { startBenchService, stopBenchService } from './bench-service';
import { docxForm, expectStatus, json, latencyLine, ms, percentile, request, signIn } from './bench-http';

const PORT = Number(process.env.BENCH_PORT ?? 8794);
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = path.resolve('.tmp/bench-reading-data');
const RUNS = Number(process.env.BENCH_RUNS ?? 20);

function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

async function main(): Promise<void> {
  const docx = buildBenchmarkContract({ pages: 200 });
  const xmlBytes = unzipSync(docx, { filter: (f) => f.name === 'word/document.xml' })['word/document.xml']!.byteLength;
  console.log(`Benchmark draft: 200 pages (9,000 paragraphs), ${(docx.byteLength / 1e6).toFixed(1)} MB .docx, document.xml ${(xmlBytes / 1e6).toFixed(1)} MB; service on ${BASE}`);
  const service = await startBenchService(PORT, DATA_DIR);
  try {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const { headers } = await signIn(BASE, 'demo@example.com', '127.0.0.1');
    const call = (method: string, url: string, body?: Buffer, extra: Record<string, string> = {}) =>
      request(BASE, method, url, { headers: { ...headers, ...extra }, agent, timeoutMs: 300_000, ...(body ? { body } : {}) });
    const form = docxForm({ purpose: 'source_doc' }, 'Framework Services Agreement.docx', docx);
    const uploadId = json<{ id: string }>(expectStatus(await call('POST', '/api/uploads', form.body, form.headers), 201, 'upload')).id;
    const draftId = json<{ id: string }>(expectStatus(await call('POST', `/api/uploads/${uploadId}/working-draft`), 201, 'working draft')).id;
    const rssBefore = rssOf(service.pid!);

    /** A cold call, with the worst answer of /api/health/live while it ran. */
    const coldCall = async (url: string, what: string) => {
      let done = false;
      let worst = 0;
      const health = (async () => {
        const probeAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        while (!done) {
          worst = Math.max(worst, (await request(BASE, 'GET', '/api/health/live', { agent: probeAgent })).ms);
          await new Promise((r) => setTimeout(r, 10));
        }
      })();
      const answer = expectStatus(await call('GET', url), 200, what);
      done = true;
      await health;
      return { answer, health: `health worst ${ms(worst)}` };
    };
    const { answer: cold, health: coldHealth } = await coldCall(`/api/uploads/${draftId}/text`, 'text');
    const first = json<{ blocks: unknown[]; nextCursor: string | null }>(cold);
    console.log(`first page, cold (parse + read once):  ${ms(cold.ms)}  (${first.blocks.length} blocks, ${(cold.body.byteLength / 1e3).toFixed(0)} kB); ${coldHealth}`);
    const timed = async (url: string, what: string) => {
      const xs: number[] = [];
      for (let i = 0; i < RUNS; i++) xs.push(expectStatus(await call('GET', url), 200, what).ms);
      return xs;
    };
    const page = await timed(`/api/uploads/${draftId}/text`, 'text');
    console.log(`first page, warm:                      ${latencyLine(page)} (target <= 150 ms)`);
    const next = await timed(`/api/uploads/${draftId}/text?cursor=${first.nextCursor}`, 'text');
    console.log(`second page, warm:                     ${latencyLine(next)}`);
    const { answer: outlineCold, health: outlineHealth } = await coldCall(`/api/uploads/${uploadId}/outline`, 'outline');
    const outline = await timed(`/api/uploads/${draftId}/outline`, 'outline');
    const entries = json<{ entries: unknown[] }>(outlineCold).entries.length;
    console.log(`outline, warm:                         ${latencyLine(outline)} (${entries} entries; target <= 200 ms); cold on the original (accepted view): ${ms(outlineCold.ms)}, ${outlineHealth}`);
    const plain = await timed(`/api/uploads/${draftId}/search?q=${encodeURIComponent('confidential information')}`, 'search');
    const found = json<{ count: number }>(expectStatus(await call('GET', `/api/uploads/${draftId}/search?q=${encodeURIComponent('confidential information')}`), 200, 'search')).count;
    console.log(`search, plain, warm:                   ${latencyLine(plain)} (${found} hits; target <= 100 ms)`);
    const regex = await timed(`/api/uploads/${draftId}/search?regex=true&q=${encodeURIComponent('\\b(thirty|sixty|ninety) \\(\\d+\\) days\\b')}`, 'search');
    console.log(`search, regular expression, warm:      ${latencyLine(regex)}`);
    for (const view of ['accepted', 'rejected'] as const) {
      const { answer: c, health } = await coldCall(`/api/uploads/${draftId}/text?view=${view}`, view);
      console.log(`first page of the ${view} view, cold:  ${ms(c.ms)} (a copy decided once, then kept); ${health}`);
    }
    const rssAfter = rssOf(service.pid!);
    console.log(`service RSS: ${(rssBefore / 1e6).toFixed(0)} MB before reading, ${(rssAfter / 1e6).toFixed(0)} MB after all three views (${((rssAfter - rssBefore) / xmlBytes).toFixed(1)}x document.xml added)`);
    console.log(`p50 summary: page ${ms(percentile(page, 50))}, outline ${ms(percentile(outline, 50))}, search ${ms(percentile(plain, 50))}`);
  } finally {
    await stopBenchService(service);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
