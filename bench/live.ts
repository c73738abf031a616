/**
 * Figures of the live review (issue 16). Prints; never fails.
 *
 *   npx tsx bench/live.ts          (builds dist/ first if it is missing)
 *
 * - decision to the other browser: two Chromium contexts (two users) on one draft of a
 *   10-page contract; 50 times, `a` in one page, then the wait until the other page's list
 *   shows the change accepted. Measured on one wall clock (both pages run on this machine),
 *   from the key event to the mutation in the other page. It includes the app's batching
 *   window (BATCH_DELAY_MS, 300 ms after the last key) and the apply itself.
 * - what one instance holds per 100 open review pages: event streams (each page holds one,
 *   read with fetch streaming as the app does) over 10 drafts, 100, 300 and 600 of them: the
 *   service's RSS and open sockets at each, and what it asks of the database meanwhile.
 *
 * Runs its own service (PGlite) on BENCH_PORT (default 8881) with a fresh data directory under .tmp/.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { buildBenchmarkContract } from '../src/docx/fixture';
import { percentile } from './bench-http';
import { startBenchService } from './bench-service';

const PORT = Number(process.env.BENCH_PORT ?? 8881);
const BASE = `http://127.0.0.1:${PORT}`;
const DATA_DIR = path.resolve('.tmp/bench-live-data');

interface Grant {
  session_token: string;
  orgId: string;
  user: { id: string };
  orgs: unknown;
  expiresAt: string;
}

async function signIn(email: string): Promise<Grant> {
  await fetch(`${BASE}/api/auth/sign-in/request-code`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: email }) });
  const mail = (await (await fetch(`${BASE}/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json()) as { code: string };
  const res = await fetch(`${BASE}/api/auth/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: email, code: mail.code }) });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as Grant;
}

const headersOf = (grant: Grant) => ({ authorization: `Bearer ${grant.session_token}`, 'x-org-id': grant.orgId });

async function api<T>(grant: Grant, method: string, url: string, body?: FormData | object): Promise<T> {
  const json = body !== undefined && !(body instanceof FormData);
  const res = await fetch(`${BASE}/api${url}`, {
    method, body: json ? JSON.stringify(body) : (body as FormData | undefined),
    headers: { ...headersOf(grant), ...(json ? { 'content-type': 'application/json' } : {}) },
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function newDraft(grant: Grant, name: string, bytes: Uint8Array): Promise<string> {
  const form = new FormData();
  form.set('purpose', 'source_doc');
  form.set('file', new Blob([new Uint8Array(bytes)]), name);
  const original = await api<{ id: string }>(grant, 'POST', '/uploads', form);
  return (await api<{ id: string }>(grant, 'POST', `/uploads/${original.id}/working-draft`)).id;
}

async function reviewPage(browser: Browser, grant: Grant, draftId: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const session = { token: grant.session_token, orgId: grant.orgId, user: grant.user, orgs: grant.orgs, expiresAt: grant.expiresAt };
  await context.addInitScript((s) => sessionStorage.setItem('redline.session', s), JSON.stringify(session));
  const page = await context.newPage();
  await page.goto(`${BASE}/documents/${draftId}`);
  await page.locator('[role=option][aria-current=true]').waitFor({ timeout: 60_000 });
  return page;
}

/** ms from `a` in `from` to `to` showing the change accepted, `n` times. */
async function decisionLatencies(from: Page, to: Page, n: number): Promise<number[]> {
  await to.evaluate(() => {
    const w = window as unknown as { __seen: Map<string, number> };
    w.__seen = new Map();
    new MutationObserver((records) => {
      for (const r of records) {
        const el = r.target as HTMLElement;
        if (el.dataset.state === 'in' && el.dataset.changeId && !w.__seen.has(el.dataset.changeId)) {
          w.__seen.set(el.dataset.changeId, performance.timeOrigin + performance.now());
        }
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-state'] });
  });
  await from.evaluate(() => {
    const w = window as unknown as { __pressed: number };
    window.addEventListener('keydown', (e) => { w.__pressed = performance.timeOrigin + e.timeStamp; }, { capture: true });
  });
  const latencies: number[] = [];
  for (let i = 0; i < n; i++) {
    const id = await from.locator('[role=option][aria-current=true]').getAttribute('data-change-id');
    if (!id) break;
    await from.keyboard.press('a');
    await to.waitForFunction((cid) => (window as unknown as { __seen: Map<string, number> }).__seen.has(cid), id, { timeout: 30_000 });
    const pressed = await from.evaluate(() => (window as unknown as { __pressed: number }).__pressed);
    const seen = await to.evaluate((cid) => (window as unknown as { __seen: Map<string, number> }).__seen.get(cid)!, id);
    latencies.push(seen - pressed);
    // A lawyer reads before the next decision; each decision is then its own batch.
    await from.waitForTimeout(400);
  }
  return latencies;
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(/\d+/.exec(line ?? '')?.[0] ?? 0) / 1024;
}

/** Open TCP sockets of the process (its file descriptors that are sockets; the listener is one). */
function sockets(pid: number): number {
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) n++;
    } catch {
      /* closed meanwhile */
    }
  }
  return n;
}

async function openStreams(grant: Grant, draftIds: string[], count: number): Promise<{ ready: Promise<void>; close(): void }> {
  const abort = new AbortController();
  const readies: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const id = draftIds[i % draftIds.length]!;
    readies.push((async () => {
      const res = await fetch(`${BASE}/api/documents/${id}/events`, { headers: headersOf(grant), signal: abort.signal });
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      let ready = false;
      const readyPromise = new Promise<void>((resolve) => {
        void (async () => {
          try {
            for (;;) {
              const { value, done } = await reader.read();
              if (done) return;
              text += decoder.decode(value, { stream: true });
              if (!ready && text.includes('event: ready')) {
                ready = true;
                resolve();
              }
              if (text.length > 65_536) text = text.slice(-1024);
            }
          } catch {
            resolve();
          }
        })();
      });
      await readyPromise;
    })());
  }
  return { ready: Promise.all(readies).then(() => undefined), close: () => abort.abort() };
}

async function main(): Promise<void> {
  if (!existsSync(path.resolve('dist/index.html'))) {
    console.log('dist/ has no build: running vite build…');
    spawnSync('npx', ['vite', 'build'], { stdio: 'inherit' });
  }
  const service = await startBenchService(PORT, DATA_DIR, { DATABASE_URL: '' });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const owner = await signIn('demo@example.com');
    await api(owner, 'POST', '/org/members', { email: 'priya@example.com' });
    const priya = await signIn('priya@example.com');
    const bytes = buildBenchmarkContract({ pages: 10, revisions: 120 });
    const draft = await newDraft(owner, 'Live bench 10 pages.docx', bytes);

    const a = await reviewPage(browser, owner, draft);
    const b = await reviewPage(browser, priya, draft);
    await b.waitForTimeout(1000);
    const lat = await decisionLatencies(a, b, 50);
    console.log(`Decision in one browser to its appearance in the other (${lat.length} decisions, one instance, PGlite, 10-page draft, 120 changes):`);
    console.log(`  p50 ${percentile(lat, 50).toFixed(0)} ms, p95 ${percentile(lat, 95).toFixed(0)} ms, max ${Math.max(...lat).toFixed(0)} ms`);
    console.log('  (includes the 300 ms batching window after the key and the apply; the stream itself adds the event write');
    console.log('   on this instance, and up to one 250 ms poll of the log for a decision made on another instance)');
    await a.context().close();
    await b.context().close();

    // 100 open review pages, as the service sees them: 100 event streams, over 10 drafts.
    const drafts = [draft];
    for (let i = 1; i < 10; i++) drafts.push(await newDraft(owner, `Live bench ${i}.docx`, bytes));
    await new Promise((r) => setTimeout(r, 3000));
    const pid = service.pid!;
    // RSS moves by more than 100 streams cost between two reads (garbage collection), so the
    // cost is read as the slope over 100, 300 and 600 streams.
    const points: { streams: number; rss: number; sockets: number }[] = [{ streams: 0, rss: rssMb(pid), sockets: sockets(pid) }];
    const opened: { close(): void }[] = [];
    for (const [count, total] of [[100, 100], [200, 300], [300, 600]] as const) {
      const batch = await openStreams(owner, drafts, count);
      opened.push(batch);
      await batch.ready;
      await new Promise((r) => setTimeout(r, 12_000)); // a heartbeat and presence refresh
      points.push({ streams: total, rss: rssMb(pid), sockets: sockets(pid) });
    }
    const decideStart = Date.now();
    const review = await api<{ revisions: { change_id: string }[] }>(owner, 'GET', `/documents/${drafts[1]}/review`);
    await api(owner, 'POST', `/documents/${drafts[1]}/revisions/apply`, { accepted_change_ids: [review.revisions[0]!.change_id] });
    const applyMs = Date.now() - decideStart;
    const last = points.at(-1)!;
    console.log('\nOne instance (PGlite) holding open review pages (event streams over 10 drafts, read after a heartbeat):');
    for (const p of points) console.log(`  ${String(p.streams).padStart(3)} streams: RSS ${p.rss.toFixed(0)} MB, sockets ${p.sockets}`);
    console.log(`  per 100 pages: +${(((last.rss - points[0]!.rss) / last.streams) * 100).toFixed(1)} MB RSS, +${(((last.sockets - points[0]!.sockets) / last.streams) * 100).toFixed(0)} sockets (one TCP connection each; no database connection per page)`);
    console.log('  database: one log poll every 250 ms and one presence read a second for all watched drafts together, one presence refresh per 10 s heartbeat');
    console.log(`  a review read + apply with ${last.streams} streams open: ${applyMs} ms`);
    for (const o of opened) o.close();
  } catch (error) {
    console.log(`\nbench/live.ts could not finish: ${error instanceof Error ? error.stack : String(error)}`);
  } finally {
    await browser.close();
    service.kill('SIGTERM');
  }
}

void main();
