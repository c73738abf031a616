import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { sharedAbsentMessage } from '../test/support/shared-corpus';
import { CORPUS_FILES, openCorpusFile } from './corpus';
import { START_KEY_CHARS, startsMatched, wordPageStartsOf } from '../bench/word-page-starts';

/**
 * Page breaks where Word put them (issue #33), on a real file that records Word's breaks
 * (w:lastRenderedPageBreak): the docx4j sample, whose page 1 ends a line short of Word's when
 * space after and space before add up, and whose Title has a bottom border with w:space="4" and
 * 15 pt after.
 */
const SAMPLE = 'docx4j-samples-docx4j__sample-docs__sample-docx.docx';
const PT = 96 / 72;

test.skip(!existsSync(path.join(CORPUS_FILES, SAMPLE)), sharedAbsentMessage('Word\'s page breaks of a real file', [path.join(CORPUS_FILES, SAMPLE)]));
test.use({ viewport: { width: 1440, height: 900 } });

test('every page Word started in the docx4j sample opens one of our pages; the Title\'s rule sits under its text, its space after below the rule', async ({ page }) => {
  test.setTimeout(120_000);
  await openCorpusFile(page, SAMPLE);
  const keys = await page.locator('[data-testid=document-render] [data-page-number]').evaluateAll(
    (els, chars) => els.map((el) => [...el.querySelectorAll(':scope > article')].map((a) => a.textContent ?? '').join('').replace(/[\s¶✎⊕⊖⊞]+/g, '').slice(0, chars).toLowerCase()),
    START_KEY_CHARS,
  );
  const word = wordPageStartsOf(readFileSync(path.join(CORPUS_FILES, SAMPLE)));
  expect(word.starts.length).toBeGreaterThan(0);
  expect(startsMatched(word.starts, keys)).toBe(word.starts.length);

  const title = await page.locator('[data-page-number="1"] article p').first().evaluate((p) => {
    const style = getComputedStyle(p);
    const r = p.getBoundingClientRect();
    const next = p.nextElementSibling!.getBoundingClientRect();
    return { borderWidth: parseFloat(style.borderBottomWidth), padding: parseFloat(style.paddingBottom), below: next.top - r.bottom, text: p.textContent };
  });
  expect(title.text).toContain('Docx sample document');
  expect(title.borderWidth).toBeGreaterThan(0);
  // w:space="4": 4 pt between the text and the rule; the 15 pt after lies below the rule.
  expect(title.padding).toBeCloseTo(4 * PT, 0);
  expect(title.below).toBeCloseTo(15 * PT, 0);
});
