/**
 * Figures of the review app (issue #5). Prints; never fails.
 *
 *   npx tsx bench/app.ts          (builds dist/ first if it is missing)
 *
 * - time from navigation to the first rendered page of the draft, for the demo contract and
 *   for a 300-page benchmark draft (uploaded through the API);
 * - key-to-next-focus latency, p50/p95 over 50 decisions (`a` on the benchmark draft): from the
 *   key event's timestamp to the focus landing on the next change;
 * - initial JavaScript (gzip) of the sign-in route and of the review route, from dist/'s manifest.
 *
 * Runs its own service on BENCH_PORT (default 8791) with a fresh data directory under .tmp/.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { buildBenchmarkContract } from '../src/docx/fixture';
import { api as apiAt, CHROMIUM_ARGS, signIn as signInAt, signedInPage, type Grant } from './app-session';
import { startBenchService } from './bench-service';

const PORT = Number(process.env.BENCH_PORT ?? 8791);
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = path.resolve('.tmp/bench-app-data');
const DIST = path.resolve('dist');

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? NaN;
}
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;

// ---- bundle sizes ---------------------------------------------------------------------------

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  src?: string;
}

function bundleSizes(): { signIn: number; review: number; reviewWithoutDocx: number; css: number } {
  const manifest = JSON.parse(readFileSync(path.join(DIST, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const closure = (keys: string[], into = new Set<string>()) => {
    for (const key of keys) {
      if (into.has(key) || !manifest[key]) continue;
      into.add(key);
      closure(manifest[key].imports ?? [], into);
    }
    return into;
  };
  const keyOf = (suffix: string) => Object.keys(manifest).find((k) => k.endsWith(suffix));
  const gz = (keys: Set<string>) =>
    [...keys].reduce((sum, k) => sum + gzipSync(readFileSync(path.join(DIST, manifest[k]!.file))).byteLength, 0);
  const entry = Object.keys(manifest).filter((k) => manifest[k]!.isEntry);
  const signIn = closure(entry);
  // The review route: the entry, the signed-in frame, the page, and docx-preview (loaded as soon as the draft arrives).
  const reviewKeys = [keyOf('shell/AppLayout.tsx'), keyOf('review/ReviewPage.tsx')].filter((k): k is string => !!k);
  const reviewNoDocx = closure(reviewKeys, new Set(signIn));
  const docx = keyOf('docx-preview/dist/docx-preview.mjs');
  const review = closure(docx ? [docx] : [], new Set(reviewNoDocx));
  const cssFiles = new Set(entry.flatMap((k) => manifest[k]!.css ?? []));
  const css = [...cssFiles].reduce((sum, f) => sum + gzipSync(readFileSync(path.join(DIST, f))).byteLength, 0);
  return { signIn: gz(signIn), review: gz(review), reviewWithoutDocx: gz(reviewNoDocx), css };
}

// ---- the service ----------------------------------------------------------------------------

const signIn = () => signInAt(BASE);
const api = <T>(grant: Grant, method: string, url: string, body?: FormData) => apiAt<T>(BASE, grant, method, url, body);

// ---- the browser ----------------------------------------------------------------------------

/**
 * ms from navigation start to the first page of the draft on screen (the window around the
 * current change on a long draft, else the whole draft), and to the whole draft laid out.
 * An app without the window marks only the whole draft: then both are the same.
 */
async function timeToFirstPage(page: Page, documentId: string): Promise<{ first: number; full: number; layout: number; pages: number }> {
  await page.goto(`${BASE}/documents/${documentId}`);
  await page.waitForSelector('[data-testid=document-render][data-first-page=true], [data-testid=document-render][data-rendered=true]', { state: 'attached', timeout: 300_000 });
  const first = await page.evaluate(() => performance.now());
  // The bookmark of the current change must be in what is shown (the page is "around the change").
  await page.waitForSelector('.doc-view .rl-here-mark', { state: 'attached', timeout: 300_000 });
  await page.waitForSelector('[data-testid=document-render][data-rendered=true]', { state: 'attached', timeout: 300_000 });
  const full = await page.evaluate(() => performance.now());
  const host = page.locator('[data-testid=document-render]');
  return { first, full, layout: Number(await host.getAttribute('data-layout-ms')), pages: Number(await host.getAttribute('data-pages')) };
}

async function timeToFirstRender(page: Page, documentId: string): Promise<number> {
  return (await timeToFirstPage(page, documentId)).full;
}

async function keyLatencies(page: Page, documentId: string, decisions: number): Promise<number[]> {
  await timeToFirstRender(page, documentId);
  await page.locator('[role=option][aria-current=true]').waitFor();
  await page.evaluate(() => {
    const w = window as unknown as { __lat: number[]; __t0: number | null };
    w.__lat = [];
    w.__t0 = null;
    window.addEventListener('keydown', (e) => { w.__t0 = e.timeStamp; }, { capture: true });
    document.addEventListener('focusin', (e) => {
      if (w.__t0 !== null && (e.target as Element).getAttribute('role') === 'option') {
        w.__lat.push(performance.now() - w.__t0);
        w.__t0 = null;
      }
    });
  });
  for (let i = 0; i < decisions; i++) {
    const before = await page.evaluate(() => (window as unknown as { __lat: number[] }).__lat.length);
    await page.keyboard.press('a');
    await page.waitForFunction((n) => (window as unknown as { __lat: number[] }).__lat.length > n, before, { timeout: 30_000 });
    // A lawyer reads before deciding; a short pause also lets batches go out in between, as in use.
    await page.waitForTimeout(60);
  }
  return page.evaluate(() => (window as unknown as { __lat: number[] }).__lat);
}

async function main(): Promise<void> {
  if (!existsSync(path.join(DIST, '.vite/manifest.json'))) {
    console.log('dist/ has no build: running vite build…');
    spawnSync('npx', ['vite', 'build'], { stdio: 'inherit' });
  }
  const sizes = bundleSizes();
  console.log('Initial JavaScript (gzip, from dist/):');
  console.log(`  sign-in route: ${(sizes.signIn / 1024).toFixed(1)} kB (target <= 120 kB) + CSS ${(sizes.css / 1024).toFixed(1)} kB`);
  console.log(`  review route:  ${(sizes.review / 1024).toFixed(1)} kB (of which docx-preview + jszip ${((sizes.review - sizes.reviewWithoutDocx) / 1024).toFixed(1)} kB)`);

  const service = await startBenchService(PORT, DATA_DIR, { DATABASE_URL: process.env.DATABASE_URL ?? '' });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const grant = await signIn();
    const list = await api<{ items: { id: string; versionKind: string }[] }>(grant, 'GET', '/uploads');
    const demoDraft = list.items.find((r) => r.versionKind === 'working_draft');
    if (!demoDraft) throw new Error('no seeded demo draft');

    const t = performance.now();
    const bytes = buildBenchmarkContract();
    const form = new FormData();
    form.set('purpose', 'source_doc');
    form.set('file', new Blob([new Uint8Array(bytes)]), 'Benchmark 300 pages.docx');
    const original = await api<{ id: string }>(grant, 'POST', '/uploads', form);
    const bigDraft = await api<{ id: string }>(grant, 'POST', `/uploads/${original.id}/working-draft`);
    console.log(`\nBenchmark draft: ${(bytes.byteLength / 1048576).toFixed(1)} MB .docx, uploaded + draft started in ${fmt(performance.now() - t)}`);

    const page = await signedInPage(browser, grant);
    const demo: number[] = [];
    for (let i = 0; i < 3; i++) demo.push((await timeToFirstPage(page, demoDraft.id)).first);
    const big: { first: number; full: number; layout: number; pages: number }[] = [];
    for (let i = 0; i < 3; i++) big.push(await timeToFirstPage(page, bigDraft.id));
    const firsts = big.map((b) => b.first);
    const fulls = big.map((b) => b.full);
    console.log('\nNavigation to the first page on screen (median of runs; the first 300-page run includes the service analysing the draft):');
    console.log(`  demo contract:                      ${fmt(percentile(demo, 50))}  (runs: ${demo.map(fmt).join(', ')})`);
    console.log(`  300-page draft, first page:         ${fmt(percentile(firsts, 50))}  (runs: ${firsts.map(fmt).join(', ')}) (target <= 1.5 s)`);
    console.log(`  300-page draft, whole draft laid out: ${fmt(percentile(fulls, 50))}  (runs: ${fulls.map(fmt).join(', ')})`);
    console.log(`  of which the page layout pass:      ${fmt(percentile(big.map((b) => b.layout), 50))} for ${big[0]?.pages ?? '?'} pages (runs: ${big.map((b) => fmt(b.layout)).join(', ')})`);

    const decisions = Number(process.env.BENCH_APP_DECISIONS ?? 50);
    const lat = await keyLatencies(page, bigDraft.id, decisions);
    console.log(`\nKey to next focus, ${decisions} decisions with "a" on the 300-page draft (batches posted and reconciled meanwhile):`);
    console.log(`  p50 ${lat.length ? percentile(lat, 50).toFixed(1) : '?'} ms, p95 ${lat.length ? percentile(lat, 95).toFixed(1) : '?'} ms, max ${Math.max(...lat).toFixed(1)} ms (target < 100 ms)`);
    const demoPage = await signedInPage(browser, grant);
    const latDemo = await keyLatencies(demoPage, demoDraft.id, 40);
    console.log(`  demo contract, 40 decisions: p50 ${percentile(latDemo, 50).toFixed(1)} ms, p95 ${percentile(latDemo, 95).toFixed(1)} ms`);
  } catch (error) {
    console.log(`\nbench/app.ts could not finish: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await browser.close();
    service.kill('SIGTERM');
  }
}

void main();
