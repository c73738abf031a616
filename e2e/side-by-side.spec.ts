import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { buildDocx, p } from '../src/docx/fixture/index';
import { OLDER_PARAGRAPH_PREFIX, REDLINE_PARAGRAPH_PREFIX, type SideBySideAnswer } from '../src/contract/side-by-side';
import { signInThroughApi, signInThroughUi, type ApiSession } from './helpers';

/**
 * Issue 34.5: a comparison read side by side. The older version on the left, the redline on the
 * right, scrolled together paragraph by paragraph; the current entry highlighted on both sides;
 * the keys move through both. At 390 px one side at a time, and a toggle (or `o`) between them.
 */

const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const SCREENS = path.resolve('.tmp/screens');

const clause = (n: number) => `${n}. The parties agree to the terms of clause ${n}, which governs matter number ${n} of this agreement and its schedules.`;
const OLDER = Array.from({ length: 40 }, (_, k) => clause(k + 1));
/** The counterparty's next version: a clause reworded, two inserted, one deleted, one split, one changed near the end. */
const NEWER = (() => {
  const out = [...OLDER];
  out[2] = '3. The parties agree to the terms of clause 3, which now governs every matter of this agreement.';
  out.splice(8, 0, '8A. A new clause the counterparty added about confidentiality and its duration.', '8B. And a second new clause about the return of information.');
  out.splice(out.indexOf(clause(15)), 1);
  const at = out.indexOf(clause(27));
  out.splice(at, 1, '27. The parties agree to the terms of clause 27,', 'which governs matter number 27 of this agreement and its schedules.');
  out[out.indexOf(clause(36))] = '36. The parties agree to the terms of clause 36, which governs matter number 36 of this agreement only.';
  return out;
})();

async function upload(request: APIRequestContext, api: ApiSession, url: string, name: string, paragraphs: readonly string[]): Promise<string> {
  const answer = await request.post(url, {
    headers: api.headers,
    multipart: { purpose: 'source_doc', file: { name, mimeType: DOCX_MIME, buffer: Buffer.from(buildDocx({ body: paragraphs.map((t) => p(t)) })) } },
  });
  expect(answer.status()).toBe(201);
  return ((await answer.json()) as { id: string }).id;
}

/** v1 and v2 of a contract, v2 compared with v1: the comparison's draft id and its side-by-side answer. */
async function comparison(request: APIRequestContext): Promise<{ draftId: string; answer: SideBySideAnswer }> {
  const api = await signInThroughApi(request);
  const name = `Side by side ${Date.now()}.docx`;
  const v1 = await upload(request, api, '/api/uploads', name, OLDER);
  const v2 = await upload(request, api, `/api/uploads/${v1}/versions`, name, NEWER);
  const compared = await request.post(`/api/uploads/${v2}/compare`, { headers: api.headers, data: { against: v1 } });
  expect(compared.status()).toBe(201);
  const draftId = ((await compared.json()) as { id: string }).id;
  const views = await request.get(`/api/documents/${draftId}/side-by-side`, { headers: api.headers });
  expect(views.status()).toBe(200);
  return { draftId, answer: (await views.json()) as SideBySideAnswer };
}

async function openSideBySide(page: Page, draftId: string): Promise<void> {
  await signInThroughUi(page);
  await expect(page).toHaveURL(/\/documents$/);
  await page.goto(`/documents/${draftId}`);
  await expect(page.locator('[data-testid=document-render][data-rendered=true]')).toBeAttached({ timeout: 20_000 });
  await expect(page.locator('[role=option][aria-current=true]')).toBeAttached();
  await page.keyboard.press('s');
  await expect(page.getByTestId('side-by-side')).toBeVisible();
  await expect(page.locator('[data-testid=side-by-side] [data-testid=document-render][data-rendered=true]')).toHaveCount(2, { timeout: 20_000 });
}

/** A paragraph bookmark's top, from its pane's top (null: not laid out, or its pane hidden). */
async function offsetInPane(page: Page, id: string): Promise<number | null> {
  return page.evaluate((markId) => {
    const mark = document.getElementById(markId);
    const pane = mark?.closest<HTMLElement>('[role=region]');
    if (!mark || !pane || pane.offsetParent === null) return null;
    return mark.getBoundingClientRect().top - pane.getBoundingClientRect().top;
  }, id);
}

/** Scrolls a pane so a paragraph's bookmark stands on the reading line (a third down): what a reader's scroll does. */
async function scrollToReadingLine(page: Page, id: string): Promise<void> {
  await page.evaluate((markId) => {
    const mark = document.getElementById(markId)!;
    const pane = mark.closest<HTMLElement>('[role=region]')!;
    pane.scrollTop += mark.getBoundingClientRect().top - pane.getBoundingClientRect().top - pane.clientHeight / 3;
  }, id);
}

/** Whether an element is inside its pane's visible box. */
async function inView(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => {
    const el = document.querySelector<HTMLElement>(sel);
    const pane = el?.closest<HTMLElement>('[role=region]');
    if (!el || !pane) return false;
    const a = el.getBoundingClientRect();
    const b = pane.getBoundingClientRect();
    return a.height > 0 && a.bottom > b.top && a.top < b.bottom;
  }, selector);
}

const olderPane = '[data-testid=side-by-side] [role=region][aria-label="Older version"]';
const redlinePane = '[data-testid=side-by-side] [role=region][aria-label="Redline"]';

/** The first redline paragraph of older paragraph j (an anchor both sides line up on). */
function anchorOf(answer: SideBySideAnswer, older: number): number {
  return answer.redline.olderParagraph.indexOf(older);
}

async function saveScreens(page: Page, name: string, size: { width: number; height: number }): Promise<void> {
  mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS, `${name}-${size.width}x${size.height}.png`) });
}

test('1440 px: the older version beside the redline, scrolled together, the current entry on both sides, keys through both', async ({ page }) => {
  test.setTimeout(120_000);
  const size = { width: 1440, height: 900 };
  await page.setViewportSize(size);
  const { draftId, answer } = await comparison(page.request);
  expect(answer.older.kind).toBe('compared');
  expect(answer.older.version).toBe(1);
  await openSideBySide(page, draftId);
  await expect(page.getByText('Older version · v1 (compared)')).toBeVisible();

  // Scrolling the redline scrolls the older version: a paragraph far down lines up on both sides.
  for (const older of [12, 22]) {
    const i = anchorOf(answer, older);
    await scrollToReadingLine(page, `${REDLINE_PARAGRAPH_PREFIX}${i}`);
    await expect.poll(async () => {
      const [left, right] = [await offsetInPane(page, `${OLDER_PARAGRAPH_PREFIX}${older}`), await offsetInPane(page, `${REDLINE_PARAGRAPH_PREFIX}${i}`)];
      return left !== null && right !== null ? Math.abs(left - right) : Infinity;
    }).toBeLessThan(6);
  }
  // And the other way round.
  await scrollToReadingLine(page, `${OLDER_PARAGRAPH_PREFIX}5`);
  await expect.poll(async () => {
    const [left, right] = [await offsetInPane(page, `${OLDER_PARAGRAPH_PREFIX}5`), await offsetInPane(page, `${REDLINE_PARAGRAPH_PREFIX}${anchorOf(answer, 5)}`)];
    return left !== null && right !== null ? Math.abs(left - right) : Infinity;
  }).toBeLessThan(6);

  // The keys move through both: each entry highlighted on the redline and, at the place it comes from, on the older side.
  const pane = page.locator(olderPane);
  const title = page.locator('section[aria-label="Current change"] h2');
  const total = Number(/of (\d+) decided/.exec((await page.getByTestId('progress').textContent())!)![1]);
  const seen: string[] = [];
  for (let step = 0; step < total; step++) {
    if (step > 0) {
      const before = await title.textContent();
      await page.keyboard.press('j');
      await expect(title).not.toHaveText(before!);
    }
    await expect(page.locator(`${redlinePane} .rl-here`).first()).toBeVisible();
    await expect(pane).toHaveAttribute('data-current-older', /\d/);
    const place = (await pane.getAttribute('data-current-older'))!;
    seen.push(place);
    const marked = place.startsWith('after') ? `${olderPane} .rl-sbs-gap-after` : `${olderPane} .rl-sbs-here`;
    await expect.poll(() => inView(page, marked), { message: `entry ${step + 1}: its older place (${place}) in view` }).toBe(true);
    expect(await inView(page, `${redlinePane} .rl-here`)).toBe(true);
    if (place === 'after 7') await saveScreens(page, 'side-by-side', size);
  }
  // The entries' older places follow the older version's order, from clause 3 to clause 36.
  const order = seen.map((place) => (place.startsWith('after') ? Number(place.slice(6)) + 0.5 : Number(place.split(' ')[0])));
  expect(order).toEqual([...order].sort((a, b) => a - b));
  // Clause 3's rewording is at clause 3; the inserted clauses 8A and 8B go after clause 8; clause 15's deletion at 15; clause 36 at 36.
  expect(seen).toContain('2');
  expect(seen).toContain('after 7');
  expect(seen).toContain('14');
  expect(seen).toContain('35');
  // `k` goes back through both.
  await page.keyboard.press('k');
  await expect(pane).toHaveAttribute('data-current-older', seen[total - 2]!);
  // `s` again: the redline alone.
  await page.keyboard.press('s');
  await expect(page.getByTestId('side-by-side')).toHaveCount(0);
  await expect(page.locator('[role=region][aria-label=Document]')).toBeVisible();
});

test('390 px: one side at a time, a toggle and `o` between them, the current entry shown on each', async ({ page }) => {
  test.setTimeout(120_000);
  const size = { width: 390, height: 844 };
  await page.setViewportSize(size);
  const { draftId } = await comparison(page.request);
  await openSideBySide(page, draftId);
  const toggle = page.getByRole('group', { name: 'Side shown' });
  await expect(toggle).toBeVisible();
  await expect(toggle.getByRole('button', { name: /^Redline/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator(olderPane)).toBeHidden();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await expect(page.locator(`${redlinePane} .rl-here`).first()).toBeVisible();
  const place = (await page.locator(olderPane).getAttribute('data-current-older'))!;
  expect(place).toMatch(/\d/);
  // `o`: the older side, where the entry comes from in view.
  await page.keyboard.press('o');
  await expect(toggle.getByRole('button', { name: /^Older/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator(olderPane)).toBeVisible();
  await expect(page.locator(redlinePane)).toBeHidden();
  const marked = place.startsWith('after') ? `${olderPane} .rl-sbs-gap-after` : `${olderPane} .rl-sbs-here`;
  await expect.poll(() => inView(page, marked)).toBe(true);
  await saveScreens(page, 'side-by-side-older', size);
  // The keys still move: the next entry at another place is shown there.
  await expect.poll(async () => {
    await page.keyboard.press('j');
    return page.locator(olderPane).getAttribute('data-current-older');
  }).not.toBe(place);
  const next = (await page.locator(olderPane).getAttribute('data-current-older'))!;
  await expect.poll(() => inView(page, next.startsWith('after') ? `${olderPane} .rl-sbs-gap-after` : `${olderPane} .rl-sbs-here`)).toBe(true);
  // The toggle's other button: the redline again, the entry in view.
  await toggle.getByRole('button', { name: /^Redline/ }).click();
  await expect(page.locator(redlinePane)).toBeVisible();
  await expect.poll(() => inView(page, `${redlinePane} .rl-here`)).toBe(true);
  await saveScreens(page, 'side-by-side-redline', size);
  // Without a keyboard: the header's button leaves side by side, the changes panel offers it again.
  await page.getByRole('button', { name: 'Side by side', pressed: true }).click();
  await expect(page.getByTestId('side-by-side')).toHaveCount(0);
  await page.getByRole('button', { name: /^All changes/ }).click();
  await page.getByRole('region', { name: 'Filters and batches' }).getByRole('button', { name: 'Side by side' }).click();
  await expect(page.getByTestId('side-by-side')).toBeVisible();
});
