/**
 * Page counts of the review app's layout against LibreOffice's and Word's (issues #23, #33). Prints; never fails.
 *
 *   npm run bench:pages                      (builds dist/ first if it is missing)
 *   BENCH_PAGES_LONG=1 npm run bench:pages   also the 4,500-paragraph benchmark contract
 *   BENCH_PAGES_ONLY=<substring>             only the files whose name holds it
 *   BENCH_PAGES_SAVE=<file.json>             keeps each file's page starts (what each page opens with)
 *   BENCH_PAGES_AGAINST=<file.json>          and BENCH_PAGES_SHOTS=<dir>: for each file, screenshots of
 *                                            the first page that opens differently from the saved run,
 *                                            ours and LibreOffice's (pdftoppm), side by side
 *   BENCH_PAGES_SHOOT=<k,k...>               with BENCH_PAGES_SHOTS: those pages of each file, ours and LibreOffice's
 *
 * For every shared corpus file LibreOffice sets on more than one page or where Word recorded its
 * page breaks, opens the file's working draft in Chromium through the app and counts the laid-out
 * pages ([data-page-number]). LibreOffice's count: its PDF from `soffice --headless --convert-to
 * pdf` (kept under .tmp/bench-pages with the count), pages from `pdfinfo`. Word's: the
 * w:lastRenderedPageBreak it wrote where each page began when it last saved (+1), and the share of
 * those page starts that open one of our pages (bench/word-page-starts.ts). A file whose recorded
 * breaks are far fewer than every layout's pages was changed after Word saved it: marked "stale?".
 * Word's page starts are matched twice: against our "All markup" pages (deleted text shown) and
 * against our "No markup" pages (the draft as accepting every change gives it). Word lays out
 * its default view (Simple Markup) and "No Markup" without the deleted text, and records those
 * pages' breaks: a document saved in that view is held against our "No markup" pages.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { buildBenchmarkContract } from '../src/docx/fixture';
import { CHROMIUM_ARGS, signIn, signedInPage, uploadDraft } from './app-session';
import { startBenchService, stopBenchService } from './bench-service';
import { START_KEY_CHARS, startsMatched, wordPageStartsOf } from './word-page-starts';

const PORT = Number(process.env.BENCH_PORT ?? 8792);
const BASE = `http://127.0.0.1:${PORT}`;
const CORPUS = path.resolve(process.env.CORPUS_DIR ?? path.join(process.env.REDLINE_CORPUS ?? '../shared/corpus', 'files'));
const OUT = path.resolve('.tmp/bench-pages');
const COUNTS = path.join(OUT, 'libreoffice-pages.json');

function pdfOf(file: string): string {
  return path.join(OUT, `${path.basename(file, '.docx')}.pdf`);
}

function libreOfficePages(file: string, cache: Record<string, number | null>): number | null {
  const name = path.basename(file);
  if (name in cache) return cache[name]!;
  const pdf = pdfOf(file);
  if (!existsSync(pdf)) spawnSync('soffice', ['--headless', '--convert-to', 'pdf', '--outdir', OUT, file], { stdio: 'ignore', timeout: 300_000 });
  const pages = existsSync(pdf) ? Number(/^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))?.[1] ?? NaN) : null;
  cache[name] = pages;
  return pages;
}

/** The key of the text each laid-out page opens with (its body, without deleted text), in page order. */
function ourPageStarts(page: Page): Promise<string[]> {
  // A string, not a function: tsx's transform would name the function's inner closures with a helper the page lacks.
  return page.evaluate(`(() => {
    const chars = ${START_KEY_CHARS};
    // The render variant's marker glyphs (a change with no text of its own) are not the document's text.
    const squeeze = (t) => t.replace(/[\\s¶✎⊕⊖⊞]+/g, '');
    const keys = [];
    for (const el of document.querySelectorAll('[data-testid=document-render] [data-page-number]')) {
      let text = '';
      for (const article of el.querySelectorAll(':scope > article')) {
        const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT, { acceptNode: (n) => (n.parentElement && n.parentElement.closest('del') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT) });
        for (let n = walker.nextNode(); n && squeeze(text).length < chars; n = walker.nextNode()) text += n.nodeValue || '';
        if (squeeze(text).length >= chars) break;
      }
      keys.push(squeeze(text).slice(0, chars).toLowerCase());
    }
    return keys;
  })()`);
}

/** The page starts of the "No markup" view (switched to, laid out, read), then back to "All markup". */
async function noMarkupPageStarts(page: Page): Promise<string[]> {
  const render = '[data-testid=document-render]';
  const view = page.getByRole('group', { name: 'View' });
  await view.getByRole('button', { name: 'No markup' }).click();
  await page.waitForSelector(`${render}[data-view=none][data-rendered=true]`, { state: 'attached', timeout: 300_000 });
  // The view is laid out in slices: read once the page count has held for a second.
  let count = -1;
  for (let same = 0; same < 4; ) {
    await page.waitForTimeout(250);
    const now = await page.locator(`${render} [data-page-number]`).count();
    same = now === count ? same + 1 : 0;
    count = now;
  }
  const keys = await ourPageStarts(page);
  await view.getByRole('button', { name: 'All markup' }).click();
  await page.waitForSelector(`${render}[data-view=all][data-rendered=true]`, { state: 'attached', timeout: 300_000 });
  return keys;
}

/** Our page `k` (1-based) and LibreOffice's page `k` of a file as PNGs under `dir`; answers their paths. */
async function shoot(page: Page, name: string, k: number, dir: string): Promise<string[]> {
  const base = path.join(dir, name.replace(/\.docx$/, '').slice(-60));
  const ours = `${base}-p${k}-ours.png`;
  const el = page.locator(`[data-testid=document-render] [data-page-number="${k}"]`);
  // A page is taller than the pane at 900 px: shot in a taller window, centred in the pane, clear of the app's bar.
  const size = page.viewportSize();
  await page.setViewportSize({ width: 1440, height: 1500 });
  await el.evaluate((node) => node.scrollIntoView({ block: 'center' }));
  await el.screenshot({ path: ours });
  if (size) await page.setViewportSize(size);
  const pdf = pdfOf(name);
  if (!existsSync(pdf)) return [ours];
  spawnSync('pdftoppm', ['-png', '-r', '96', '-f', String(k), '-l', String(k), '-singlefile', pdf, `${base}-p${k}-libreoffice`]);
  return [ours, `${base}-p${k}-libreoffice.png`];
}

interface BenchFile {
  name: string;
  bytes: Uint8Array;
  lo: number | null;
}

async function main(): Promise<void> {
  if (!existsSync(path.resolve('dist/.vite/manifest.json'))) spawnSync('npx', ['vite', 'build'], { stdio: 'inherit' });
  mkdirSync(OUT, { recursive: true });
  const cache = existsSync(COUNTS) ? (JSON.parse(readFileSync(COUNTS, 'utf8')) as Record<string, number | null>) : {};
  const only = process.env.BENCH_PAGES_ONLY;
  const files: BenchFile[] = [];
  for (const name of readdirSync(CORPUS).filter((f) => f.endsWith('.docx') && (!only || f.includes(only))).sort()) {
    const file = path.join(CORPUS, name);
    const bytes = readFileSync(file);
    const lo = libreOfficePages(file, cache);
    if ((lo !== null && lo > 1) || wordPageStartsOf(bytes).breaks > 0) files.push({ name, bytes, lo });
  }
  if (process.env.BENCH_PAGES_LONG) {
    const file = path.join(OUT, 'benchmark-4500.docx');
    writeFileSync(file, buildBenchmarkContract());
    files.push({ name: 'benchmark-4500.docx', bytes: readFileSync(file), lo: libreOfficePages(file, cache) });
  }
  writeFileSync(COUNTS, JSON.stringify(cache, null, 1));
  const against = process.env.BENCH_PAGES_AGAINST ? (JSON.parse(readFileSync(process.env.BENCH_PAGES_AGAINST, 'utf8')) as Record<string, string[]>) : null;
  const shots = process.env.BENCH_PAGES_SHOTS;
  if (shots) mkdirSync(shots, { recursive: true });
  const saved: Record<string, string[]> = {};
  const service = await startBenchService(PORT, path.resolve('.tmp/bench-pages-data'), { DATABASE_URL: process.env.DATABASE_URL ?? '' });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  let within5 = 0;
  let within10 = 0;
  let counted = 0;
  const wordStarts = { matched: 0, of: 0 };
  const wordStartsNoMarkup = { matched: 0, of: 0 };
  try {
    const grant = await signIn(BASE);
    const page = await signedInPage(browser, grant);
    console.log('ours = our pages, LO = LibreOffice\'s, Word = its recorded page breaks + 1, starts = Word\'s page starts that open one of our pages');
    console.log('ours /   LO / Word  starts (no markup)  LO±max(1,5%) LO±10%  file');
    for (const f of files) {
      let app: number | string;
      let starts = '';
      try {
        const id = await uploadDraft(BASE, grant, f.bytes, f.name);
        await page.goto(`${BASE}/documents/${id}`);
        await page.waitForSelector('[data-testid=document-render][data-rendered=true]', { state: 'attached', timeout: 300_000 });
        app = await page.locator('[data-testid=document-render] [data-page-number]').count();
        const keys = await ourPageStarts(page);
        saved[f.name] = keys;
        const word = wordPageStartsOf(f.bytes);
        if (word.breaks > 0) {
          const stale = f.lo !== null && word.breaks + 1 < 0.6 * Math.min(f.lo, app) ? ' stale?' : '';
          const matched = startsMatched(word.starts, keys);
          const noMarkup = startsMatched(word.starts, await noMarkupPageStarts(page));
          starts = `${matched}/${word.starts.length} (${noMarkup})${stale}`;
          if (!stale) {
            wordStarts.matched += matched;
            wordStarts.of += word.starts.length;
            wordStartsNoMarkup.matched += noMarkup;
            wordStartsNoMarkup.of += word.starts.length;
          }
        }
        for (const k of (process.env.BENCH_PAGES_SHOOT ?? '').split(',').map(Number).filter((n) => n > 0 && n <= keys.length)) {
          if (shots) console.log(`      page ${k}: ${(await shoot(page, f.name, k, shots)).join(' ')}`);
        }
        const before = against?.[f.name];
        if (before && shots) {
          const k = keys.findIndex((key, i) => key !== before[i]);
          if (k >= 0) console.log(`      first page that moved: ${k + 1}: ${(await shoot(page, f.name, k + 1, shots)).join(' ')}`);
        }
      } catch (error) {
        app = `error: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
      }
      const lo = f.lo ?? NaN;
      const ok5 = typeof app === 'number' && Math.abs(app - lo) <= Math.max(1, 0.05 * lo);
      const ok10 = typeof app === 'number' && Math.abs(app - lo) <= 0.1 * lo;
      if (typeof app === 'number' && f.lo !== null) {
        counted++;
        if (ok5) within5++;
        if (ok10) within10++;
      }
      const word = wordPageStartsOf(f.bytes).breaks;
      console.log(`${String(app).padStart(4)} / ${String(f.lo ?? '?').padStart(4)} / ${String(word > 0 ? word + 1 : '-').padStart(4)}  ${starts.padEnd(22)} ${ok5 ? 'yes' : 'NO '}          ${ok10 ? 'yes' : 'NO '}     ${f.name}`);
    }
    console.log(`\n${within5} of ${counted} files within max(1, 5%) of LibreOffice's page count, ${within10} within 10%.`);
    if (wordStarts.of > 0) console.log(`Word's page starts that open one of our pages (files not stale): ${wordStarts.matched} of ${wordStarts.of} (${Math.round((100 * wordStarts.matched) / wordStarts.of)}%).`);
    if (wordStartsNoMarkup.of > 0) console.log(`... of our "No markup" pages: ${wordStartsNoMarkup.matched} of ${wordStartsNoMarkup.of} (${Math.round((100 * wordStartsNoMarkup.matched) / wordStartsNoMarkup.of)}%).`);
    if (process.env.BENCH_PAGES_SAVE) writeFileSync(process.env.BENCH_PAGES_SAVE, JSON.stringify(saved));
  } finally {
    await browser.close();
    await stopBenchService(service);
  }
}

void main();
