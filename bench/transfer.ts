/**
 * Bytes on the wire from sign-in to the first highlighted change (issue 24 item 11), on the
 * 4,500-paragraph bench draft (buildBenchmarkContract({ pages: 100 })). Prints figures; never fails.
 *
 *   npx vite build && npm run bench:transfer
 *
 * The app's requests on the way, in order: index.html and the assets the review route loads
 * (index.html's scripts and styles, the signed-in frame, the review page, docx-preview: from
 * dist/'s manifest), the sign-in (request-code, verify), the review read, the render variant,
 * and the render window around the first change (a long draft shows those pages first). Two
 * ways in one run against the same service:
 * - before: no Accept-Encoding and the full review read (content and render variant inline),
 *   as the app was sent everything before this change;
 * - after: `Accept-Encoding: br, gzip` (what a browser sends) and the minimal review read
 *   (`Prefer: return=minimal`) followed by GET render, as the app reads now.
 * Bytes are the answers' bodies as received (headers left out); the time is the requests one
 * after another over loopback (each way run once to warm up, then measured), so it shows the
 * server's work (compressing included), not a network's.
 *
 * One service process (`src/service/main.ts`, PGlite and blobs on disk) on BENCH_PORT
 * (default 8793), serving dist/, with a fresh data directory under .tmp/, on 127.0.0.1 only.
 */
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { buildBenchmarkContract } from '../src/docx/fixture';
import { docxForm, expectStatus, json, ms, request, signIn, type Timed } from './bench-http';
import { startBenchService, stopBenchService } from './bench-service';

const PORT = Number(process.env.BENCH_PORT ?? 8793);
const BASE = `http://127.0.0.1:${PORT}`;
const DIST = path.resolve('dist');
const DATA_DIR = path.resolve('.tmp/bench-transfer-data');
const DEMO_EMAIL = 'demo@example.com';
const BROWSER_ENCODINGS = 'br, gzip';

interface ManifestChunk { file: string; isEntry?: boolean; imports?: string[]; css?: string[] }

/** The asset URLs the review route loads: index.html's own, then the chunks of the review page and docx-preview. */
function reviewRouteAssets(indexHtml: string): string[] {
  const manifest = JSON.parse(readFileSync(path.join(DIST, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const keyOf = (suffix: string) => Object.keys(manifest).find((k) => k.endsWith(suffix));
  const keys = new Set<string>();
  const closure = (list: readonly (string | undefined)[]) => {
    for (const key of list) {
      if (!key || keys.has(key) || !manifest[key]) continue;
      keys.add(key);
      closure(manifest[key].imports ?? []);
    }
  };
  closure([...Object.keys(manifest).filter((k) => manifest[k]!.isEntry), keyOf('AppLayout.tsx'), keyOf('ReviewPage.tsx'), keyOf('docx-preview/dist/docx-preview.mjs')]);
  const fromHtml = [...indexHtml.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  const fromManifest = [...keys].flatMap((k) => [manifest[k]!.file, ...(manifest[k]!.css ?? [])]).map((f) => `/${f}`);
  return [...new Set([...fromHtml, ...fromManifest])];
}

interface Row { what: string; bytes: number; ms: number; encoding: string }

const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`;

async function journey(label: 'before' | 'after', draftId: string, firstChange: string, credentials: Record<string, string>): Promise<Row[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const encoding: Record<string, string> = label === 'after' ? { 'accept-encoding': BROWSER_ENCODINGS } : {};
  const rows: Row[] = [];
  const get = async (what: string, url: string, headers: Record<string, string> = {}): Promise<Timed> => {
    const answer = expectStatus(await request(BASE, 'GET', url, { headers: { ...encoding, ...headers }, agent, timeoutMs: 300_000 }), 200, what);
    rows.push({ what, bytes: answer.body.byteLength, ms: answer.ms, encoding: String(answer.headers['content-encoding'] ?? '-') });
    return answer;
  };

  const index = await get('index.html', '/');
  const assets = reviewRouteAssets(index.body.toString());
  for (const asset of assets) await get(`asset ${path.basename(asset)}`, asset);

  // The sign-in the app makes (the code is read from the dev outbox, which the app does not do).
  const started = performance.now();
  const grant = await signIn(BASE, DEMO_EMAIL, '127.0.0.1');
  rows.push({ what: 'sign-in (request-code, verify)', bytes: 0, ms: performance.now() - started, encoding: '-' });

  const session = { ...credentials, ...grant.headers };
  if (label === 'before') {
    await get('review read (full)', `/api/documents/${draftId}/review`, session);
  } else {
    await get('review read (minimal)', `/api/documents/${draftId}/review`, { ...session, prefer: 'return=minimal' });
    await get('render variant', `/api/documents/${draftId}/render`, session);
  }
  await get('render window (first change)', `/api/documents/${draftId}/render-window?around=${encodeURIComponent(firstChange)}`, session);
  agent.destroy();
  return rows;
}

function summarise(label: string, rows: readonly Row[]): { bytes: number; ms: number } {
  const assets = rows.filter((r) => r.what.startsWith('asset ') || r.what === 'index.html');
  const api = rows.filter((r) => !assets.includes(r));
  console.log(`\n${label}`);
  console.log(`  index.html + ${assets.length - 1} assets: ${kB(assets.reduce((s, r) => s + r.bytes, 0)).padStart(10)}  ${ms(assets.reduce((s, r) => s + r.ms, 0))}  (encodings: ${[...new Set(assets.map((r) => r.encoding))].join(', ')})`);
  for (const big of assets.filter((r) => r.bytes > 50 * 1024)) console.log(`    ${big.what.padEnd(40)} ${kB(big.bytes).padStart(10)}  ${big.encoding}`);
  for (const r of api) console.log(`  ${r.what.padEnd(40)} ${kB(r.bytes).padStart(10)}  ${ms(r.ms)}  ${r.encoding}`);
  const total = { bytes: rows.reduce((s, r) => s + r.bytes, 0), ms: rows.reduce((s, r) => s + r.ms, 0) };
  console.log(`  total to the first highlighted change:   ${kB(total.bytes).padStart(10)}  ${ms(total.ms)}`);
  return total;
}

async function main(): Promise<void> {
  if (!existsSync(path.join(DIST, '.vite/manifest.json'))) {
    console.log('dist/ has no build: run `npx vite build` first.');
    return;
  }
  const docx = buildBenchmarkContract({ pages: 100 });
  const service = await startBenchService(PORT, DATA_DIR);
  try {
    const { headers } = await signIn(BASE, DEMO_EMAIL, '127.0.0.1');
    const form = docxForm({ purpose: 'source_doc' }, 'Benchmark 100 pages.docx', docx);
    const uploadId = json<{ id: string }>(expectStatus(await request(BASE, 'POST', '/api/uploads', { headers: { ...headers, ...form.headers }, body: form.body, timeoutMs: 300_000 }), 201, 'upload')).id;
    const draftId = json<{ id: string }>(expectStatus(await request(BASE, 'POST', `/api/uploads/${uploadId}/working-draft`, { headers, timeoutMs: 300_000 }), 201, 'working draft')).id;
    // Warm the analysis so both runs read it cached and the times compare transfer, not parsing.
    const review = json<{ revisions: { change_id: string }[]; track: { items: { id: string }[] } | null }>(
      expectStatus(await request(BASE, 'GET', `/api/documents/${draftId}/review`, { headers, timeoutMs: 300_000 }), 200, 'review'));
    const firstChange = review.track?.items[0]?.id ?? review.revisions[0]!.change_id;
    console.log(`Bench draft: 100 pages (4,500 paragraphs), ${kB(docx.byteLength)} .docx, ${review.revisions.length} revisions; service on ${BASE}`);

    // Each way once to warm the process (first compressions, first reads of each file), then measured.
    await journey('before', draftId, firstChange, {});
    await journey('after', draftId, firstChange, {});
    const before = summarise('Before (no Accept-Encoding, full review read):', await journey('before', draftId, firstChange, {}));
    const after = summarise(`After (Accept-Encoding: ${BROWSER_ENCODINGS}, minimal review read + GET render):`, await journey('after', draftId, firstChange, {}));
    const plainMinimal = expectStatus(await request(BASE, 'GET', `/api/documents/${draftId}/review`, { headers: { ...headers, prefer: 'return=minimal' }, timeoutMs: 300_000 }), 200, 'review');
    console.log(`\n(the minimal review read uncompressed: ${kB(plainMinimal.body.byteLength)}, ${ms(plainMinimal.ms)})`);
    console.log(`Bytes to the first highlighted change: ${kB(before.bytes)} -> ${kB(after.bytes)} (${(100 * (1 - after.bytes / before.bytes)).toFixed(0)}% less); requests' time ${ms(before.ms)} -> ${ms(after.ms)}`);
    // What those bytes alone cost on a modest link (20 Mbit/s), latency and headers left out.
    const onLink = (bytes: number) => ms((bytes * 8) / 20_000);
    console.log(`On a 20 Mbit/s link, the bytes alone: ${onLink(before.bytes)} -> ${onLink(after.bytes)}`);
  } finally {
    await stopBenchService(service);
  }
}

await main();
