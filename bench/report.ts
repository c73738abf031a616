/**
 * The decision report (issue 14 item 4) on the engine's 300-page / 3,000-revision draft:
 * how long GET /report.pdf and /report.csv take, and how big they are. Half the changes are
 * decided first (in 50-change batches, every tenth with a note), so the report carries open,
 * accepted and rejected groups, names and notes. Prints figures (target: PDF under 3 s);
 * never fails.
 *
 *   npx tsx bench/report.ts            (REPORT_OUT=<dir> also writes the files there)
 *
 * In-process service on a fresh PGlite database (the test service), requests by app.inject:
 * the time is the route's own (analysis, log, names, PDF), without a socket. Besides wall time
 * it prints the process's CPU time per request (user + system, all threads): on a shared machine
 * whose load runs far above its cores, that is what the report would take on an idle one.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildBenchmarkContract } from '../src/docx/fixture';
import { multipartBody, startTestService } from '../test/support/test-service';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main(): Promise<void> {
  const t = await startTestService();
  try {
    const grant = await t.signUpAndSignIn('bench@report.example');
    const headers = t.headers(grant);
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'Benchmark contract (300 pages).docx', bytes: buildBenchmarkContract() });
    const upload = (await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...headers } })).json();
    const draft = (await t.app.inject({ method: 'POST', url: `/api/uploads/${upload.id}/working-draft`, headers })).json();
    const review = (await t.app.inject({ method: 'GET', url: `/api/documents/${draft.id}/review`, headers })).json();
    const ids: string[] = review.revisions.map((r: { change_id: string }) => r.change_id);
    const toDecide = ids.filter((_, i) => i % 2 === 0).slice(0, 1500);
    for (let i = 0; i < toDecide.length; i += 50) {
      const batch = toDecide.slice(i, i + 50);
      const accepted = batch.filter((_, k) => k % 3 !== 0);
      const rejected = batch.filter((_, k) => k % 3 === 0);
      const notes = Object.fromEntries(batch.filter((_, k) => k % 10 === 0).map((id) => [id, `Decided in batch ${i / 50 + 1}: see the negotiation memo, clause ${id}.`]));
      const res = await t.app.inject({ method: 'POST', url: `/api/documents/${draft.id}/revisions/apply`, headers, payload: { accepted_change_ids: accepted, rejected_change_ids: rejected, notes } });
      // An id that an earlier batch already resolved with its container answers 409/422: skip that batch.
      if (res.statusCode !== 200) continue;
    }
    const final = (await t.app.inject({ method: 'GET', url: `/api/documents/${draft.id}/review`, headers })).json();
    console.log(`Benchmark draft: ${final.track.counts.total} changes in the track (${final.track.counts.open} open, ${final.track.counts.in} accepted, ${final.track.counts.back} rejected)`);

    for (const format of ['pdf', 'csv'] as const) {
      const times: number[] = [];
      const cpu: number[] = [];
      let size = 0;
      let pages = 0;
      let timing = '';
      for (let run = 0; run < RUNS; run++) {
        const started = performance.now();
        const cpuBefore = process.cpuUsage();
        const res = await t.app.inject({ method: 'GET', url: `/api/documents/${draft.id}/report.${format}`, headers });
        times.push(performance.now() - started);
        const used = process.cpuUsage(cpuBefore);
        cpu.push((used.user + used.system) / 1000);
        if (res.statusCode !== 200) throw new Error(`report.${format} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
        size = res.rawPayload.byteLength;
        timing = String(res.headers['server-timing'] ?? '');
        if (format === 'pdf') pages = (res.rawPayload.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;
        if (process.env.REPORT_OUT && run === 0) {
          mkdirSync(process.env.REPORT_OUT, { recursive: true });
          writeFileSync(path.join(process.env.REPORT_OUT, `benchmark-report.${format}`), res.rawPayload);
        }
      }
      console.log(`report.${format}: wall median ${median(times).toFixed(0)} ms (first ${times[0]!.toFixed(0)}, min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)}) over ${RUNS} runs; ` +
        `CPU median ${median(cpu).toFixed(0)} ms (first ${cpu[0]!.toFixed(0)}); load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores; ` +
        `${(size / 1e6).toFixed(2)} MB${pages ? `, ${pages} pages` : ''}${format === 'pdf' ? ` (target < 3,000 ms)` : ''}${timing ? `; server-timing ${timing}` : ''}`);
    }
  } finally {
    await t.destroy();
  }
}

await main();
