/**
 * The untracked-edit check and the compare route over HTTP on the 300-page benchmark contract
 * (issue 12, items 2 and 4). Prints figures; never fails.
 *
 *   npx tsx bench/untracked.ts        (BENCH_RUNS, default 5; BENCH_DRAFTS=0 skips the draft routes;
 *                                      BENCH_PAGES, default 300: 600 is issue 22's 9,000-paragraph pair)
 *
 * For each pair, BENCH_RUNS times: a new version of the 300-page contract is uploaded
 * (POST /uploads/{id}/versions), and two clients ask for its untracked report the moment the
 * upload is answered:
 * - a waiting client (GET, the service's default wait for a running check): answered the moment
 *   the check is stored, so its answer time is when the check was stored (plus one read); against
 *   a service that does not wait, it asks every 25 ms, to the same effect;
 * - a client that does not wait (Prefer: wait=0) and asks again after Retry-After, as a client of
 *   a polling interface would.
 * All times are counted from the upload's request (target: stored within 2 s; the upload's answer
 * never waits for it). The waiting client's Server-Timing gives where the check's time went, from
 * the version's commit to its result stored (see CheckPhases in src/service/compare/untracked-checks.ts).
 * Beside it, the same comparison in this process, its CPU split: unzip and parse of both
 * packages, both rejected views, and the comparison with its redline written.
 * Two pairs: "light", the version with a few untracked word edits (the usual case); "heavy", a
 * version whose every one of the 3,000 revision elements differs from the previous (accepted-all) version.
 * Then POST /uploads/{id}/compare (the accepted view) and the untracked working draft.
 *
 * Runs one service process on BENCH_PORT (default 8840) with a fresh data directory under .tmp/.
 */
import { rmSync } from 'node:fs';
import http from 'node:http';
import { loadavg } from 'node:os';
import { cpuUsage } from 'node:process';
import path from 'node:path';
import { applyDecisions, compareDocx, listRevisions } from '../src/docx';
import { DocxPackage } from '../src/docx/package/package';
import { applyToScans } from '../src/docx/revisions/apply';
import { groupChanges } from '../src/docx/revisions/changes';
import { assignUniqueIds } from '../src/docx/revisions/ids';
import { scanPart } from '../src/docx/revisions/sites';
import { nativeZipCodec } from '../src/service/engine/native-zip-codec';
import { buildBenchmarkContract } from '../src/docx/fixture';
import { docxForm, expectStatus, json, ms, percentile, request, signIn, type Timed } from './bench-http';
import { startBenchService, stopBenchService } from './bench-service';
import { withUntrackedEdits } from './untracked-edits';

const PORT = Number(process.env.BENCH_PORT ?? 8840);
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = path.resolve('.tmp/bench-untracked-data');
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
const DRAFTS = process.env.BENCH_DRAFTS !== '0';
const PAGES = Math.max(1, Number(process.env.BENCH_PAGES ?? 300));
const PHASES = ['schedule', 'claim', 'rows', 'read', 'queue', 'engine', 'reply', 'store', 'total'] as const;



const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
const summary = (xs: readonly number[]) => `min ${ms(Math.min(...xs))}, median ${ms(percentile(xs, 50))} (${xs.map(ms).join(', ')})`;

/** The phases of a Server-Timing header, by name. */
function serverTiming(answer: Timed): Map<string, number> {
  const header = String(answer.headers['server-timing'] ?? '');
  return new Map([...header.matchAll(/([\w-]+);dur=([\d.]+)/g)].map((m) => [m[1]!, Number(m[2])]));
}

/** CPU ms of `work` in this process. */
function cpu(work: () => void): number {
  const before = cpuUsage();
  work();
  const spent = cpuUsage(before);
  return (spent.user + spent.system) / 1000;
}

/**
 * The engine's share, split as compareDocx does its work (src/docx/compare/compare.ts): both
 * packages unzipped and every story parsed; both views rejected (every tracked change decided);
 * the rest of compareDocx (the comparison and its listing; the check writes no redline) as its total less those. CPU ms,
 * the minimum of `runs` (this machine is shared: the minimum is the least disturbed).
 */
function engineSplit(older: Uint8Array, newer: Uint8Array, runs: number): { parse: number; reject: number; compare: number; total: number } {
  const open = { codec: nativeZipCodec };
  const parse = (bytes: Uint8Array) => {
    const pkg = DocxPackage.open(bytes, open);
    pkg.stories();
    return pkg;
  };
  const reject = (pkg: DocxPackage) => {
    const scans = pkg.stories().map(({ part, doc }) => scanPart(part.name, part.role, doc));
    assignUniqueIds(scans);
    const ids = groupChanges(scans).map((c) => c.changeId);
    applyToScans(scans, groupChanges(scans), { accept: [], reject: ids });
  };
  const out = { parse: Infinity, reject: Infinity, total: Infinity };
  for (let run = 0; run < runs; run++) {
    let pkgs: DocxPackage[] = [];
    out.parse = Math.min(out.parse, cpu(() => { pkgs = [parse(older), parse(newer)]; }));
    out.reject = Math.min(out.reject, cpu(() => pkgs.forEach(reject)));
    // As the service runs the check (untracked-checks.ts): rejected views, the differences only.
    out.total = Math.min(out.total, cpu(() => compareDocx(older, newer, { view: 'rejected', listOnly: true, open })));
  }
  return { ...out, compare: out.total - out.parse - out.reject };
}

async function main(): Promise<void> {
  const v1 = buildBenchmarkContract({ pages: PAGES });
  const light = withUntrackedEdits(v1, 5);
  const accepted = applyDecisions(v1, { accept: listRevisions(v1).map((r) => r.change_id), reject: [] });
  console.log(`${PAGES}-page contract: ${(v1.byteLength / 1e6).toFixed(1)} MB .docx; service on ${BASE} (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${process.env.BLOB_STORE ?? 'disk'} blobs)`);
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
      console.log(`\n${label}; load average before ${load()}`);
      const base = json<{ id: string }>(expectStatus(await upload('/api/uploads', previous, 'Framework.docx'), 201, 'upload'));
      const answers: number[] = [];
      const seenWaiting: number[] = [];
      const seenPolling: number[] = [];
      const phases = new Map<string, number[]>();
      let count = 0;
      let versionId = '';
      let waits = 0;
      for (let run = 0; run < RUNS; run++) {
        const started = performance.now();
        const added = expectStatus(await upload(`/api/uploads/${base.id}/versions`, next, 'Framework (their turn).docx'), 201, 'version');
        answers.push(added.ms);
        versionId = json<{ id: string }>(added).id;
        const url = `/api/uploads/${versionId}/untracked`;
        const waiting = (async () => {
          for (;;) {
            const answer = await call('GET', url);
            if (answer.status === 200) return { at: performance.now() - started, answer };
            expectStatus(answer, 202, 'untracked');
            // A service that answered at once did not wait (one before GET waited): poll every 25 ms instead.
            if (answer.ms < 50) await new Promise((r) => setTimeout(r, 25));
            else waits++;
          }
        })();
        const polling = (async () => {
          for (;;) {
            const answer = await call('GET', url, undefined, { prefer: 'wait=0' });
            if (answer.status === 200) return performance.now() - started;
            expectStatus(answer, 202, 'untracked');
            await new Promise((r) => setTimeout(r, Number(answer.headers['retry-after']) * 1000));
          }
        })();
        const [seen, polled] = await Promise.all([waiting, polling]);
        seenWaiting.push(seen.at);
        seenPolling.push(polled);
        count = json<{ count: number }>(seen.answer).count;
        const timing = serverTiming(seen.answer);
        for (const name of PHASES) phases.set(name, [...(phases.get(name) ?? []), timing.get(`check-${name}`) ?? NaN]);
        // What the service's phases do not hold: the upload's answer on its way back, the check's
        // start to its commit (the answer written first), and the waiting GET's own reads and answer.
        const outside = seen.at - added.ms - ((timing.get('check-total') ?? NaN) - (timing.get('check-schedule') ?? NaN));
        phases.set('outside', [...(phases.get('outside') ?? []), outside]);
      }
      console.log(`  version upload answered:                  ${summary(answers)}`);
      console.log(`  check stored, seen by a waiting GET:      ${summary(seenWaiting)}; target <= 2000 ms; ${count} untracked changes found${waits ? `; ${waits} waits ran out (202)` : ''}`);
      console.log(`  seen by a client polling per Retry-After: ${summary(seenPolling)} (asks with Prefer: wait=0, then after Retry-After: 1 s)`);
      console.log('  where the check\'s time went (service side, from the version\'s commit, ms; each run, then the median):');
      for (let run = 0; run < RUNS; run++) console.log(`    run ${run + 1}: ${PHASES.map((name) => `${name} ${phases.get(name)![run]!.toFixed(0)}`).join(' | ')}`);
      console.log(`    median: ${PHASES.map((name) => `${name} ${percentile(phases.get(name)!, 50).toFixed(0)}`).join(' | ')}`);
      console.log(`    and outside them (the answers on their way, the waiting GET's reads): median ${ms(percentile(phases.get('outside')!, 50))}`);
      console.log(`  load average after ${load()}`);
      // The engine's share: the same comparison alone, in this process, right after (same machine load).
      const split = engineSplit(previous, next, RUNS);
      console.log(`  the same comparison in this process, CPU (min of ${RUNS}): ${ms(split.total)} = unzip+parse both ${ms(split.parse)} + rejected views ${ms(split.reject)} + compare and list ${ms(split.compare)}; load average ${load()}`);

      if (!DRAFTS) continue;
      const compares = [];
      for (let run = 0; run < RUNS; run++) {
        const compared = await call('POST', `/api/uploads/${versionId}/compare`, { against: base.id });
        // Identical views answer 200 and make no draft; differences, 201 and a draft.
        compares.push(expectStatus(compared, compared.status === 200 ? 200 : 201, 'compare'));
      }
      const found = compares[0]!.status === 200 ? 'identical (200, no draft)' : `Redline-Changes ${compares[0]!.headers['redline-changes']}`;
      console.log(`  POST compare (accepted view):       median ${ms(percentile(compares.map((c) => c.ms), 50))} (${compares.map((c) => ms(c.ms)).join(', ')}); ${found}; Server-Timing ${compares[0]!.headers['server-timing']}`);
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
