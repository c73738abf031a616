/**
 * The review API end to end over HTTP on the engine's 300-page / 3,000-revision draft
 * (issue #4 item 7). Prints figures against the targets; never fails.
 *
 *   npx tsx bench/review.ts
 *
 * - review read, cold (first read of that content: the service parses and analyses it) and
 *   warm (analysis cached by content hash: no XML work);
 * - a 50-change apply, p50/p95 over BENCH_BATCHES (default 24) batches (targets 400 / 700 ms);
 * - accept-all over HTTP, and LibreOffice headless's warm accept-all of the same file, in
 *   the same run (target: HTTP at least 20x faster).
 *
 * Runs one service process (`src/service/main.ts`, the embedded defaults: PGlite and blobs on
 * disk, unless DATABASE_URL / BLOB_STORE say otherwise) on BENCH_PORT (default 8792), with a
 * fresh data directory under .tmp/, on 127.0.0.1 only. BENCH_CPU_PROF=<dir> profiles the service.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { buildBenchmarkContract } from '../src/docx/fixture';
import { startBenchService, stopBenchService } from './bench-service';
import { docxForm, expectStatus, json, latencyLine, ms, percentile, request, serverTimingLine, signIn, type Timed } from './bench-http';

const PORT = Number(process.env.BENCH_PORT ?? 8792);
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = path.resolve('.tmp/bench-review-data');
const BATCHES = Math.max(20, Number(process.env.BENCH_BATCHES ?? 24));
const DEMO_EMAIL = 'demo@example.com';

interface Review {
  document: { id: string; contentSha256: string };
  revisions: { change_id: string }[];
}

/** `count` ids spread evenly over the list. */
function spread(ids: readonly string[], count: number): string[] {
  const step = Math.max(1, Math.floor(ids.length / count));
  return ids.filter((_, i) => i % step === 0).slice(0, count);
}

async function main(): Promise<void> {
  const docx = buildBenchmarkContract();
  console.log(`Benchmark draft: 300 pages, ${(docx.byteLength / 1e6).toFixed(1)} MB .docx; service on ${BASE} (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${process.env.BLOB_STORE ?? 'disk'} blobs)`);
  const service = await startBenchService(PORT, DATA_DIR);
  const work = path.resolve('.tmp/bench-review-work');
  mkdirSync(work, { recursive: true });
  try {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const { headers } = await signIn(BASE, DEMO_EMAIL, '127.0.0.1');
    const call = (method: string, url: string, body?: object | Buffer, extra: Record<string, string> = {}) =>
      request(BASE, method, url, { headers: { ...headers, ...extra }, agent, timeoutMs: 300_000, ...(body ? { body } : {}) });

    const form = docxForm({ purpose: 'source_doc' }, 'Framework Services Agreement.docx', docx);
    const uploaded = expectStatus(await call('POST', '/api/uploads', form.body, form.headers), 201, 'upload');
    const uploadId = json<{ id: string }>(uploaded).id;
    console.log(`upload (ingest) over HTTP:         ${ms(uploaded.ms)}`);
    const newDraft = async () => json<{ id: string }>(expectStatus(await call('POST', `/api/uploads/${uploadId}/working-draft`), 201, 'working draft')).id;

    // Review reads: the first of a content is cold, the rest find the analysis cached by content hash.
    const draftId = await newDraft();
    const cold = expectStatus(await call('GET', `/api/documents/${draftId}/review`), 200, 'review');
    let current = json<Review>(cold);
    const warm: number[] = [];
    for (let i = 0; i < 10; i++) warm.push(expectStatus(await call('GET', `/api/documents/${draftId}/review`), 200, 'review').ms);
    console.log(`review read, cold (parse + analyse): ${ms(cold.ms)}   (${current.revisions.length} revisions, ${(cold.body.byteLength / 1e6).toFixed(1)} MB answer)`);
    console.log(`review read, warm (cached analysis): p50 ${ms(percentile(warm, 50))}, p95 ${ms(percentile(warm, 95))} over ${warm.length}`);

    // 50-change applies, each on the state the previous one left.
    const applies: number[] = [];
    const answers: Timed[] = [];
    for (let i = 0; i < BATCHES; i++) {
      const ids = spread(current.revisions.map((r) => r.change_id), 50);
      const body = i % 2 === 0 ? { accepted_change_ids: ids, rejected_change_ids: [] } : { accepted_change_ids: [], rejected_change_ids: ids };
      const answer = expectStatus(await call('POST', `/api/documents/${draftId}/revisions/apply`, body), 200, `apply batch ${i + 1}`);
      applies.push(answer.ms);
      answers.push(answer);
      current = json<Review>(answer);
    }
    console.log(`50-change apply over HTTP:         ${latencyLine(applies)} over ${applies.length} batches (targets p50 <= 400 ms, p95 <= 700 ms)`);
    console.log(`  where the service spent it:     ${serverTimingLine(answers)}`);

    // Accept-all on a fresh working draft of the same content.
    const allDraftId = await newDraft();
    const fresh = json<Review>(expectStatus(await call('GET', `/api/documents/${allDraftId}/review`), 200, 'review'));
    const content = expectStatus(await call('GET', `/api/uploads/${allDraftId}/content`), 200, 'download').body;
    const ids = fresh.revisions.map((r) => r.change_id);
    const acceptAll = expectStatus(await call('POST', `/api/documents/${allDraftId}/revisions/apply`, { accepted_change_ids: ids, rejected_change_ids: [] }), 200, 'accept-all');
    const left = json<Review>(acceptAll).revisions.length;
    console.log(`accept-all over HTTP:              ${ms(acceptAll.ms)}   (${ids.length} changes, ${left} left)`);

    const script = path.resolve(process.env.REDLINE_TOOLS ?? path.resolve(process.cwd(), '../shared/tools'), 'lo-accept-reject.sh');
    if (!existsSync(script) || spawnSync('soffice', ['--version']).status !== 0) {
      console.log('LibreOffice accept-all: skipped (soffice or lo-accept-reject.sh not found)');
      return;
    }
    const first = path.join(work, 'draft.docx');
    const second = path.join(work, 'again.docx');
    writeFileSync(first, content);
    writeFileSync(second, content);
    const lo = spawnSync(script, ['accept', first, path.join(work, 'lo1.docx'), second, path.join(work, 'lo2.docx')], { encoding: 'utf8', timeout: 900_000 });
    const secs = lo.stdout.split('\n').filter((l) => l.startsWith('accept\t')).map((l) => Number(l.split('\t')[3]));
    const warmLo = secs[1];
    if (warmLo === undefined || Number.isNaN(warmLo)) {
      console.log(`LibreOffice accept-all: failed (${lo.stderr.split('\n')[0] ?? ''})`);
      return;
    }
    console.log(`LibreOffice accept-all (warm):     ${ms(warmLo * 1000)}   -> HTTP accept-all is ${((warmLo * 1000) / acceptAll.ms).toFixed(1)}x faster (target >= 20x)`);
  } finally {
    await stopBenchService(service);
    rmSync(work, { recursive: true, force: true });
    rmSync(DATA_DIR, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`bench/review failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exitCode = 0; // benchmarks print; they never fail
});
