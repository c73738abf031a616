/**
 * A decision in tens of milliseconds (issue 22.4): 50-decision batches over HTTP on the bench
 * draft (src/docx/fixture/benchmark-contract.ts, the default 300-page / 3,000-revision contract),
 * answered minimal (`Prefer: return=minimal` with If-Match, issue 36.1: the delta of the listing
 * the bench holds; a service without deltas answers the Document row, revisions and track, no
 * content) and full (the interface's default answer: content and render variant too). Each kind runs on a
 * working draft of its own, the batches alternating accept and reject, each on the state the last
 * one left. Prints p50/p95 of each against the targets, the answer sizes and where the service
 * spent the time (Server-Timing); never fails.
 *
 *   npm run bench:apply [-- --batches 40] [--changes 3000] [--pages 100] [--pace 400]
 *
 * `--pace ms` pauses after each answer, as a reviewer would: past the service's quiet time its
 * track projection is stored between batches, and the CPU a batch costs includes that store.
 * BENCH_APPLY_KINDS=minimal (or full) runs that kind only (a CPU profile of it: BENCH_CPU_PROF).
 * Beside the main thread's CPU it prints the busiest other threads' (the codec's, the collector's).
 *
 * `--changes n` sizes the draft to about n changes on the issue's 100-page (4,500-paragraph)
 * contract unless `--pages` says otherwise (issue 36 measures 1,000 and 3,000).
 *
 * Runs one service process (the embedded defaults: PGlite and blobs on disk) on BENCH_PORT
 * (default 8793) with a fresh data directory under .tmp/. A service that does not honour the
 * preference answers in full to both (the line says so), which is how the figures before it
 * were taken.
 */
import http from 'node:http';
import path from 'node:path';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { buildBenchmarkContract } from '../src/docx/fixture';
import { applyListingDelta, isReviewDelta, type ReviewDelta } from '../src/contract/listing-delta';
import type { ReviewMinimalResponse } from '../src/contract/review';
import { startBenchService, stopBenchService } from './bench-service';
import { docxForm, expectStatus, json, latencyLine, ms, percentile, request, serverTimingLine, signIn, type Timed } from './bench-http';

const PORT = Number(process.env.BENCH_PORT ?? 8793);
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = path.resolve('.tmp/bench-apply-data');
const at = process.argv.indexOf('--batches');
const BATCHES = at >= 0 ? Number(process.argv[at + 1]) : 40;
// --pages 100: the 4,500-paragraph draft (45 paragraphs a page); default the 300-page contract.
const pagesAt = process.argv.indexOf('--pages');
const PAGES = pagesAt >= 0 ? Number(process.argv[pagesAt + 1]) : undefined;
const changesAt = process.argv.indexOf('--changes');
const CHANGES = changesAt >= 0 ? Number(process.argv[changesAt + 1]) : undefined;
const PER_BATCH = 50;
// --pace ms: a pause after each answer, as a reviewer's pace: past the service's quiet time (250 ms) its track projection is stored between batches.
const paceAt = process.argv.indexOf('--pace');
const PACE_MS = paceAt >= 0 ? Number(process.argv[paceAt + 1]) : 0;

interface Review {
  revisions: { change_id: string }[];
  contentBase64?: string;
}

/**
 * CPU the service has used so far, in ms: its main thread's (from schedstat, nanoseconds: the
 * engine, PGlite and JSON all run there) and the whole process's (all threads, from stat, in
 * clock ticks of 10 ms). Read beside wall times because the machine is shared: waiting for a
 * core shows in the wall time, not here.
 */
function cpuMs(pid: number): { main: number; all: number } {
  try {
    const main = Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { main, all: (Number(fields[11]) + Number(fields[12])) * 10 };
  } catch {
    return { main: NaN, all: NaN }; // not Linux: wall times only
  }
}

/** CPU each of the service's threads has used so far, in ms, by thread id, the main one named `main` (from /proc/<pid>/task/<tid>/schedstat: Node names every thread "node"). */
function threadCpuMs(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const name = tid === String(pid) ? 'main' : `thread ${tid}`;
        const used = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
        byName.set(name, (byName.get(name) ?? 0) + used);
      } catch {
        // the thread ended meanwhile
      }
    }
  } catch {
    // not Linux
  }
  return byName;
}

/** What each kind of thread used between two readings, per batch, the largest first. */
function threadLine(from: Map<string, number>, to: Map<string, number>, batches: number): string {
  const used = [...to].map(([name, ms]) => [name, (ms - (from.get(name) ?? 0)) / batches] as const).filter(([, ms]) => ms >= 0.5);
  return used.sort((a, b) => b[1] - a[1]).slice(0, 6).map(([name, ms]) => `${name} ${ms.toFixed(0)}`).join(', ') || '(not read)';
}

/** The draft's size from the arguments: `--changes` on 100 pages (or `--pages`), else `--pages` with ten changes a page, else the default contract. */
function benchDraftSize(): { pages?: number; revisions?: number } {
  if (CHANGES !== undefined) return { pages: PAGES ?? 100, revisions: CHANGES };
  return PAGES ? { pages: PAGES, revisions: PAGES * 10 } : {};
}

/** `count` ids spread evenly over the list. */
function spread(ids: readonly string[], count: number): string[] {
  const step = Math.max(1, Math.floor(ids.length / count));
  return ids.filter((_, i) => i % step === 0).slice(0, count);
}

async function main(): Promise<void> {
  const docx = buildBenchmarkContract(benchDraftSize());
  const xml = new TextDecoder().decode(unzipSync(docx, { filter: (f) => f.name === 'word/document.xml' })['word/document.xml']);
  const paragraphs = xml.match(/<w:p[ >]/g)?.length ?? 0;
  console.log(`Bench draft: ${paragraphs.toLocaleString('en')} paragraphs, ${(docx.byteLength / 1e6).toFixed(1)} MB .docx; ${BATCHES} batches of ${PER_BATCH} decisions per answer kind`);
  const service = await startBenchService(PORT, DATA_DIR);
  const pid = service.pid ?? 0;
  try {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const { headers } = await signIn(BASE, 'demo@example.com', '127.0.0.1');
    const call = (method: string, url: string, body?: object | Buffer, extra: Record<string, string> = {}) =>
      request(BASE, method, url, { headers: { ...headers, ...extra }, agent, timeoutMs: 300_000, ...(body ? { body } : {}) });
    const form = docxForm({ purpose: 'source_doc' }, 'Framework Services Agreement.docx', docx);
    const uploadId = json<{ id: string }>(expectStatus(await call('POST', '/api/uploads', form.body, form.headers), 201, 'upload')).id;

    const run = async (label: string, prefer: Record<string, string>) => {
      const draftId = json<{ id: string }>(expectStatus(await call('POST', `/api/uploads/${uploadId}/working-draft`), 201, 'working draft')).id;
      const read = expectStatus(await call('GET', `/api/documents/${draftId}/review`), 200, 'review');
      let current = json<Review>(read);
      // The listing's version: a minimal batch names it (If-Match) and is answered the delta from it (issue 36.1).
      let etag = typeof read.headers.etag === 'string' ? read.headers.etag : undefined;
      if (label === 'minimal') console.log(`Listing: ${current.revisions.length.toLocaleString('en')} changes`);
      const answers: Timed[] = [];
      const mainCpu: number[] = [];
      let applied = 0;
      let deltas = 0;
      const cpuFrom = cpuMs(pid);
      const threadsFrom = threadCpuMs(pid);
      for (let i = 0; i < BATCHES; i++) {
        const ids = spread(current.revisions.map((r) => r.change_id), PER_BATCH);
        if (!ids.length) break;
        const body = i % 2 === 0 ? { accepted_change_ids: ids, rejected_change_ids: [] } : { accepted_change_ids: [], rejected_change_ids: ids };
        const before = cpuMs(pid).main;
        const ifMatch: Record<string, string> = label === 'minimal' && etag ? { 'if-match': etag } : {};
        const answer = expectStatus(await call('POST', `/api/documents/${draftId}/revisions/apply`, body, { ...prefer, ...ifMatch }), 200, `${label} batch ${i + 1}`);
        etag = typeof answer.headers.etag === 'string' ? answer.headers.etag : undefined;
        mainCpu.push(cpuMs(pid).main - before);
        if (i === 0) applied = answer.headers['preference-applied'] === 'return=minimal' ? 1 : 0;
        answers.push(answer);
        const answered = json<Review | ReviewDelta>(answer);
        if (isReviewDelta(answered)) deltas++;
        current = isReviewDelta(answered) ? applyListingDelta(current as ReviewMinimalResponse, answered) : answered;
        if (PACE_MS > 0) await new Promise((r) => setTimeout(r, PACE_MS));
      }
      // Settle what the service still does after the last answer (it stores the track then).
      await new Promise((r) => setTimeout(r, 1_000));
      const cpuTo = cpuMs(pid);
      const threads = threadLine(threadsFrom, threadCpuMs(pid), answers.length);
      const times = answers.map((a) => a.ms);
      const size = percentile(answers.map((a) => a.body.byteLength), 50);
      const cpu = { main: mainCpu, mainPerBatch: (cpuTo.main - cpuFrom.main) / answers.length, allPerBatch: (cpuTo.all - cpuFrom.all) / answers.length, threads };
      return { times, answers, size, cpu, minimal: applied === 1, deltas };
    };

    const kinds = (process.env.BENCH_APPLY_KINDS ?? 'minimal,full').split(',');
    const skipped = { times: [NaN], answers: [], size: NaN, cpu: { main: [NaN], mainPerBatch: NaN, allPerBatch: NaN, threads: '' }, minimal: true, deltas: 0 };
    const minimal = kinds.includes('minimal') ? await run('minimal', { prefer: 'return=minimal' }) : skipped;
    const full = kinds.includes('full') ? await run('full', {}) : skipped;
    const kind = !minimal.minimal ? 'minimal asked, full answered' : minimal.deltas ? `minimal answer (${minimal.deltas} deltas)` : 'minimal answer (whole listing)';
    console.log(`${kind.padEnd(30)} ${latencyLine(minimal.times)} over ${minimal.times.length}, ${(minimal.size / 1e3).toFixed(0)} kB median (targets p50 <= 60 ms, p95 <= 120 ms)`);
    console.log(`  where the service spent it: ${serverTimingLine(minimal.answers)}`);
    console.log(`  service CPU: ${cpuLine(minimal.cpu)}`);
    console.log(`${'full answer'.padEnd(30)} ${latencyLine(full.times)} over ${full.times.length}, ${(full.size / 1e3).toFixed(0)} kB median (target p95 <= 300 ms)`);
    console.log(`  where the service spent it: ${serverTimingLine(full.answers)}`);
    console.log(`  service CPU: ${cpuLine(full.cpu)}`);
    console.log(`load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
    const met = minimal.minimal && percentile(minimal.times, 50) <= 60 && percentile(minimal.times, 95) <= 120 && percentile(full.times, 95) <= 300;
    console.log(`targets ${met ? 'met' : 'not met'} (minimal p50 ${ms(percentile(minimal.times, 50))}, p95 ${ms(percentile(minimal.times, 95))}; full p95 ${ms(percentile(full.times, 95))})`);
  } finally {
    await stopBenchService(service);
    rmSync(DATA_DIR, { recursive: true, force: true });
  }
}

/** The service's CPU per batch: its main thread's during each request (p50 / p95), and all threads' per batch including what it did after answering. */
function cpuLine(cpu: { main: number[]; mainPerBatch: number; allPerBatch: number; threads: string }): string {
  return `main thread during the request p50 ${ms(percentile(cpu.main, 50))}, p95 ${ms(percentile(cpu.main, 95))}; main thread ${ms(cpu.mainPerBatch)} and all threads ${ms(cpu.allPerBatch)} a batch (with what follows the answer)`
    + `\n  by thread (the busiest), ms a batch: ${cpu.threads}`;
}

main().catch((error: unknown) => {
  console.error(`bench/apply failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exitCode = 0; // benchmarks print; they never fail
});
