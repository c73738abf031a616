import { strToU8, unzipSync, zipSync } from 'fflate';
import { expect, test, type Page } from '@playwright/test';
import { buildDocx, listItem, p, type BlockSpec } from '../src/docx/fixture';
import { openDocx } from './corpus';

/**
 * Lines as Word sets them (issue #33): line spacing as a multiple of the line of the font
 * actually drawn, exact and at-least spacing in points, a list label in its paragraph's font
 * (or its level's), and a package without a styles part in Word's defaults.
 */
const TEXT = 'The Supplier shall deliver the Goods to the Premises on the Delivery Date, and the Customer shall accept them there, '.repeat(4);

/** A paragraph of Times New Roman 11 pt with its own w:spacing, opening with `tag`. */
function spaced(tag: string, spacing: string): BlockSpec {
  return { type: 'xml', xml: `<w:p><w:pPr>${spacing}</w:pPr><w:r><w:rPr><w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman"/><w:sz w:val="22"/></w:rPr><w:t xml:space="preserve">${tag} ${TEXT}</w:t></w:r></w:p>` };
}

/** The px between a paragraph's first two lines (the paragraph opening with `tag`), on its laid-out page. */
function linePitch(page: Page, tag: string): Promise<number> {
  return page.evaluate((t) => {
    const el = [...document.querySelectorAll<HTMLElement>('[data-page-number] article p')].find((x) => x.textContent!.trimStart().startsWith(t));
    if (!el) return NaN;
    const range = document.createRange();
    range.selectNodeContents(el);
    const tops = [...new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top * 100) / 100))].sort((a, b) => a - b);
    return tops[1]! - tops[0]!;
  }, tag);
}

/** The browser's own line of a font (line-height: normal) per em, at a size where the px it rounds to do not count, times `px`. */
async function naturalLine(page: Page, family: string, px: number): Promise<number> {
  return (px / 100) * await page.evaluate(([f, size]) => {
    const div = document.createElement('div');
    div.style.cssText = `position: absolute; font-family: "${f}"; font-size: ${size}px; line-height: normal;`;
    div.textContent = 'Hg';
    document.body.append(div);
    const h = div.getBoundingClientRect().height;
    div.remove();
    return h;
  }, [family, 100] as const);
}

const PT = 4 / 3;

test('auto line spacing is a multiple of the font\'s own line; exact and at-least are points', async ({ page }) => {
  const bytes = buildDocx({
    body: [
      spaced('AUTO15', '<w:spacing w:after="0" w:line="360" w:lineRule="auto"/>'),
      spaced('SINGLE', '<w:spacing w:after="0" w:line="240" w:lineRule="auto"/>'),
      spaced('EXACT18', '<w:spacing w:after="0" w:line="360" w:lineRule="exact"/>'),
      spaced('LEAST6', '<w:spacing w:after="0" w:line="120" w:lineRule="atLeast"/>'),
      spaced('LEAST30', '<w:spacing w:after="0" w:line="600" w:lineRule="atLeast"/>'),
    ],
  });
  await openDocx(page, 'Line spacing.docx', bytes);
  const single = await naturalLine(page, 'Times New Roman', 11 * PT);
  expect(single).toBeGreaterThan(11 * PT);
  expect(await linePitch(page, 'SINGLE')).toBeCloseTo(single, 0);
  expect(await linePitch(page, 'AUTO15')).toBeCloseTo(1.5 * single, 0);
  expect(await linePitch(page, 'EXACT18')).toBeCloseTo(18 * PT, 0);
  // At least 6 pt: the font's single line is more.
  expect(await linePitch(page, 'LEAST6')).toBeCloseTo(single, 0);
  expect(await linePitch(page, 'LEAST30')).toBeCloseTo(30 * PT, 0);
});

test('a list label takes its paragraph\'s font, or its level\'s run properties, not the page\'s', async ({ page }) => {
  const bytes = buildDocx({
    body: [
      listItem('decimal', 0, 'First item in the document default font.'),
      listItem('decimal', 0, 'Second item.'),
      listItem('bullet', 1, 'A bullet at level two, whose level names Courier New.'),
    ],
  });
  await openDocx(page, 'List labels.docx', bytes);
  const labels = await page.locator('[data-page-number] article p[data-rl-number]').evaluateAll((ps) => ps.map((el) => {
    const s = getComputedStyle(el, '::before');
    return { label: (el as HTMLElement).dataset.rlNumber!.trim(), family: s.fontFamily, size: s.fontSize };
  }));
  expect(labels[1]).toMatchObject({ label: '2.', size: `${(11 * PT).toFixed(4).replace(/0+$/, '')}px` });
  // The fixture's defaults: Calibri 11 pt (the paragraph mark's font), not the app's sans.
  expect(labels[1]!.family).toMatch(/^"?Calibri/);
  const bullet = await page.locator('[data-page-number] article p', { hasText: 'A bullet at level two' }).evaluate((el) => getComputedStyle(el, '::before').fontFamily);
  expect(bullet).toMatch(/Courier New/);
});

test('a package without a styles part is set in Word\'s defaults: Times New Roman 10 pt, single lines, no space after', async ({ page }) => {
  const files = unzipSync(buildDocx({ body: [spaced('PLAIN', ''), p('Second paragraph in the defaults.'), p('Third.')] }));
  delete files['word/styles.xml'];
  const text = (name: string) => new TextDecoder().decode(files[name]);
  files['word/_rels/document.xml.rels'] = strToU8(text('word/_rels/document.xml.rels').replace(/<Relationship [^>]*Target="styles.xml"\/>/, ''));
  files['[Content_Types].xml'] = strToU8(text('[Content_Types].xml').replace(/<Override [^>]*PartName="\/word\/styles.xml"[^>]*\/>/, ''));
  await openDocx(page, 'No styles.docx', zipSync(files));
  const second = page.locator('[data-page-number] article p', { hasText: 'Second paragraph' });
  const look = await second.evaluate((el) => {
    const span = el.querySelector('span') ?? el;
    const s = getComputedStyle(span);
    const next = el.nextElementSibling!.getBoundingClientRect();
    return { family: s.fontFamily, size: s.fontSize, height: el.getBoundingClientRect().height, gap: next.top - el.getBoundingClientRect().bottom };
  });
  expect(look.family).toMatch(/^"?Times New Roman/);
  expect(look.size).toBe(`${(10 * PT).toFixed(4).replace(/0+$/, '')}px`);
  expect(look.height).toBeCloseTo(await naturalLine(page, 'Times New Roman', 10 * PT), 0);
  expect(look.gap).toBeCloseTo(0, 1);
});

/** The space between the text of the paragraph opening with `a` and that of the next one (their borders less their padding), in px. */
function gapAfter(page: Page, a: string): Promise<number> {
  return page.evaluate((t) => {
    const el = [...document.querySelectorAll<HTMLElement>('[data-page-number] article p')].find((x) => x.textContent!.trimStart().startsWith(t))!;
    const next = el.nextElementSibling as HTMLElement;
    const pad = (x: HTMLElement, side: 'paddingTop' | 'paddingBottom') => parseFloat(getComputedStyle(x)[side]);
    return next.getBoundingClientRect().top + pad(next, 'paddingTop') - (el.getBoundingClientRect().bottom - pad(el, 'paddingBottom'));
  }, a);
}

test('between two paragraphs the larger of space after and space before; contextual spacing drops both; a page after a natural break drops its first space before', async ({ page }) => {
  const bytes = buildDocx({
    body: [
      spaced('AFTER12', '<w:spacing w:after="240" w:line="240" w:lineRule="auto"/>'),
      spaced('BEFORE18', '<w:spacing w:before="360" w:after="0" w:line="240" w:lineRule="auto"/>'),
      listItem('decimal', 0, 'LISTA first item of a list in List Paragraph, contextual spacing.'),
      listItem('decimal', 0, 'LISTB second item.'),
      ...Array.from({ length: 40 }, (_, i) => spaced(`FILL${i}`, '<w:spacing w:before="240" w:after="0" w:line="240" w:lineRule="auto"/>')),
    ],
  });
  await openDocx(page, 'Spacing.docx', bytes);
  // 12 pt after above 18 pt before: 18 pt between them, as Word sets it (not their sum, 30 pt).
  expect(await gapAfter(page, 'AFTER12')).toBeCloseTo(18 * PT, 0);
  // Normal has 8 pt after (the fixture's defaults); List Paragraph has contextual spacing.
  expect(await gapAfter(page, 'LISTA')).toBeCloseTo(0, 0);
  const tops = await page.locator('[data-page-number] > article:first-of-type > p:first-child').evaluateAll((ps) => ps.map((el) => parseFloat(getComputedStyle(el).paddingTop)));
  expect(tops.length).toBeGreaterThan(1);
  expect(tops.slice(1)).toEqual(tops.slice(1).map(() => 0));
});

/** The px from the bottom of the paragraph opening with `a` to the top of the one opening with `b`. */
function distance(page: Page, a: string, b: string): Promise<number> {
  return page.evaluate(([x, y]) => {
    const find = (t: string) => [...document.querySelectorAll<HTMLElement>('[data-page-number] article p')].find((el) => el.textContent!.trimStart().startsWith(t))!;
    return find(y).getBoundingClientRect().top - find(x).getBoundingClientRect().bottom;
  }, [a, b] as const);
}

test('an empty paragraph whose only change is its mark keeps its line, as Word keeps it', async ({ page }) => {
  const plain = (tag: string): BlockSpec => spaced(tag, '<w:spacing w:after="0" w:line="240" w:lineRule="auto"/>');
  const emptyMark = (inner: string): BlockSpec => ({ type: 'xml', xml: `<w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/><w:rPr>${inner}</w:rPr></w:pPr></w:p>` });
  const bytes = buildDocx({
    body: [
      plain('PLAINA'),
      emptyMark(''),
      plain('PLAINB'),
      plain('INSA'),
      emptyMark('<w:ins w:id="901" w:author="Counterparty" w:date="2026-01-05T10:00:00Z"/>'),
      plain('INSB'),
      plain('DELA'),
      emptyMark('<w:del w:id="902" w:author="Counterparty" w:date="2026-01-05T10:00:00Z"/>'),
      plain('DELB'),
    ],
  });
  await openDocx(page, 'Empty marks.docx', bytes);
  const untracked = await distance(page, 'PLAINA', 'PLAINB');
  // An untracked empty paragraph is one line of the paragraph mark's font: more than nothing.
  expect(untracked).toBeGreaterThan(10);
  // Its line stays, with its pilcrow on it, not at the end of the paragraph before (all markup, as Word).
  expect(await distance(page, 'INSA', 'INSB')).toBeCloseTo(untracked, 0);
  expect(await distance(page, 'DELA', 'DELB')).toBeCloseTo(untracked, 0);
  for (const [before, after] of [['INSA', 'INSB'], ['DELA', 'DELB']] as const) {
    await expect(page.locator('[data-page-number] article p', { hasText: before }).locator('ins, del').filter({ hasText: '¶' })).toHaveCount(0);
    const lines = await page.evaluate(({ a, b }) => {
      const ps = [...document.querySelectorAll('[data-page-number] article p')];
      const at = ps.findIndex((p) => p.textContent?.includes(a));
      const [own, next] = [ps[at + 1]!, ps[at + 2]!];
      const top = (el: Element) => el.getBoundingClientRect().top;
      return { pilcrow: own.textContent?.trim(), next: next.textContent?.includes(b), between: top(own) > top(ps[at]!) && top(own) < top(next), visible: getComputedStyle(own).visibility };
    }, { a: before, b: after });
    expect(lines).toEqual({ pilcrow: '¶', next: true, between: true, visible: 'visible' });
  }
});

test('a right-to-left run is set in its complex-script size and font (w:szCs, w:rFonts/@w:cs), a Latin run beside it in its own', async ({ page }) => {
  const arabic = 'المؤتمر العالمي للاتصالات الراديوية '.repeat(12);
  const run = (tag: string, rtl: boolean) => ({
    type: 'xml' as const,
    xml: `<w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:r><w:rPr><w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman" w:cs="Traditional Arabic"/><w:sz w:val="22"/><w:szCs w:val="30"/>${rtl ? '<w:rtl/>' : ''}</w:rPr><w:t xml:space="preserve">${tag} ${rtl ? arabic : TEXT}</w:t></w:r></w:p>`,
  });
  await openDocx(page, 'Complex script.docx', buildDocx({ body: [run('LATINRUN', false), run('RTLRUN', true)] }));
  // Latin: Times New Roman 11 pt. Right to left: Traditional Arabic (DejaVu Sans standing in) at 15 pt.
  expect(await linePitch(page, 'LATINRUN')).toBeCloseTo(await naturalLine(page, 'Times New Roman', 11 * PT), 0);
  expect(await linePitch(page, 'RTLRUN')).toBeCloseTo(await naturalLine(page, 'DejaVu Sans', 15 * PT), 0);
  const fonts = await page.locator('[data-page-number] article p', { hasText: 'RTLRUN' }).locator('span').first().evaluate((el) => [getComputedStyle(el).fontFamily, getComputedStyle(el).fontSize]);
  expect(fonts).toEqual(['"Traditional Arabic"', '20px']);
});
