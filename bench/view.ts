/**
 * How fast the review page shows a long draft in pages (issue #23.5). Prints; never fails.
 *
 *   npx vite build && npm run bench:view
 *   BENCH_VIEW_PAGES=100,200 BENCH_VIEW_RUNS=3 STATIC_DIR=.tmp/dist-main npx tsx bench/view.ts   (another build)
 *
 * For each generated benchmark contract (`buildBenchmarkContract({ pages })`: 100 pages =
 * 4,591 paragraphs, 200 = 9,196), in Chromium at 1440x900, from navigation start, as a lawyer
 * opens a link: cold (a new browser context each time: nothing cached, the bundle fetched and
 * compiled afresh) and warm (the same tab opening it again: the bundle from the HTTP cache):
 * - the current change highlighted (`.rl-here` on the page);
 * - the whole draft laid out (`data-rendered="true"`) and its number of pages;
 * - the longest main-thread task meanwhile (a key pressed then waits up to that long), and the
 *   renderer's main-thread busy time until laid out (CDP TaskDuration: less sensitive to load);
 * - the requests meanwhile (cold, first run): when each started and ended, so what waits on what shows;
 * - the layout's result: its number of pages and a digest of each page's first line (the same
 *   before and after a change that must not move a break);
 * - `j` to the next change highlighted, p50/p95 over BENCH_VIEW_KEYS presses once laid out:
 *   from the key event's timestamp to the frame after `.rl-here` moved.
 * The load average is printed beside the figures: the machine is shared.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import { buildBenchmarkContract } from '../src/docx/fixture';
import { CHROMIUM_ARGS, signIn, signedInPage, uploadDraft, type Grant } from './app-session';
import { startBenchService, stopBenchService } from './bench-service';

const PORT = Number(process.env.BENCH_PORT ?? 8793);
const BASE = `http://127.0.0.1:${PORT}`;
const SIZES = (process.env.BENCH_VIEW_PAGES ?? '100,200').split(',').map(Number);
const RUNS = Number(process.env.BENCH_VIEW_RUNS ?? 3);
const KEYS = Number(process.env.BENCH_VIEW_KEYS ?? 40);

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? NaN;
}
const ms = (v: number) => `${Math.round(v)} ms`;

/** Installed before the app: when `.rl-here` first appears, and the main thread's long tasks. */
function watch(): void {
  const w = window as unknown as { __here: number | null; __long: number[]; __laid: number | null };
  w.__here = null;
  w.__laid = null;
  w.__long = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__long.push(e.duration);
  }).observe({ type: 'longtask', buffered: true });
  new MutationObserver((records) => {
    for (const r of records) {
      const el = r.target as HTMLElement;
      if (w.__here === null && el.classList?.contains('rl-here')) w.__here = performance.now();
      if (w.__laid === null && el.dataset?.rendered === 'true' && el.dataset.testid === 'document-render') w.__laid = performance.now();
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['class', 'data-rendered'] });
}

interface Opening {
  here: number;
  laid: number;
  pages: number;
  /** sha256 of every page's first line, in order: the layout's breaks. */
  breaks: string;
  longest: number;
  busy: number;
  /** The requests until laid out: path, start and end (ms from navigation), bytes on the wire. */
  requests: { name: string; start: number; end: number; bytes: number }[];
}

async function taskSeconds(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  return metrics.find((m) => m.name === 'TaskDuration')?.value ?? NaN;
}

async function open(page: Page, id: string): Promise<Opening> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const busyBefore = await taskSeconds(cdp);
  await page.goto(`${BASE}/documents/${id}`);
  await page.waitForSelector('[data-testid=document-render][data-rendered=true]', { state: 'attached', timeout: 300_000 });
  const busy = (await taskSeconds(cdp)) - busyBefore;
  await cdp.detach();
  await page.waitForFunction(() => (window as unknown as { __here: number | null }).__here !== null, null, { timeout: 60_000 });
  const seen = await page.evaluate(() => {
    const w = window as unknown as { __here: number; __long: number[]; __laid: number };
    const pageEls = [...document.querySelectorAll<HTMLElement>('[data-testid=document-render] [data-page-number]')];
    // A page's first line: the start of its body's text (its articles), spaces folded.
    const firstLines = pageEls.map((p) => [...p.querySelectorAll('article')].map((a) => a.textContent ?? '').join(' ').replace(/\s+/g, ' ').trim().slice(0, 80));
    const requests = performance.getEntriesByType('resource').map((e) => {
      const r = e as PerformanceResourceTiming;
      return { name: new URL(r.name).pathname, start: r.startTime, end: r.responseEnd, bytes: r.transferSize };
    });
    return { here: w.__here, laid: w.__laid, pages: pageEls.length, firstLines, longest: Math.max(0, ...w.__long), requests };
  });
  const { firstLines, ...rest } = seen;
  return { ...rest, breaks: createHash('sha256').update(firstLines.join('\n')).digest('hex').slice(0, 16), busy: busy * 1000 };
}

/** `j` presses once laid out: key event to the frame after the highlight moved. */
async function nextChange(page: Page, presses: number): Promise<number[]> {
  await page.locator('[role=option][aria-current=true]').waitFor();
  await page.evaluate(() => {
    const w = window as unknown as { __j: number[]; __t0: number | null };
    w.__j = [];
    w.__t0 = null;
    window.addEventListener('keydown', (e) => (w.__t0 = e.timeStamp), { capture: true });
    new MutationObserver((records) => {
      if (w.__t0 === null) return;
      if (!records.some((r) => (r.target as Element).classList.contains('rl-here'))) return;
      const t0 = w.__t0;
      w.__t0 = null;
      requestAnimationFrame(() => setTimeout(() => w.__j.push(performance.now() - t0)));
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['class'] });
  });
  for (let i = 0; i < presses; i++) {
    const before = await page.evaluate(() => (window as unknown as { __j: number[] }).__j.length);
    await page.keyboard.press('j');
    await page.waitForFunction((n) => (window as unknown as { __j: number[] }).__j.length > n, before, { timeout: 30_000 }).catch(() => undefined);
    await page.waitForTimeout(80);
  }
  return page.evaluate(() => (window as unknown as { __j: number[] }).__j);
}

/** Opens the draft in a new browser context (nothing cached), measured; the context is closed after. */
async function openCold(browser: Browser, grant: Grant, id: string): Promise<Opening> {
  const page = await signedInPage(browser, grant);
  await page.addInitScript(watch);
  try {
    return await open(page, id);
  } finally {
    await page.context().close();
  }
}

function report(label: string, runs: (Opening & { load: string })[]): void {
  const med = (f: (o: Opening) => number) => ms(percentile(runs.map(f), 50));
  const each = (f: (o: Opening) => number) => runs.map((o) => ms(f(o))).join(', ');
  console.log(`  ${label}, median of ${runs.length}:`);
  console.log(`    current change highlighted:  ${med((o) => o.here)}  (runs: ${each((o) => o.here)})`);
  console.log(`    whole draft laid out:        ${med((o) => o.laid)}  (runs: ${each((o) => o.laid)})`);
  console.log(`    longest main-thread task:    ${med((o) => o.longest)}  (runs: ${each((o) => o.longest)})`);
  console.log(`    main thread busy until laid out: ${med((o) => o.busy)}  (runs: ${each((o) => o.busy)})`);
  console.log(`    pages ${[...new Set(runs.map((o) => o.pages))].join('/')}, first lines ${[...new Set(runs.map((o) => o.breaks))].join('/')}`);
  console.log(`    load average during runs:    ${runs.map((o) => o.load).join(' | ')}`);
}

/** The requests of one opening, in the order they started: what waited on what. */
function waterfall(o: Opening): void {
  console.log('  requests of the first cold opening (ms from navigation: start-end, bytes on the wire):');
  console.log(`    ${'document'.padEnd(44)} 0-?`);
  for (const r of [...o.requests].sort((a, b) => a.start - b.start)) {
    console.log(`    ${r.name.replace(/\/documents\/[^/]+/, '/documents/:id').slice(0, 44).padEnd(44)} ${Math.round(r.start)}-${Math.round(r.end)}  ${r.bytes}`);
  }
}

async function main(): Promise<void> {
  console.log(`build: ${process.env.STATIC_DIR ?? 'dist'}; load average at start ${loadavg()}`);
  const service = await startBenchService(PORT, path.resolve('.tmp/bench-view-data'), { DATABASE_URL: process.env.DATABASE_URL ?? '', ...(process.env.STATIC_DIR ? { STATIC_DIR: process.env.STATIC_DIR } : {}) });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const grant = await signIn(BASE);
    for (const pages of SIZES) {
      const id = await uploadDraft(BASE, grant, buildBenchmarkContract({ pages }), `Benchmark ${pages} pages.docx`);
      // A first opening warms the service's analysis of the draft; not counted.
      await openCold(browser, grant, id);
      const cold: (Opening & { load: string })[] = [];
      for (let i = 0; i < RUNS; i++) cold.push({ ...(await openCold(browser, grant, id)), load: loadavg() });
      // Warm: the same tab opens it again (its first opening fills the cache; not counted).
      const page = await signedInPage(browser, grant);
      await page.addInitScript(watch);
      await open(page, id);
      const warm: (Opening & { load: string })[] = [];
      for (let i = 0; i < RUNS; i++) warm.push({ ...(await open(page, id)), load: loadavg() });
      const keys = await nextChange(page, KEYS);
      console.log(`\nbenchmark contract, ${pages} pages option (${cold[0]?.pages} laid-out pages):`);
      report('cold (new browser context)', cold);
      report('warm (same tab again)', warm);
      if (cold[0]) waterfall(cold[0]);
      console.log(`  j to next change highlighted (${keys.length} of ${KEYS}): p50 ${ms(percentile(keys, 50))}, p95 ${ms(percentile(keys, 95))}, max ${ms(Math.max(...keys))}; load ${loadavg()}`);
      await page.context().close();
    }
  } catch (error) {
    console.log(`\nbench/view.ts could not finish: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await browser.close();
    await stopBenchService(service);
  }
}

void main();
