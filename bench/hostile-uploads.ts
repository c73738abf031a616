/**
 * Does one small, laborious upload stall everyone? (issue 21 item 3). Does one regular expression
 * (issue 31 item 1), or one batch of anchored edits (issue 31 item 2)? Prints figures; never fails.
 *
 *   npm run bench:hostile            # HOSTILE_UPLOADS (default 4) uploads of HOSTILE_XML_MB (default 30) MB of XML
 *   HOSTILE_CASES=edits npm run bench:hostile    # only the edit batches (issue 31 item 2)
 *   HOSTILE_CASES=regex npm run bench:hostile    # only the searches (issue 31 item 1); =uploads: only the uploads
 *
 * The real service runs as a child process (PGlite). Each upload is a .docx of about 123 KB whose
 * document.xml is 30 MB of ordinary paragraphs: under the size, entry and ratio caps. They are
 * sent at once while `/api/health/live` is asked every ~20 ms (one request after the other) and
 * `/api/health/ready` every ~100 ms; the figures are those requests' latencies. Two rounds:
 * with the service's default caps, then with the work caps raised out of reach
 * (DOCX_MAX_MAIN_PART_BYTES, DOCX_MAX_PARAGRAPHS), so every upload is parsed in full.
 * Target: `/api/health/live` answers within 100 ms, worst case. The same probe on the idle
 * service for 3 s first says what the machine adds on its own.
 *
 * Edit batches (issue 31 item 2): one POST /documents/{id}/redlines of 100, then of 500 (the
 * schema's maximum) anchored `replace` edits, spread through a working draft of the 9,000-paragraph
 * benchmark contract (200 pages), each batch on a fresh draft, while `/api/health/live` is asked
 * every ~20 ms. Printed: the batch's answer time, the engine's share (Server-Timing `redline`),
 * health's answers during it (and the 750 ms after, when the track's projection is stored), and the
 * service's main-thread CPU time while each answer waited (/proc schedstat: the service's own work,
 * apart from what the machine's other processes took). Target: 500 edits in under 1 s of engine time, live within 100 ms.
 *
 * The searches: the issue's regular expressions that backtracked on JavaScript's RegExp, each on
 * a one-paragraph draft of the length the review measured (`.*.*.*=` on 400 letters: 9.5 s), one
 * after the other while `/api/health/live` is asked every ~20 ms; then one whose listing of
 * matches is quadratic even on RE2 (`x+? |x` on 20,000 x's), which the search's time limit ends.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DocumentText, ParagraphBlock } from '../src/contract/reading';
import { openDocx, type RedlineEdit } from '../src/docx';
import { buildBenchmarkContract, buildDocx, p } from '../src/docx/fixture';
import { DEMO_EMAIL } from '../src/service/seed';
import { signInOverHttp, startChildService, type ChildService } from '../test/reliability/child-service';
import { bulkParagraphs } from '../test/reliability/hostile-docx';
import { plainBodyParagraphs, spreadReplaceEdits } from '../test/support/redline-batches';
import { ServiceClient } from '../test/reliability/service-client';
import { ensurePgliteTemplate } from '../test/support/test-database';

const UPLOADS = Number(process.env.HOSTILE_UPLOADS ?? 4);
const XML_MB = Number(process.env.HOSTILE_XML_MB ?? 30);
const LIVE_EVERY_MS = 20;
const READY_EVERY_MS = 100;
const IDLE_MS = 3000;
const UNCAPPED = { DOCX_MAX_MAIN_PART_BYTES: String(2 ** 30), DOCX_MAX_PARAGRAPHS: String(10 ** 8) };

interface Probe {
  latencies: number[];
  /** CPU time the service's main thread spent while each answer waited (ms), when its pid was given. */
  mainThreadCpu: number[];
  failures: number;
}

/**
 * CPU time the main thread of process `pid` has spent (ms): /proc/<pid>/task/<pid>/schedstat, in
 * nanoseconds. While an answer waits, the thread's CPU time says how much of the wait was the
 * service's own work holding it, and how much the machine's other processes (a loaded machine).
 */
function mainThreadCpuMs(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return NaN;
  }
}

/** Asks `route` again `everyMs` after each answer until `stop` says so; records each answer's latency (and the service's main-thread CPU time meanwhile, given `pid`). */
async function probe(url: string, route: string, everyMs: number, stop: () => boolean, pid?: number): Promise<Probe> {
  const result: Probe = { latencies: [], mainThreadCpu: [], failures: 0 };
  while (!stop()) {
    const cpuBefore = pid === undefined ? NaN : mainThreadCpuMs(pid);
    const sent = performance.now();
    try {
      const res = await fetch(`${url}${route}`, { signal: AbortSignal.timeout(30_000) });
      await res.arrayBuffer();
      if (!res.ok) result.failures++;
    } catch {
      result.failures++;
    }
    result.latencies.push(performance.now() - sent);
    if (pid !== undefined) result.mainThreadCpu.push(mainThreadCpuMs(pid) - cpuBefore);
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return result;
}

function quantile(sorted: number[], q: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function describe(p: Probe): string {
  const s = [...p.latencies].sort((a, b) => a - b);
  return `${s.length} requests, p50 ${quantile(s, 0.5).toFixed(1)} ms, p95 ${quantile(s, 0.95).toFixed(1)} ms, `
    + `worst ${(s[s.length - 1] ?? NaN).toFixed(1)} ms, ${p.failures} failed`;
}

/** The service's main-thread CPU time while each answer waited: how much of health's wait was the service's own work. */
function describeMainThread(p: Probe): string {
  const s = [...p.mainThreadCpu].sort((a, b) => a - b);
  return `p50 ${quantile(s, 0.5).toFixed(1)} ms, p95 ${quantile(s, 0.95).toFixed(1)} ms, worst ${(s[s.length - 1] ?? NaN).toFixed(1)} ms`;
}

async function round(label: string, env: Record<string, string>, docx: Uint8Array): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'redline-bench-hostile-'));
  let service: ChildService | null = null;
  try {
    cpSync(await ensurePgliteTemplate(), path.join(dataDir, 'db'), { recursive: true });
    service = await startChildService({ dataDir, seedDemo: true, env });
    const child = service;
    const client = new ServiceClient(child.url, await signInOverHttp(child.url, DEMO_EMAIL));
    // A first small upload, so the service has loaded everything an upload needs.
    await client.upload('warm.docx', bulkParagraphs(64 * 1024));
    // The same probes with nothing else to do: what the machine itself adds (other processes on its cores).
    let idleDone = false;
    const idle = probe(child.url, '/api/health/live', LIVE_EVERY_MS, () => idleDone);
    await new Promise((r) => setTimeout(r, IDLE_MS));
    idleDone = true;
    const idleProbe = await idle;
    let done = false;
    let peakRss = child.rssBytes();
    const rss = setInterval(() => { peakRss = Math.max(peakRss, child.rssBytes()); }, 50);
    const live = probe(child.url, '/api/health/live', LIVE_EVERY_MS, () => done);
    const ready = probe(child.url, '/api/health/ready', READY_EVERY_MS, () => done);
    await new Promise((r) => setTimeout(r, 200));
    const began = performance.now();
    const answers = await Promise.all(Array.from({ length: UPLOADS }, async (_, i) => {
      const sent = performance.now();
      const answer = await client.upload(`hostile-${i}.docx`, docx, undefined, 120_000).catch((e: unknown) => ({ status: 0, body: String(e) }));
      return { status: answer.status, ms: performance.now() - sent, code: (answer.body as { code?: string } | null)?.code };
    }));
    const wall = performance.now() - began;
    await new Promise((r) => setTimeout(r, 200));
    done = true;
    const [liveProbe, readyProbe] = await Promise.all([live, ready]);
    clearInterval(rss);
    console.log(`\n${label}`);
    console.log(`  uploads: ${answers.map((a) => `${a.status}${a.code ? ` ${a.code}` : ''} in ${(a.ms / 1000).toFixed(2)} s`).join(', ')}; all answered in ${(wall / 1000).toFixed(2)} s`);
    console.log(`  /api/health/live:  ${describe(liveProbe)}`);
    console.log(`  /api/health/live, idle service before the uploads: ${describe(idleProbe)}`);
    console.log(`  /api/health/ready: ${describe(readyProbe)}`);
    console.log(`  peak RSS of the service: ${(peakRss / 2 ** 20).toFixed(0)} MB`);
  } finally {
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const EDIT_BATCHES = [100, 500];
const EDIT_DRAFT_PAGES = 200;

/** Every unchanged body paragraph of a draft (id, version, text), read page by page over HTTP. */
async function plainParagraphs(client: ServiceClient, draftId: string): Promise<ParagraphBlock[]> {
  const out: ParagraphBlock[] = [];
  let cursor: string | null = null;
  do {
    const page: { status: number; body: unknown } = await client.call('GET', `/uploads/${draftId}/text?view=markup&limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    if (page.status !== 200) throw new Error(`text answered ${page.status}: ${JSON.stringify(page.body)}`);
    const text = page.body as DocumentText;
    out.push(...plainBodyParagraphs(text.blocks));
    cursor = text.nextCursor;
  } while (cursor);
  return out;
}

/** The batch written by the engine in this process on the draft's stored bytes, opened first (not timed): the edits' own time, twice (cold, then warm). */
function engineAlone(docx: Uint8Array, edits: object[]): string {
  return [0, 1].map(() => {
    const doc = openDocx(docx);
    const began = performance.now();
    doc.writeRedlines(edits as RedlineEdit[], { author: 'Bench', date: '2026-01-01T00:00:00Z' });
    return `${(performance.now() - began).toFixed(0)} ms`;
  }).join(', then ');
}

async function editBatches(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'redline-bench-hostile-edits-'));
  let service: ChildService | null = null;
  try {
    cpSync(await ensurePgliteTemplate(), path.join(dataDir, 'db'), { recursive: true });
    service = await startChildService({ dataDir, seedDemo: true });
    const child = service;
    const client = new ServiceClient(child.url, await signInOverHttp(child.url, DEMO_EMAIL));
    const docx = buildBenchmarkContract({ pages: EDIT_DRAFT_PAGES });
    const uploaded = await client.upload('bench-9000.docx', docx, undefined, 120_000);
    if (uploaded.status !== 201) throw new Error(`upload answered ${uploaded.status}: ${JSON.stringify(uploaded.body)}`);
    const sourceId = (uploaded.body as { id: string }).id;
    console.log(`\nedit batches on working drafts of the ${EDIT_DRAFT_PAGES}-page benchmark contract (${(docx.byteLength / 1e6).toFixed(1)} MB .docx, about ${EDIT_DRAFT_PAGES * 45} paragraphs)`);
    for (const count of EDIT_BATCHES) {
      const draft = await client.call('POST', `/uploads/${sourceId}/working-draft`);
      if (draft.status !== 201) throw new Error(`working-draft answered ${draft.status}`);
      const draftId = (draft.body as { id: string }).id;
      const edits = spreadReplaceEdits(await plainParagraphs(client, draftId), count);
      const stored = new Uint8Array(await (await fetch(`${child.url}/api/uploads/${draftId}/content`, { headers: client.headers() })).arrayBuffer());
      // The draft read once (review), as a reviewer's page does before its first batch.
      await client.review(draftId);
      let done = false;
      const live = probe(child.url, '/api/health/live', LIVE_EVERY_MS, () => done, child.pid);
      await new Promise((r) => setTimeout(r, 200));
      const sent = performance.now();
      const res = await fetch(`${child.url}/api/documents/${draftId}/redlines`, {
        method: 'POST', headers: client.headers({ 'content-type': 'application/json' }), body: JSON.stringify({ edits }), signal: AbortSignal.timeout(600_000),
      });
      const body = await res.text();
      const ms = performance.now() - sent;
      // The track's projection is stored once the draft has been quiet for 250 ms: probed too.
      await new Promise((r) => setTimeout(r, 750));
      done = true;
      const liveProbe = await live;
      const timing = res.headers.get('server-timing') ?? '';
      const engine = /(?:^|,\s*)redline;dur=([\d.]+)/.exec(timing)?.[1];
      console.log(`  ${count} anchored replace edits: ${res.status}${res.ok ? '' : ` ${body.slice(0, 200)}`} in ${(ms / 1000).toFixed(2)} s; redline ${engine ?? '?'} ms`);
      console.log(`    the engine alone, in this process: ${engineAlone(stored, edits)}`);
      console.log(`    Server-Timing: ${timing}`);
      console.log(`    /api/health/live during the batch: ${describe(liveProbe)}`);
      console.log(`      the service's main-thread CPU time while each answer waited: ${describeMainThread(liveProbe)} (load ${os.loadavg()[0]!.toFixed(2)})`);
    }
  } finally {
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Each pattern with the paragraph it is searched in (issue 31: 9.5 s, 1.8 s, 2.2 s on the old search). */
const HOSTILE_SEARCHES: [pattern: string, text: string][] = [
  ['.*.*.*=', 'a'.repeat(400)],
  ['a*a*a*a*a*a*b', 'a'.repeat(45)],
  ['\\S*\\S*\\S*\\S*\\S*\\S*z', 'a'.repeat(45)],
  ['.{0,50}.{0,50}.{0,50}!', 'a'.repeat(400)],
  ['(ab?)+$', `${'ab'.repeat(200)}a`],
  ['x+? |x', 'x'.repeat(20_000)],
];

async function searchRound(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'redline-bench-hostile-'));
  let service: ChildService | null = null;
  try {
    cpSync(await ensurePgliteTemplate(), path.join(dataDir, 'db'), { recursive: true });
    service = await startChildService({ dataDir, seedDemo: true });
    const child = service;
    const client = new ServiceClient(child.url, await signInOverHttp(child.url, DEMO_EMAIL));
    const drafts: string[] = [];
    for (const [, text] of HOSTILE_SEARCHES) {
      const draft = await client.newDraft('letters.docx', buildDocx({ body: [p(text)] }));
      // The first reading is another case (bench/reading.ts): only the search is measured here.
      await client.call('GET', `/uploads/${draft.id}/text`);
      drafts.push(draft.id);
    }
    let idleDone = false;
    const idle = probe(child.url, '/api/health/live', LIVE_EVERY_MS, () => idleDone);
    await new Promise((r) => setTimeout(r, IDLE_MS));
    idleDone = true;
    const idleProbe = await idle;
    console.log('\nregular-expression searches, one after the other');
    let done = false;
    const live = probe(child.url, '/api/health/live', LIVE_EVERY_MS, () => done);
    await new Promise((r) => setTimeout(r, 200));
    for (const [i, [pattern, text]] of HOSTILE_SEARCHES.entries()) {
      const sent = performance.now();
      const answer = await client.call('GET', `/uploads/${drafts[i]}/search?regex=true&q=${encodeURIComponent(pattern)}`, undefined, 600_000)
        .catch((e: unknown) => ({ status: 0, body: String(e) }));
      const code = (answer.body as { code?: string } | null)?.code;
      console.log(`  ${pattern.padEnd(24)} on ${String(text.length).padStart(6)} characters: ${answer.status}${code ? ` ${code}` : ''} in ${(performance.now() - sent).toFixed(0)} ms`);
    }
    await new Promise((r) => setTimeout(r, 200));
    done = true;
    console.log(`  /api/health/live during the searches: ${describe(await live)}`);
    console.log(`  /api/health/live, idle service before: ${describe(idleProbe)}`);
  } finally {
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const cases = process.env.HOSTILE_CASES ?? 'uploads,edits,regex';
  console.log(`load average: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  if (cases.includes('uploads')) await uploadRounds();
  if (cases.includes('edits')) await editBatches();
  if (cases.includes('regex')) await searchRound();
}

async function uploadRounds(): Promise<void> {
  const docx = bulkParagraphs(XML_MB * 2 ** 20);
  console.log(`${UPLOADS} concurrent uploads of a ${(docx.byteLength / 1024).toFixed(0)} KB .docx holding ${XML_MB} MB of paragraphs; `
    + `live asked every ${LIVE_EVERY_MS} ms, ready every ${READY_EVERY_MS} ms (target: live within 100 ms, worst case)`);
  await round('default caps', {}, docx);
  await round('work caps raised (every upload parsed in full)', UNCAPPED, docx);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
