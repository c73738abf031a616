/**
 * The next-version property of issue 26 over many seeds (test/conformance/next-version*.ts).
 * Prints the failure rate and the failing shapes; never fails.
 *
 *   npm run bench:compare-fuzz -- [--seeds 20] [--from 1] [--validate 10] [--bases all|corpus|built]
 *
 * For every base (each corpus file's accept-all, each older file of the comparison pairs) and
 * each seed: a next version edited without tracking, the comparison and the untracked check on
 * the pair, and the round-trip contract on both (accept-all gives the next version, reject-all the
 * base, paragraph for paragraph, empty paragraphs included); and, counted apart, the contract's
 * block-level half (blockProblems: each paragraph in the container it stood in, controls, tables
 * and cells where they stood). With --validate K, every K-th pair's
 * next version and both outputs also go through ../shared/tools/ooxml-validate.py --new (errors
 * the inputs did not have).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkNextVersion, corpusBases } from '../test/conformance/next-version-check';

const CORPUS = process.env.REDLINE_CORPUS ?? path.resolve(process.cwd(), '../shared/corpus');
const VALIDATOR = path.join(CORPUS, '..', 'tools', 'ooxml-validate.py');
const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SEEDS = arg('seeds', 20);
const FROM = arg('from', 1);
const VALIDATE = arg('validate', 0);
/** corpus: the corpus files and comparison olders only; built: next-version-bases.ts's documents only. */
const WHICH = process.argv.includes('--bases') ? process.argv[process.argv.indexOf('--bases') + 1] : 'all';

const bases = corpusBases(CORPUS).filter((b) => WHICH === 'all' || (WHICH === 'built') === b.name.startsWith('shape: '));
const dir = mkdtempSync(path.join(tmpdir(), 'compare-fuzz-'));
const failures: string[] = [];
const shapes = new Map<string, number>();
const blockShapes = new Map<string, number>();
let blockFailures = 0;
let pairs = 0;
let validated = 0;
let invalid = 0;
const started = performance.now();
try {
  for (let seed = FROM; seed < FROM + SEEDS; seed++) {
    for (const base of bases) {
      let problems: string[];
      let edits: string;
      let outcome: ReturnType<typeof checkNextVersion> | null = null;
      let blocks: string[] = [];
      try {
        outcome = checkNextVersion(base.bytes, seed);
        if (!outcome.edits) continue;
        problems = outcome.problems;
        blocks = outcome.blocks;
        edits = outcome.edits.map((e) => `${e.kind} ${e.where}`).join('; ');
      } catch (e) {
        problems = [`threw: ${(e as Error).message}`];
        edits = '?';
      }
      pairs++;
      if (VALIDATE > 0 && outcome?.newer && pairs % VALIDATE === 0) {
        validated++;
        const errors = schemaErrors(base.bytes, outcome.newer, outcome.outputs!);
        if (errors.length) {
          invalid++;
          problems = [...problems, ...errors];
        }
      }
      if (blocks.length) {
        blockFailures++;
        console.log(`BLOCKS ${base.name} seed ${seed}: ${edits}\n    ${blocks.map((p) => p.slice(0, 260)).join('\n    ')}`);
        const what = blocks.map((p) => p.replace(/: block \d+.*/, '')).join(' | ');
        const shape = `${base.name.startsWith('shape: ') ? base.name : 'corpus'}: ${what} [${[...new Set(edits.split('; ').map((e) => e.split(' ')[0]))].sort().join('+')}]`;
        blockShapes.set(shape, (blockShapes.get(shape) ?? 0) + 1);
      }
      if (!problems.length) continue;
      const failure = `${base.name} seed ${seed}: ${edits}\n    ${problems.map((p) => p.slice(0, 260)).join('\n    ')}`;
      failures.push(failure);
      console.log(`FAIL ${failure}`);
      // A shape: what went wrong (without the paragraph's text) and which edits were made.
      const what = problems.map((p) => p.replace(/: got .*/, '').replace(/paragraph \d+/, 'paragraph N')).join(' | ');
      const kinds = [...new Set(edits.split('; ').map((e) => e.split(' ')[0]))].sort().join('+');
      const shape = `${what} [${kinds}]`;
      shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
    }
    console.log(`seed ${seed}: ${pairs} pairs so far, ${failures.length} failing, ${blockFailures} failing the block check, ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const seconds = ((performance.now() - started) / 1000).toFixed(0);
console.log(`${bases.length} bases x seeds ${FROM}..${FROM + SEEDS - 1}: ${pairs} generated pairs, ${failures.length} failing (${((100 * failures.length) / Math.max(1, pairs)).toFixed(2)}%), ${seconds} s`);
console.log(`block check (reject-all's blocks the base's, accept-all's the next version's): ${blockFailures} of ${pairs} pairs failing`);
if (VALIDATE > 0) console.log(`schema (ooxml-validate.py --new), every ${VALIDATE}th pair: ${validated} checked, ${invalid} with new errors`);
if (shapes.size) {
  console.log('failing shapes (count):');
  for (const [s, n] of [...shapes].sort((a, b) => b[1] - a[1])) console.log(`  ${n} x ${s}`);
}
if (blockShapes.size) {
  console.log('pairs failing the block check, by base and edits (count):');
  for (const [s, n] of [...blockShapes].sort((a, b) => b[1] - a[1])) console.log(`  ${n} x ${s}`);
}

/** Schema errors the next version or an output adds to what the base (and the next version) had. */
function schemaErrors(base: Uint8Array, newer: Uint8Array, outputs: { compared: Uint8Array; untracked: Uint8Array }): string[] {
  const file = (name: string, bytes: Uint8Array): string => {
    const f = path.join(dir, name);
    writeFileSync(f, bytes);
    return f;
  };
  const b = file('base.docx', base);
  const n = file('newer.docx', newer);
  const out: string[] = [];
  for (const [label, args] of [
    ['next version', [b, n]],
    ['compare output', [b, n, file('compared.docx', outputs.compared)]],
    ['untracked output', [b, n, file('untracked.docx', outputs.untracked)]],
  ] as const) {
    const r = spawnSync('python3', [VALIDATOR, '--new', ...args], { encoding: 'utf8' });
    if (r.status !== 0) out.push(`${label}: schema: ${(r.stdout || r.stderr).trim().split('\n').slice(0, 3).join('; ')}`);
  }
  return out;
}
