/**
 * Benchmark of the OOXML revision engine on a generated 300-page contract with ~3,000 revisions of
 * mixed kinds. Prints figures against the targets of issue #3; never fails.
 *
 *   npm run bench:engine     (node --expose-gc --import tsx bench/engine.ts)
 *   npm run bench:engine -- --only peers     (issue 36's section alone)
 *   npm run bench:engine -- --only batch     (a 50-decision batch on a kept document, by phase)
 *
 * Then issue 36's accept-all and reject-all against the peers, on the issue's 100-page
 * (4,500-paragraph) contract with ~1,000 and ~3,000 changes: ours with its phases (unzip, decode,
 * parse, scan, decide, serialise, zip, then the listing of what is left), LibreOffice headless
 * warm (../shared/tools/lo-accept-reject.sh, or $REDLINE_TOOLS) and Docxodus in-process (the
 * `docxodus` devDependency's WebAssembly build, `docxodus/core`: its `docxodus` entry needs a
 * browser bundler), all from the same run, with the ratios and the load average. Docxodus not
 * installed prints a "skipped" line; DOCXODUS_MODULE=/abs/path/to/docxodus/dist/core.js loads it
 * from elsewhere.
 *
 * Figures: list (open + revisions), the no-op round trip (unzip + parse + serialise + zip, every
 * parsed part re-deflated), a 50-change apply, accept-all, LibreOffice headless accept-all of the
 * same file (warm: the second of two runs in one soffice), and the memory growth during an apply,
 * measured in a fresh child process. Each timing is the median of several runs.
 *
 * The timings are printed twice: with the engine's portable zip codec (fflate; the default, and
 * what a browser would run) and with Node's native zlib (what the service passes). The round
 * trip and the apply use the same codec, as the target asks ("with the same libraries").
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBenchmarkContract } from '../src/docx/fixture';
import { checkWrittenWork, ingestDocx, openDocx, type OpenOptions, type ZipCodec } from '../src/docx/index';
import { nativeZipCodec } from '../src/service/engine/native-zip-codec';

const here = fileURLToPath(import.meta.url);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const gc = (globalThis as { gc?: () => void }).gc;

/**
 * Median of `runs` timings after a warm-up. With --expose-gc (npm run bench:engine) each run
 * starts on a collected heap, so no run pays for the garbage of the one before: the runs of
 * different operations are then compared on equal terms.
 */
function time(runs: number, f: () => void): number {
  f(); // warm-up
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    gc?.();
    const t = performance.now();
    f();
    xs.push(performance.now() - t);
  }
  return median(xs);
}

/** Medians of `runs` rounds, each running every operation once in turn (after one warm-up round). */
function timeInterleaved(runs: number, ops: readonly (() => void)[]): number[] {
  for (const op of ops) op();
  const xs: number[][] = ops.map(() => []);
  for (let i = 0; i < runs; i++) {
    ops.forEach((op, k) => {
      gc?.();
      const t = performance.now();
      op();
      xs[k]!.push(performance.now() - t);
    });
  }
  return xs.map(median);
}

function partSize(docx: Uint8Array): number {
  // Uncompressed size from the zip central directory entry of word/document.xml.
  const v = new DataView(docx.buffer, docx.byteOffset, docx.byteLength);
  const name = new TextEncoder().encode('word/document.xml');
  for (let i = 0; i + 46 < docx.length; i++) {
    if (v.getUint32(i, true) !== 0x02014b50) continue;
    const len = v.getUint16(i + 28, true);
    if (len === name.length && name.every((b, k) => docx[i + 46 + k] === b)) return v.getUint32(i + 24, true);
  }
  return 0;
}

function memoryChild(file: string): void {
  const bytes = new Uint8Array(readFileSync(file));
  const ids = openDocx(bytes).changeIds();
  const batch = ids.filter((_, i) => i % Math.max(1, Math.floor(ids.length / 50)) === 0).slice(0, 50);
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage().rss;
  const out = openDocx(bytes).apply({ accept: batch, reject: [] }).toBytes();
  const peak = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(JSON.stringify({ before, peak, out: out.length }));
}

function issue3(): void {
  const t0 = performance.now();
  const raw = buildBenchmarkContract();
  const docx = ingestDocx(raw).bytes;
  const xmlBytes = partSize(docx);
  if (!gc) console.log('(run with node --expose-gc, as npm run bench:engine does, for timings that do not depend on when the collector runs)');
  const doc = openDocx(docx);
  const ids = doc.changeIds();
  console.log(`benchmark contract: ${(docx.length / 1e6).toFixed(2)} MB .docx, document.xml ${(xmlBytes / 1e6).toFixed(2)} MB, ${ids.length} revisions (built in ${(performance.now() - t0).toFixed(0)} ms)`);

  const step = Math.max(1, Math.floor(ids.length / 50));
  const batch = ids.filter((_, i) => i % step === 0).slice(0, 50);
  const half = Math.floor(batch.length / 2);
  let acceptAll = Infinity;
  for (const [label, codec] of [['portable codec (fflate)', undefined], ['native zlib codec', nativeZipCodec]] as [string, ZipCodec | undefined][]) {
    const opts = codec ? { codec } : {};
    const list = time(7, () => openDocx(docx, opts).revisions());
    // Interleaved, so a slow spell of this shared machine weighs on both sides of the ratio alike.
    const [noop = NaN, apply50 = NaN] = timeInterleaved(15, [
      () => openDocx(docx, opts).toBytes({ forceRewrite: true }),
      () => openDocx(docx, opts).apply({ accept: batch.slice(0, half), reject: batch.slice(half) }).toBytes(),
    ]);
    const all = time(5, () => openDocx(docx, opts).apply({ accept: ids, reject: [] }).toBytes());
    acceptAll = Math.min(acceptAll, all);
    console.log(`-- ${label}`);
    console.log(`list (open + revisions):         ${list.toFixed(0)} ms   (target <= 300 ms)`);
    console.log(`no-op round trip:                ${noop.toFixed(0)} ms`);
    console.log(`apply 50 changes (+ write):      ${apply50.toFixed(0)} ms   = ${(apply50 / noop).toFixed(2)}x the round trip (target <= 1.3x)`);
    console.log(`accept-all (+ write):            ${all.toFixed(0)} ms`);
  }

  // What the service reads once per draft, on its baseline, for the track (decision-facts.ts):
  // on the first batch, and on the first batch an instance sees of a draft after that.
  const facts = time(7, () => {
    doc.containment();
    doc.goneAs();
  });
  console.log(`decision facts (takers, moot conditions; once per draft and instance): ${facts.toFixed(0)} ms on the open draft`);

  const work = mkdtempSync(path.join(tmpdir(), 'redline-bench-'));
  try {
    const file = path.join(work, 'contract.docx');
    writeFileSync(file, docx);

    const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', here, '--memory-child', file], { encoding: 'utf8', maxBuffer: 1 << 20 });
    try {
      const m = JSON.parse(child.stdout) as { before: number; peak: number };
      const growth = Math.max(0, m.peak - m.before);
      console.log(`memory growth during a 50-change apply: ${(growth / 1e6).toFixed(0)} MB = ${(growth / xmlBytes).toFixed(1)}x document.xml (target <= 25x)`);
    } catch {
      console.log(`memory growth: child process failed (${child.stderr.split('\n')[0] ?? ''})`);
    }

    const script = libreOfficeScript();
    if (!script) {
      console.log('LibreOffice accept-all: skipped (soffice or lo-accept-reject.sh not found)');
      return;
    }
    const copy = path.join(work, 'again.docx');
    writeFileSync(copy, docx);
    const lo = spawnSync(script, ['accept', file, path.join(work, 'lo1.docx'), copy, path.join(work, 'lo2.docx')], { encoding: 'utf8', timeout: 900_000 });
    const lines = lo.stdout.split('\n').filter((l) => l.startsWith('accept\t'));
    const secs = lines.map((l) => Number(l.split('\t')[3]));
    const warm = secs[1];
    if (warm === undefined || Number.isNaN(warm)) {
      console.log(`LibreOffice accept-all: failed (${lines.join(' | ') || lo.stderr.split('\n')[0]})`);
      return;
    }
    console.log(`LibreOffice accept-all (warm):   ${(warm * 1000).toFixed(0)} ms   -> engine (faster codec) is ${((warm * 1000) / acceptAll).toFixed(1)}x faster (target >= 20x)`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** lo-accept-reject.sh, or null when it or soffice is not there. */
function libreOfficeScript(): string | null {
  const script = path.resolve(process.env.REDLINE_TOOLS ?? path.resolve(process.cwd(), '../shared/tools'), 'lo-accept-reject.sh');
  return existsSync(script) && spawnSync('soffice', ['--version']).status === 0 ? script : null;
}

function loadAverage(): string {
  return loadavg().map((l) => l.toFixed(1)).join(' ');
}

/** What the bench uses of Docxodus (docxodus/core): its byte-in, byte-out RevisionProcessor accept-all and reject-all. */
interface Docxodus {
  initialize(): Promise<void>;
  docxDiffAcceptRevisions(redline: Uint8Array): Promise<Uint8Array>;
  docxDiffRejectRevisions(redline: Uint8Array): Promise<Uint8Array>;
}

/** Docxodus's engine, initialised, or why not. */
async function loadDocxodus(): Promise<Docxodus | string> {
  // A string specifier, so the typecheck does not need the package installed (it is bench-only).
  const specifier: string = process.env.DOCXODUS_MODULE ?? 'docxodus/core';
  let module: Docxodus;
  try {
    module = (await import(specifier)) as Docxodus;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') return 'docxodus not installed (npm ci installs it: a devDependency)';
    return `docxodus failed to load (${String(error).split('\n')[0]})`;
  }
  // The .NET runtime warns on stdout about its JIT tables while it starts; those lines are not the bench's.
  const log = console.log;
  console.log = (...args: unknown[]) => {
    if (!String(args[0]).startsWith('MONO_WASM')) log(...args);
  };
  await module.initialize();
  return module;
}

/** Median of `runs` awaited timings after one warm-up; the last run's output with it. */
async function timeAsync(runs: number, f: () => Promise<Uint8Array>): Promise<{ ms: number; out: Uint8Array }> {
  let out = await f();
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    gc?.();
    const t = performance.now();
    out = await f();
    xs.push(performance.now() - t);
  }
  return { ms: median(xs), out };
}

/** LibreOffice's warm accept-all or reject-all of `docx`: the second of two files in one soffice; ms and the redlines it left, or why not. */
function libreOffice(script: string, mode: 'accept' | 'reject', docx: Uint8Array, work: string): { ms: number; left: string } | string {
  const files = [1, 2].flatMap((n) => {
    const file = path.join(work, `${mode}-${n}.docx`);
    writeFileSync(file, docx);
    return [file, path.join(work, `${mode}-${n}-lo.docx`)];
  });
  const lo = spawnSync(script, [mode, ...files], { encoding: 'utf8', timeout: 900_000 });
  const lines = lo.stdout.split('\n').filter((l) => l.startsWith(`${mode}\t`));
  const warm = lines[1]?.split('\t');
  const secs = Number(warm?.[3]);
  // A Python traceback's last line is the exception ("soffice did not come up" on a machine too busy for it).
  if (!warm || Number.isNaN(secs)) return `failed (${lines.join(' | ') || lo.stderr.trim().split('\n').at(-1) || `exit ${lo.status ?? lo.signal}`})`;
  return { ms: secs * 1000, left: warm[5] ?? '?' };
}

type Phases = Map<string, number>;

/** Our accept-all or reject-all as the service runs it (open, decide, write, list), with its phases; medians of `runs`. */
function ours(docx: Uint8Array, mode: 'accept' | 'reject', codec: ZipCodec | undefined, runs: number): { ms: number; phases: Phases; out: Uint8Array } {
  const xs: number[] = [];
  const phaseRuns: Phases[] = [];
  let out: Uint8Array = new Uint8Array();
  for (let i = 0; i <= runs; i++) {
    gc?.();
    const phases: Phases = new Map();
    const opts: OpenOptions = { ...(codec ? { codec } : {}), timing: { add: (phase, ms) => phases.set(phase, (phases.get(phase) ?? 0) + ms) } };
    const t = performance.now();
    const doc = openDocx(docx, opts);
    const ids = doc.changeIds();
    out = doc.apply(mode === 'accept' ? { accept: ids, reject: [] } : { accept: [], reject: ids }).toBytes();
    const listed = performance.now();
    doc.revisions();
    phases.set('list', performance.now() - listed);
    if (i === 0) continue; // warm-up
    xs.push(performance.now() - t);
    phaseRuns.push(phases);
  }
  const phases: Phases = new Map([...phaseRuns[0]!.keys()].map((k) => [k, median(phaseRuns.map((p) => p.get(k) ?? 0))]));
  return { ms: median(xs), phases, out };
}

function phaseLine(phases: Phases): string {
  return [...phases].map(([k, v]) => `${k} ${v < 10 ? v.toFixed(1) : v.toFixed(0)}`).join(' + ');
}

/** Issue 36.3: accept-all and reject-all against LibreOffice and Docxodus, from one run, at the issue's two sizes. */
async function issue36(): Promise<void> {
  const script = libreOfficeScript();
  const docxodus = await loadDocxodus();
  const work = mkdtempSync(path.join(tmpdir(), 'redline-bench-peers-'));
  try {
    for (const changes of [1000, 3000]) {
      const docx = ingestDocx(buildBenchmarkContract({ pages: 100, revisions: changes })).bytes;
      const count = openDocx(docx).revisionCount;
      console.log(`\n-- issue 36: accept-all and reject-all, 100-page contract, ${count.toLocaleString('en')} changes (document.xml ${(partSize(docx) / 1e6).toFixed(2)} MB), load average ${loadAverage()}`);
      const ms = (x: number) => `${x.toLocaleString('en', { maximumFractionDigits: 0 })} ms`;
      const mine: Record<'accept' | 'reject', number> = { accept: NaN, reject: NaN };
      for (const mode of ['accept', 'reject'] as const) {
        const native = ours(docx, mode, nativeZipCodec, 7);
        const portable = ours(docx, mode, undefined, 7);
        const left = openDocx(native.out).revisionCount;
        mine[mode] = native.ms;
        console.log(`ours ${mode}-all, native zlib (the service's codec): ${ms(native.ms)}   (${phaseLine(native.phases)}; ${left} left)`);
        console.log(`ours ${mode}-all, portable codec (fflate):           ${ms(portable.ms)}   (${phaseLine(portable.phases)})`);
      }
      for (const mode of ['accept', 'reject'] as const) {
        const lo = script ? libreOffice(script, mode, docx, work) : 'skipped (soffice or lo-accept-reject.sh not found)';
        const dx = typeof docxodus === 'string' ? null : await timeAsync(3, () => (mode === 'accept' ? docxodus.docxDiffAcceptRevisions(docx) : docxodus.docxDiffRejectRevisions(docx)));
        const target = mode === 'accept' ? { lo: ' (target >= 50x)', dx: ' (target >= 5x)' } : { lo: '', dx: '' };
        console.log(typeof lo === 'string'
          ? `LibreOffice ${mode}-all: ${lo}`
          : `LibreOffice ${mode}-all, headless, warm: ${ms(lo.ms)} (${lo.left} redlines left)   -> ours is ${(lo.ms / mine[mode]).toFixed(0)}x faster${target.lo}`);
        console.log(dx === null
          ? `Docxodus ${mode}-all: skipped: ${String(docxodus)}`
          : `Docxodus ${mode}-all, in-process WebAssembly, warm median of 3: ${ms(dx.ms)} (${openDocx(dx.out).revisionCount} changes left, as we list them)   -> ours is ${(dx.ms / mine[mode]).toFixed(1)}x faster${target.dx}`);
      }
      console.log(`(load average ${loadAverage()})`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The process's CPU so far, in ms (every thread: the collector's helpers too); on a shared machine steadier than wall time. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Issue 36.1's engine side: what a 50-decision batch costs on a document kept open, as the service
 * runs it on its thread for a minimal answer (apply with its rescan, the write's serialising, the
 * listing after, the caps check of the written bytes), at the issue's two sizes. Wall and CPU
 * medians of the batches after the first quarter (30 at 3,000 changes; fewer at 1,000, so that
 * a third of the changes stays open), alternating accept and reject, each from another place.
 */
async function batches(): Promise<void> {
  for (const changes of [1000, 3000]) {
    const docx = ingestDocx(buildBenchmarkContract({ pages: 100, revisions: changes })).bytes;
    let phases: Phases = new Map();
    const doc = openDocx(docx, { codec: nativeZipCodec, timing: { add: (phase, ms) => phases.set(phase, (phases.get(phase) ?? 0) + ms) } });
    const listed = doc.revisions().length;
    const rows = new Map<string, { wall: number[]; cpu: number[] }>();
    const measure = <T>(name: string, f: () => T): T => {
      const [wall, cpu] = [performance.now(), cpuMs()];
      const out = f();
      const row = rows.get(name) ?? { wall: [], cpu: [] };
      row.wall.push(performance.now() - wall);
      row.cpu.push(cpuMs() - cpu);
      rows.set(name, row);
      return out;
    };
    const count = Math.min(30, Math.floor((doc.revisionCount * 2) / 3 / 50));
    const warm = Math.ceil(count / 4);
    for (let b = 0; b < count; b++) {
      const ids = doc.changeIds();
      const from = (b * 37) % Math.max(1, ids.length - 60);
      const pick = ids.slice(from, from + 50);
      phases = new Map();
      measure('apply', () => doc.apply(b % 2 ? { accept: [], reject: pick } : { accept: pick, reject: [] }));
      const scan = phases.get('scan') ?? 0;
      const writing = measure('serialise', () => doc.toBytesAsync());
      measure('list', () => doc.revisions());
      const bytes = await writing;
      measure('caps', () => checkWrittenWork(bytes, { maxStoryBytes: 1e9, maxParagraphs: 1e7 }, nativeZipCodec));
      const row = rows.get('  of apply: rescan (wall)') ?? { wall: [], cpu: [] };
      row.wall.push(scan);
      rows.set('  of apply: rescan (wall)', row);
    }
    const line = [...rows].map(([name, { wall, cpu }]) => `${name} ${median(wall.slice(warm)).toFixed(1)}${cpu.length ? ` / ${median(cpu.slice(warm)).toFixed(1)}` : ''}`);
    console.log(`\n-- issue 36.1: a 50-decision batch on a kept document, ${listed.toLocaleString('en')} changes, ${count - warm} batches (ms, wall / process CPU, medians; load average ${loadAverage()})`);
    console.log(line.join('\n'));
  }
}

async function main(): Promise<void> {
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
  if (only === 'batch') return batches();
  if (only !== 'peers') issue3();
  await issue36();
}

if (process.argv.includes('--memory-child')) memoryChild(process.argv[process.argv.indexOf('--memory-child') + 1]!);
else await main();
