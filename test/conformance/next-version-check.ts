import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { compareDocx, openDocx } from '../../src/docx/index';
import { blockProblems, checkContract, contractText, decideAll } from '../support/compare-contract';
import { nextVersion, type Edit } from './next-version';
import { shapeBases } from './next-version-bases';
import { wordControlBases } from './word-control-bases';

/**
 * The next-version property of issue 26, for the test and bench/compare-fuzz.ts: a base document
 * (a corpus file's accept-all, or an older file of the comparison pairs), a seeded next version of
 * it edited without tracking, and both comparisons the service runs on them:
 * - the comparison (accepted views): accept-all gives the next version and reject-all the base,
 *   paragraph for paragraph, empty paragraphs and cells included;
 * - the untracked check (rejected views, keepNewerRevisions): the same contract, and it reports
 *   a difference whenever the text changed.
 */
const DATE = '2025-05-01T00:00:00Z';

export interface Base {
  name: string;
  bytes: Uint8Array;
}

/**
 * The bases: every corpus file's accept-all, the older files of the comparison pairs (as
 * accepted), and the small documents of next-version-bases.ts (constructs the corpus has few of).
 */
export function corpusBases(corpus: string): Base[] {
  const out: Base[] = [];
  const add = (name: string, file: string): void => {
    try {
      const raw = new Uint8Array(readFileSync(file));
      openDocx(raw);
      out.push({ name, bytes: decideAll(raw, 'accept') });
    } catch {
      // A file the engine refuses (the corpus holds some on purpose).
    }
  };
  const files = path.join(corpus, 'files');
  if (existsSync(files)) for (const f of readdirSync(files).filter((x) => x.endsWith('.docx')).sort()) add(f, path.join(files, f));
  const pairs = path.join(corpus, 'compare', 'PAIRS.tsv');
  if (existsSync(pairs)) {
    const olders = new Set(readFileSync(pairs, 'utf8').trim().split('\n').slice(1).map((l) => l.split('\t')[1]!));
    for (const o of [...olders].sort()) add(`compare/${o}`, path.join(corpus, 'compare', 'files', o));
  }
  return [...out, ...shapeBases(), ...wordControlBases()];
}

export interface Outcome {
  /** Null when the generator found no place to edit. */
  edits: Edit[] | null;
  newer?: Uint8Array;
  outputs?: { compared: Uint8Array; untracked: Uint8Array };
  problems: string[];
  /** Where accept-all's or reject-all's blocks stand in other containers than the next version's or the base's (blockProblems). */
  blocks: string[];
}

export function checkNextVersion(base: Uint8Array, seed: number): Outcome {
  const next = nextVersion(base, seed);
  if (!next) return { edits: null, problems: [], blocks: [] };
  const problems: string[] = [];
  const blocks: string[] = [];
  const changed = contractText(base).join('\u0000') !== contractText(next.bytes).join('\u0000');
  const compared = compareDocx(base, next.bytes, { date: DATE });
  const comparedContract = checkContract(base, next.bytes, compared.bytes);
  for (const p of comparedContract.problems) problems.push(`compare: ${p}`);
  for (const p of blockProblems(base, next.bytes, comparedContract)) blocks.push(`compare: ${p}`);
  const untracked = compareDocx(base, next.bytes, { view: 'rejected', keepNewerRevisions: true, author: 'Untracked edit', date: DATE });
  const untrackedContract = checkContract(base, next.bytes, untracked.bytes);
  for (const p of untrackedContract.problems) problems.push(`untracked check: ${p}`);
  for (const p of blockProblems(base, next.bytes, untrackedContract)) blocks.push(`untracked check: ${p}`);
  if (changed && !untracked.differences.length) problems.push('untracked check: found no edit');
  if (changed && !compared.differences.length) problems.push('compare: found no difference');
  return { edits: next.edits, newer: next.bytes, outputs: { compared: compared.bytes, untracked: untracked.bytes }, problems, blocks };
}
