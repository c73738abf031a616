import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { buildKindSample } from '../src/docx/fixture/index';
import { codeFromMailbox, DEMO_CONTRACT, DEMO_EMAIL, newestMailId, expectNoAxeViolations, signInThroughApi, signInThroughUi } from './helpers';

/**
 * Every page at a desktop and a phone width, as a person sees it: nothing scrolls sideways, no
 * list row is taller than its content, axe finds nothing, and a screenshot of each is saved
 * under .tmp/screenshots/ (CI keeps them as its record; open them and look).
 */
const WIDTHS = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const SHOTS = path.resolve('.tmp/screenshots');
mkdirSync(SHOTS, { recursive: true });

/** Widths that overflow their viewport: the page's and every scroll container's that scrolls sideways. */
async function sidewaysOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.scrollingElement ?? document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) found.push(`page: ${root.scrollWidth} > ${root.clientWidth}`);
    for (const el of document.querySelectorAll<HTMLElement>('main, main *')) {
      const style = getComputedStyle(el);
      // The rendered draft is a page of paper: it may be wider than a phone and scroll inside its own pane.
      if (el.closest('.doc-view')) continue;
      const scrolls = style.overflowX === 'auto' || style.overflowX === 'scroll';
      const box = el.getBoundingClientRect();
      if (box.width > 0 && box.right > window.innerWidth + 1 && style.position !== 'fixed' && !el.closest('[aria-hidden=true]')) {
        found.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${[...el.classList].slice(0, 3).join('.')} ends at ${Math.round(box.right)}`);
      }
      if (scrolls && el.scrollWidth > el.clientWidth + 1 && el.getAttribute('role') !== 'region') {
        found.push(`${el.tagName.toLowerCase()} scrolls sideways: ${el.scrollWidth} > ${el.clientWidth}`);
      }
    }
    return found.slice(0, 5);
  });
}

/**
 * List rows ([data-row] and listbox options) whose height is more than their content needs:
 * the union of their children's boxes plus their own padding and borders.
 */
async function oversizedRows(page: Page): Promise<{ rows: number; tallest: number; oversized: string[] }> {
  return page.evaluate(() => {
    const rows = [...document.querySelectorAll<HTMLElement>('[data-row], [role=option], main tbody tr')].filter((r) => r.getBoundingClientRect().height > 0);
    const oversized: string[] = [];
    let tallest = 0;
    for (const row of rows) {
      const box = row.getBoundingClientRect();
      tallest = Math.max(tallest, box.height);
      let top = Infinity;
      let bottom = -Infinity;
      for (const child of row.querySelectorAll<HTMLElement>('*')) {
        const b = child.getBoundingClientRect();
        if (b.height === 0 || getComputedStyle(child).position === 'absolute') continue;
        top = Math.min(top, b.top);
        bottom = Math.max(bottom, b.bottom);
      }
      if (top === Infinity) continue;
      const s = getComputedStyle(row);
      const chrome = ['paddingTop', 'paddingBottom', 'borderTopWidth', 'borderBottomWidth'].reduce((sum, k) => sum + parseFloat(s[k as 'paddingTop']), 0);
      const needed = bottom - top + chrome;
      if (box.height > needed + 3) oversized.push(`${(row.textContent ?? '').trim().slice(0, 40)}: ${Math.round(box.height)} px for ${Math.round(needed)} px of content`);
    }
    return { rows: rows.length, tallest: Math.round(tallest), oversized: oversized.slice(0, 5) };
  });
}

async function check(page: Page, name: string, width: (typeof WIDTHS)[number]) {
  await page.evaluate(() => document.fonts.ready);
  expect(await sidewaysOverflow(page), `${name} at ${width.width} px scrolls sideways`).toEqual([]);
  const rows = await oversizedRows(page);
  expect(rows.oversized, `${name} at ${width.width} px: rows taller than their content`).toEqual([]);
  await page.screenshot({ path: path.join(SHOTS, `${name}-${width.width}.png`), fullPage: false });
  await expectNoAxeViolations(page);
  test.info().annotations.push({ type: 'layout', description: `${name} ${width.width}px: ${rows.rows} rows, tallest ${rows.tallest} px` });
}

for (const width of WIDTHS) {
  test.describe(`at ${width.width} px`, () => {
    test.use({ viewport: { width: width.width, height: width.height } });

    test('sign-in', async ({ page }) => {
      await page.goto('/sign-in');
      await expect(page.getByLabel('E-mail')).toBeVisible();
      await check(page, 'sign-in', width);
    });

    test('documents, with a series opened', async ({ page, request }) => {
      // A few more matters than the demo, one with three versions and a long name.
      const api = await signInThroughApi(request);
      const list = (await (await request.get('/api/uploads?limit=100', { headers: api.headers })).json()) as { items: { fileName: string }[] };
      if (!list.items.some((r) => r.fileName.startsWith('Share purchase'))) {
        for (const name of ['Share purchase agreement – Project Lighthouse (execution version, clean).docx', 'Lease – 14 Harbour Street.docx']) {
          const res = await request.post('/api/uploads', {
            headers: api.headers,
            multipart: { purpose: 'source_doc', file: { name, mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: Buffer.from(buildKindSample('insert')) } },
          });
          const row = (await res.json()) as { id: string };
          await request.post(`/api/uploads/${row.id}/working-draft`, { headers: api.headers });
        }
      }
      await signInThroughUi(page);
      await expect(page.getByRole('heading', { name: 'Documents', level: 1 })).toBeVisible();
      const entry = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: DEMO_CONTRACT }) });
      await expect(entry).toContainText(/decided/);
      await check(page, 'documents', width);
      await page.getByRole('button', { name: `Versions of ${DEMO_CONTRACT}` }).click();
      await expect(page.getByRole('list', { name: `Versions of ${DEMO_CONTRACT}` })).toBeVisible();
      await check(page, 'documents-versions', width);
      if (width.width === 1440) {
        // Each version with its actions is one line on a desktop.
        for (const row of await page.getByRole('list', { name: `Versions of ${DEMO_CONTRACT}` }).getByRole('listitem').all()) {
          expect((await row.boundingBox())!.height).toBeLessThanOrEqual(44);
        }
        // A matter is one compact entry (its progress counts may wrap under its name rather than run
        // under the Review button): a dozen fit on a 900 px screen.
        expect((await entry.locator('[data-row]').first().boundingBox())!.height).toBeLessThanOrEqual(72);
      }
    });

    test('review', async ({ page }) => {
      await signInThroughUi(page);
      await page.getByRole('link', { name: `Review ${DEMO_CONTRACT}` }).click();
      await expect(page.locator('[data-testid=document-render][data-rendered=true]')).toBeAttached({ timeout: 20_000 });
      await expect(page.getByRole('heading', { name: 'Change 1', exact: true })).toBeVisible();
      await check(page, 'review', width);
      if (width.width === 390) {
        // The change list is a panel on a phone, opened on demand, with the current change in view.
        await page.getByRole('button', { name: /^All changes/ }).click();
        await expect(page.locator('[role=option][aria-current=true]')).toBeInViewport();
        await check(page, 'review-list', width);
        await page.getByRole('button', { name: 'Hide changes' }).click();
      } else {
        await expect(page.locator('[role=option][aria-current=true]')).toBeInViewport();
        // Accept, Reject, Undo, Previous, Next and Select fit on one line of the review panel.
        const accept = (await page.getByRole('button', { name: 'Accept', exact: true }).boundingBox())!;
        const select = (await page.getByRole('button', { name: 'Select', exact: true }).boundingBox())!;
        expect(select.y).toBe(accept.y);
      }
      if (width.width === 390) {
        // On a phone the decision buttons are within thumb reach: in the lower part of the screen.
        for (const name of ['Accept', 'Reject', 'Next']) {
          const box = (await page.getByRole('button', { name, exact: true }).boundingBox())!;
          expect(box.y, `${name} in thumb reach`).toBeGreaterThan(width.height * 0.6);
          expect(box.y + box.height).toBeLessThanOrEqual(width.height);
        }
      }
    });

    test('sessions and members', async ({ page }) => {
      await signInThroughUi(page);
      await expect(page).toHaveURL(/\/documents$/);
      await page.goto('/account/sessions');
      await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();
      await check(page, 'sessions', width);
      await page.goto('/account/members');
      await expect(page.getByRole('heading', { name: 'Members' })).toBeVisible();
      await check(page, 'members', width);
    });

    test('connector consent', async ({ page, baseURL }) => {
      const origin = `http://localhost:${new URL(baseURL!).port}`;
      const redirectUri = 'http://127.0.0.1:9/callback';
      const registered = await page.request.post(`${origin}/oauth/reg`, {
        data: { client_name: 'Layout Assistant', redirect_uris: [redirectUri], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' },
      });
      const clientId = ((await registered.json()) as { client_id: string }).client_id;
      const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
      await page.goto(`${origin}/oauth/auth?${new URLSearchParams({
        client_id: clientId, response_type: 'code', redirect_uri: redirectUri, scope: 'documents', state: 's',
        code_challenge: challenge, code_challenge_method: 'S256', resource: `${origin}/api/mcp`,
      })}`);
      await expect(page).toHaveURL(/\/connector\/authorize\?interaction=/);
      await expect(page.getByLabel('E-mail')).toBeVisible();
      await check(page, 'connector-sign-in', width);
      await page.getByLabel('E-mail').fill(DEMO_EMAIL);
      const before = await newestMailId(page.request, DEMO_EMAIL);
      await page.getByRole('button', { name: 'Send code' }).click();
      await page.getByLabel('Code', { exact: true }).fill(await codeFromMailbox(page.request, DEMO_EMAIL, before));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('heading', { name: 'Allow Layout Assistant to act for you?' })).toBeVisible();
      await check(page, 'connector-consent', width);
    });
  });
}
