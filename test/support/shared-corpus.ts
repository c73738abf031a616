import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The one way tests reach the shared folder beside the clone (../shared: the real-file corpus and
 * its tools), which a fresh clone does not have. The README promises that tests needing it skip
 * with a message when it is absent: every test asks here, gets paths that exist or a skip with
 * that message, and never fails for want of the folder. CI runs the tests that import this module
 * a second time from a copy of the checkout with no ../shared beside it (.ci/run, listed by
 * list-shared-tests.ts), so the newcomer's path cannot break unseen.
 */

/** The corpus: REDLINE_CORPUS, else ../shared/corpus beside the clone. */
export const CORPUS_DIR = process.env.REDLINE_CORPUS ?? path.resolve(process.cwd(), '../shared/corpus');
/** The shared tools (ooxml-validate.py, lo-accept-reject.sh, doctext.py), beside the corpus. */
export const SHARED_TOOLS_DIR = path.resolve(CORPUS_DIR, '../tools');
/** The corpus's .docx files. */
export const CORPUS_FILES_DIR = path.join(CORPUS_DIR, 'files');

const told = new Set<string>();

/** Why a test skips: what it needed and where it looked, as the README says it will. */
export function sharedAbsentMessage(what: string, missing: readonly string[]): string {
  return `${what} skipped: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} absent ` +
    '(the shared corpus and tools beside the clone, ../shared, or REDLINE_CORPUS; see the README)';
}

/**
 * Whether `what` must skip because the shared folder lacks one of `needs` (paths under the corpus,
 * e.g. 'files' or 'compare/PAIRS.tsv'; '../tools/x' for a tool). Says so once per test when it does.
 */
export function lacksShared(what: string, ...needs: string[]): boolean {
  const missing = needs.map((n) => path.resolve(CORPUS_DIR, n)).filter((p) => !existsSync(p));
  if (missing.length > 0 && !told.has(what)) {
    told.add(what);
    console.log(sharedAbsentMessage(what, missing));
  }
  return missing.length > 0;
}

/** A path under the corpus (or '../tools/...'), whether or not it is there: ask `lacksShared` first. */
export function sharedPath(relative: string): string {
  return path.resolve(CORPUS_DIR, relative);
}

/** A shared tool's path (`ooxml-validate.py`), whether or not it is there. */
export function sharedTool(name: string): string {
  return path.join(SHARED_TOOLS_DIR, name);
}

/** The names of the corpus's .docx files, sorted; none when the corpus is absent. */
export function corpusFileNames(): string[] {
  if (!existsSync(CORPUS_FILES_DIR)) return [];
  return readdirSync(CORPUS_FILES_DIR).filter((f) => f.endsWith('.docx') && !f.startsWith('.~lock')).sort();
}

/** A corpus file's bytes by name. */
export function readCorpusFile(name: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(CORPUS_FILES_DIR, name)));
}

/**
 * The test files (Vitest's: *.test.ts under test/ and src/) that read the shared folder: those
 * that import this module, directly or through a helper that does (written-outputs.ts). Found by
 * their imports, so a new such test is in CI's list the day it is written.
 */
export function testsReadingShared(root: string): string[] {
  const sources = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules') walk(rel);
      else if (entry.name.endsWith('.ts')) sources.set(rel, readFileSync(path.join(root, rel), 'utf8'));
    }
  };
  for (const dir of ['test', 'src']) if (existsSync(path.join(root, dir))) walk(dir);
  const reading = new Set(['shared-corpus']);
  const importsReading = (source: string) => [...source.matchAll(/from '([^']+)'/g)].some((m) => reading.has(path.basename(m[1]!).replace(/\.ts$/, '')));
  for (let grew = true; grew;) {
    grew = false;
    for (const [rel, source] of sources) {
      const name = path.basename(rel, '.ts');
      if (!reading.has(name) && importsReading(source)) {
        reading.add(name);
        grew = true;
      }
    }
  }
  return [...sources.keys()].filter((rel) => rel.endsWith('.test.ts') && reading.has(path.basename(rel, '.ts'))).sort();
}
