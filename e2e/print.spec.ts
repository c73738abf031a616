import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { sharedAbsentMessage } from '../test/support/shared-corpus';
import { CORPUS_FILES, openCorpusFile } from './corpus';

/**
 * "Print redline" (issue 34, item 6): the draft in "All markup", page for page as the view lays it
 * out, after summary sheets, printed by the browser. Here Chromium's own PDF of the print layout
 * (what "Save as PDF" in its print dialog writes), read back with poppler's tools.
 */
const FILE = 'test-data__integration__stress023.docx';
/** Two pages, tracked changes and one comment ("Just like that!"). */
const COMMENTED = 'examples__vite__public__docx-editor-demo.docx';
const poppler = spawnSync('pdfinfo', ['-v']).error === undefined && spawnSync('pdftotext', ['-v']).error === undefined;

const files = [FILE, COMMENTED].map((f) => path.join(CORPUS_FILES, f));
test.skip(!files.every(existsSync), sharedAbsentMessage('the printed redline', files.filter((f) => !existsSync(f))));
test.skip(!poppler, 'the printed redline skipped: pdfinfo and pdftotext (poppler-utils) are not installed');

function pdfText(file: string, pageNumber?: number): string {
  const range = pageNumber ? ['-f', String(pageNumber), '-l', String(pageNumber)] : [];
  return spawnSync('pdftotext', ['-layout', ...range, file, '-'], { encoding: 'utf8' }).stdout.replace(/\s+/g, ' ');
}

function pdfPageSizes(file: string): string[] {
  const out = spawnSync('pdfinfo', ['-f', '1', '-l', '9999', file], { encoding: 'utf8' }).stdout;
  return [...out.matchAll(/^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts/gm)].map((m) => `${Math.round(Number(m[1]))}x${Math.round(Number(m[2]))}`);
}

/** The browser's print dialog cannot be driven from here: its being asked for is counted, then the PDF is Chromium's of the print layout. */
async function countPrintDialogs(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.print = () => void (document.documentElement.dataset.printAsked = String(Number(document.documentElement.dataset.printAsked ?? 0) + 1));
  });
}

async function savePdf(page: Page, file: string): Promise<void> {
  await page.emulateMedia({ media: 'print' });
  writeFileSync(file, await page.pdf({ preferCSSPageSize: true, printBackground: true }));
}

test('p prints the redline: the summary, then the view\'s pages one for one at their own size, with inserted and deleted words', async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  await countPrintDialogs(page);
  await openCorpusFile(page, FILE);
  const rendered = page.locator('[data-testid=document-render]');
  // From "No markup": printing shows "All markup" itself and waits for its pages.
  await page.getByRole('button', { name: 'No markup' }).click();
  await expect(rendered).toHaveAttribute('data-view', 'none', { timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Print redline' })).toHaveAttribute('aria-keyshortcuts', 'P');
  await page.keyboard.press('p');
  await expect(page.locator('html[data-print-asked="1"]')).toBeAttached({ timeout: 120_000 });
  await expect(rendered).toHaveAttribute('data-view', 'all');
  await expect(page.getByRole('button', { name: 'All markup' })).toHaveAttribute('aria-pressed', 'true');

  const root = page.locator('.rl-print-root');
  const viewPages = Number(await rendered.getAttribute('data-pages'));
  const sheets = Number(await root.getAttribute('data-sheets'));
  const coverSheets = Number(await root.getAttribute('data-cover-sheets'));
  expect(viewPages).toBeGreaterThan(5);
  expect(coverSheets).toBeGreaterThanOrEqual(1);
  expect(Number(await root.getAttribute('data-pages'))).toBe(viewPages);

  // What the view shows: an inserted and a deleted word, each page's size and a word of its text.
  const word = (texts: string[]) => texts.flatMap((t) => t.match(/[A-Za-z]{6,}/g) ?? [])[0]!;
  const inserted = word(await rendered.locator('ins').allTextContents());
  const deleted = word(await rendered.locator('del').allTextContents());
  expect(inserted).toBeTruthy();
  expect(deleted).toBeTruthy();
  const shown = await rendered.locator('section.docx[data-page-number]').evaluateAll((els) =>
    els.map((el) => {
      const style = (el as HTMLElement).style;
      const words = [...el.querySelectorAll(':scope > article')].map((a) => a.textContent ?? '').join(' ').match(/[A-Za-z]{7,}/g) ?? [];
      return { size: `${Math.round(parseFloat(style.width))}x${Math.round(parseFloat(style.minHeight))}`, word: words[Math.floor(words.length / 2)] ?? null };
    }),
  );
  expect(shown).toHaveLength(viewPages);

  const file = testInfo.outputPath('printed-redline.pdf');
  await savePdf(page, file);

  const sizes = pdfPageSizes(file);
  expect(sizes).toHaveLength(viewPages + sheets);
  const all = pdfText(file);
  expect(all).toContain(inserted);
  expect(all).toContain(deleted);
  const first = pdfText(file, 1);
  expect(first).toContain('Redline of');
  expect(first).toContain('stress023.docx');
  expect(first).toMatch(/Entry Page Clause Kind By State Text/);
  // Page for page (this draft has no comments: no sheets between its pages): the view's page k is
  // the PDF's page coverSheets + k, at the view's size, holding a word of the view's page k.
  expect(sheets).toBe(coverSheets);
  for (let k = 0; k < viewPages; k++) {
    expect(sizes[coverSheets + k], `page ${k + 1}'s size`).toBe(shown[k]!.size);
    if (shown[k]!.word) expect(pdfText(file, coverSheets + k + 1), `page ${k + 1}'s text`).toContain(shown[k]!.word);
  }
});

test('a comment is numbered in its page\'s margin and its thread printed on a sheet right after that page', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await countPrintDialogs(page);
  await openCorpusFile(page, COMMENTED);
  await page.getByRole('button', { name: 'Print redline' }).click();
  await expect(page.locator('html[data-print-asked="1"]')).toBeAttached({ timeout: 60_000 });
  const root = page.locator('.rl-print-root');
  const mark = root.locator('section.rl-print-page .rl-print-note-mark');
  await expect(mark).toHaveText('1');
  // Its range shaded in the printed page.
  expect((await root.locator('.rl-print-commented').allTextContents()).join('')).toContain('add a comment anchored to that selection');
  const commented = Number(await root.locator('section.rl-print-page', { has: page.locator('.rl-print-note-mark') }).getAttribute('data-page-number'));
  const viewPages = Number(await page.locator('[data-testid=document-render]').getAttribute('data-pages'));
  const sheets = Number(await root.getAttribute('data-sheets'));
  const coverSheets = Number(await root.getAttribute('data-cover-sheets'));
  expect(sheets).toBe(coverSheets + 1);

  const file = testInfo.outputPath('printed-redline.pdf');
  await savePdf(page, file);
  expect(pdfPageSizes(file)).toHaveLength(viewPages + sheets);
  // The page with the comment, then its note: "1 <author>, <date>: Just like that!".
  const notes = pdfText(file, coverSheets + commented + 1);
  expect(notes).toContain(`Comments on page ${commented}`);
  expect(notes).toMatch(/1 .+: Just like that!/);
  expect(pdfText(file, coverSheets + commented)).not.toContain('Comments on page');
  // The printed pages are a copy: the view keeps its own ids (one of each).
  expect(await page.evaluate(() => document.querySelectorAll('[id^="_rlcs_"]').length)).toBe(1);
});
