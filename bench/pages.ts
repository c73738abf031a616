/**
 * Page counts of the review app's layout against LibreOffice's (issue #23). Prints; never fails.
 *
 *   npm run bench:pages                (builds dist/ first if it is missing)
 *   BENCH_PAGES_LONG=1 npm run bench:pages   also the 4,500-paragraph benchmark contract
 *
 * For every shared corpus file LibreOffice sets on more than one page (its PDF from
 * `soffice --headless --convert-to pdf`, page count from `pdfinfo`), opens the file's working
 * draft in Chromium through the app and counts the laid-out pages ([data-page-number]). Agreement:
 * within max(1, 15%) of LibreOffice's count. Also prints how many w:lastRenderedPageBreak hints the
 * file holds (+1: the pages Word had when it last saved, where it saved them), to say which of
 * the two is closer to Word where they differ.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import { chromium } from '@playwright/test';
import { buildBenchmarkContract } from '../src/docx/fixture';
import { CHROMIUM_ARGS, signIn, signedInPage, uploadDraft } from './app-session';
import { startBenchService, stopBenchService } from './bench-service';

const PORT = Number(process.env.BENCH_PORT ?? 8792);
const BASE = `http://127.0.0.1:${PORT}`;
const CORPUS = path.resolve(process.env.CORPUS_DIR ?? '../shared/corpus/files');
const OUT = path.resolve('.tmp/bench-pages');

function libreOfficePages(file: string): number | null {
  const pdf = path.join(OUT, `${path.basename(file, '.docx')}.pdf`);
  if (!existsSync(pdf)) spawnSync('soffice', ['--headless', '--convert-to', 'pdf', '--outdir', OUT, file], { stdio: 'ignore', timeout: 300_000 });
  if (!existsSync(pdf)) return null;
  const info = execFileSync('pdfinfo', [pdf], { encoding: 'utf8' });
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? NaN);
}

/** Word's own page count when it last saved: its page-break hints in the main part, plus one. */
function wordHints(bytes: Uint8Array): number | null {
  const files = unzipSync(bytes, { filter: (f) => f.name === 'word/document.xml' });
  const xml = files['word/document.xml'];
  if (!xml) return null;
  const n = strFromU8(xml).split('<w:lastRenderedPageBreak').length - 1;
  return n === 0 ? null : n + 1;
}

async function main(): Promise<void> {
  if (!existsSync(path.resolve('dist/.vite/manifest.json'))) spawnSync('npx', ['vite', 'build'], { stdio: 'inherit' });
  mkdirSync(OUT, { recursive: true });
  const files: { name: string; bytes: Uint8Array; lo: number | null }[] = [];
  for (const name of readdirSync(CORPUS).filter((f) => f.endsWith('.docx')).sort()) {
    const file = path.join(CORPUS, name);
    const lo = libreOfficePages(file);
    if (lo !== null && lo > 1) files.push({ name, bytes: readFileSync(file), lo });
  }
  if (process.env.BENCH_PAGES_LONG) {
    const file = path.join(OUT, 'benchmark-4500.docx');
    writeFileSync(file, buildBenchmarkContract());
    files.push({ name: 'benchmark contract (4,500 paragraphs)', bytes: readFileSync(file), lo: libreOfficePages(file) });
  }
  const service = await startBenchService(PORT, path.resolve('.tmp/bench-pages-data'), { DATABASE_URL: process.env.DATABASE_URL ?? '' });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  let agree = 0;
  let counted = 0;
  try {
    const grant = await signIn(BASE);
    const page = await signedInPage(browser, grant);
    console.log('pages: app / LibreOffice / Word hints (lastRenderedPageBreak + 1)  within max(1, 15%)?  file');
    for (const f of files) {
      let app: number | string;
      try {
        const id = await uploadDraft(BASE, grant, f.bytes, f.name);
        await page.goto(`${BASE}/documents/${id}`);
        await page.waitForSelector('[data-testid=document-render][data-rendered=true]', { state: 'attached', timeout: 300_000 });
        app = await page.locator('[data-testid=document-render] [data-page-number]').count();
      } catch (error) {
        app = `error: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
      }
      const lo = f.lo ?? NaN;
      const ok = typeof app === 'number' && Math.abs(app - lo) <= Math.max(1, 0.15 * lo);
      if (typeof app === 'number' && f.lo !== null) {
        counted++;
        if (ok) agree++;
      }
      console.log(`${String(app).padStart(5)} / ${String(f.lo ?? '?').padStart(4)} / ${String(wordHints(f.bytes) ?? '-').padStart(4)}  ${ok ? 'yes' : 'NO '}  ${f.name}`);
    }
    console.log(`\n${agree} of ${counted} files within max(1, 15%) of LibreOffice's page count.`);
  } finally {
    await browser.close();
    await stopBenchService(service);
  }
}

void main();
