/**
 * The untracked-edit check and the compare route over HTTP on the 300-page benchmark contract
 * (issue 12, items 2 and 4). Prints figures; never fails.
 *
 *   npx tsx bench/untracked.ts
 *
 * - a new version of the 300-page contract is uploaded (POST /uploads/{id}/versions): how long its
 *   answer takes, and when GET /uploads/{id}/untracked first answers 200 (polled every 25 ms),
 *   counted from the upload's request (target: within 2 s, and the answer never waits for it).
 *   Two pairs: "light", the version with a few untracked word edits; "heavy", a version whose
 *   every one of the 3,000 revision elements differs from the previous (accepted-all) version.
 *   Beside it, the same comparison run alone in this process, to show the engine's share.
 * - POST /uploads/{id}/compare on the same pairs (the accepted view), and the untracked working
 *   draft, median of BENCH_RUNS (default 3).
 *
 * Runs one service process on BENCH_PORT (default 8840) with a fresh data directory under .tmp/.
 */
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { rmSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import path from 'node:path';
import { applyDecisions, compareDocx, listRevisions } from '../src/docx';
import { nativeZipCodec } from '../src/service/engine/native-zip-codec';
import { buildBenchmarkContract } from '../src/docx/fixture';
import { docxForm, expectStatus, json, ms, percentile, request, signIn } from './bench-http';
import { startBenchService, stopBenchService } from './bench-service';

const PORT = Number(process.env.BENCH_PORT ?? 8840);
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = path.resolve('.tmp/bench-untracked-data');
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));

/** The same document with `edits` words changed outside any tracked change, spread through the body. */
function withUntrackedEdits(docx: Uint8Array, edits: number): Uint8Array {
  const files = unzipSync(docx);
  const xml = strFromU8(files['word/document.xml']!);
  // Plain runs only: a w:t that is not inside w:ins/w:del (those hold w:t too, inside w:ins).
  const plain = [...xml.matchAll(/<w:r>(?:<w:rPr>(?:(?!<\/w:rPr>).)*<\/w:rPr>)?<w:t xml:space="preserve">([A-Za-z]+) /g)]
    .filter((m) => !xml.slice(Math.max(0, m.index - 400), m.index).match(/<w:ins [^>]*>(?:(?!<\/w:ins>).)*$/));
  const step = Math.floor(plain.length / edits);
  let out = xml;
  for (let i = edits - 1; i >= 0; i--) {
    const m = plain[i * step]!;
    const at = m.index + m[0].length - m[1]!.length - 1;
    out = `${out.slice(0, at)}Amended${out.slice(at + m[1]!.length)}`;
  }
  files['word/document.xml'] = strToU8(out);
  return zipSync(files);
}

async function main(): Promise<void> {
  const v1 = buildBenchmarkContract();
  const light = withUntrackedEdits(v1, 5);
  const accepted = applyDecisions(v1, { accept: listRevisions(v1).map((r) => r.change_id), reject: [] });
  console.log(`300-page contract: ${(v1.byteLength / 1e6).toFixed(1)} MB .docx; service on ${BASE} (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${process.env.BLOB_STORE ?? 'disk'} blobs)`);
  const service = await startBenchService(PORT, DATA_DIR);
  try {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const { headers } = await signIn(BASE, 'demo@example.com', '127.0.0.1');
    const call = (method: string, url: string, body?: object | Buffer, extra: Record<string, string> = {}) =>
      request(BASE, method, url, { headers: { ...headers, ...extra }, agent, timeoutMs: 300_000, ...(body ? { body } : {}) });
    const upload = async (url: string, bytes: Uint8Array, name: string) => {
      const form = docxForm({ purpose: 'source_doc' }, name, bytes);
      return call('POST', url, form.body, form.headers);
    };

    for (const [label, previous, next] of [['light (5 untracked word edits)', v1, light], ['heavy (every revision differs)', accepted, v1]] as const) {
      console.log(`\n${label}`);
      const base = json<{ id: string }>(expectStatus(await upload('/api/uploads', previous, 'Framework.docx'), 201, 'upload'));
      const checks: number[] = [];
      const answers: number[] = [];
      let count = 0;
      let versionId = '';
      for (let run = 0; run < RUNS; run++) {
        const started = performance.now();
        const added = expectStatus(await upload(`/api/uploads/${base.id}/versions`, next, 'Framework (their turn).docx'), 201, 'version');
        answers.push(added.ms);
        versionId = json<{ id: string }>(added).id;
        for (;;) {
          const answer = await call('GET', `/api/uploads/${versionId}/untracked`);
          if (answer.status === 200) {
            checks.push(performance.now() - started);
            count = json<{ count: number }>(answer).count;
            break;
          }
          expectStatus(answer, 202, 'untracked');
          await new Promise((r) => setTimeout(r, 25));
        }
      }
      // The engine's share: the same comparison alone, in this process, right after (same machine load).
      const alone: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const t0 = performance.now();
        compareDocx(previous, next, { view: 'rejected', open: { codec: nativeZipCodec } });
        alone.push(performance.now() - t0);
      }
      console.log(`  version upload answered:            median ${ms(percentile(answers, 50))} (${answers.map(ms).join(', ')})`);
      console.log(`  untracked check done after upload:  median ${ms(percentile(checks, 50))} (${checks.map(ms).join(', ')}), target <= 2000 ms; ${count} untracked changes found`);
      console.log(`  the same comparison alone (engine): median ${ms(percentile(alone, 50))} (${alone.map(ms).join(', ')}); load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);

      const compares = [];
      for (let run = 0; run < RUNS; run++) {
        compares.push(expectStatus(await call('POST', `/api/uploads/${versionId}/compare`, { against: base.id }), 201, 'compare'));
      }
      console.log(`  POST compare (accepted view):       median ${ms(percentile(compares.map((c) => c.ms), 50))} (${compares.map((c) => ms(c.ms)).join(', ')}); Redline-Changes ${compares[0]!.headers['redline-changes']}; Server-Timing ${compares[0]!.headers['server-timing']}`);
      const drafts = [];
      for (let run = 0; run < RUNS; run++) {
        drafts.push(expectStatus(await call('POST', `/api/uploads/${versionId}/untracked/working-draft`), 201, 'untracked draft'));
      }
      console.log(`  POST untracked/working-draft:       median ${ms(percentile(drafts.map((c) => c.ms), 50))} (${drafts.map((c) => ms(c.ms)).join(', ')}); Redline-Changes ${drafts[0]!.headers['redline-changes']}`);
    }
  } finally {
    await stopBenchService(service);
    rmSync(DATA_DIR, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`bench/untracked failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exitCode = 0; // benchmarks print; they never fail
});
