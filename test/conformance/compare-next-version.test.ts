/**
 * Issue 26's property, a few seeds in CI (many in `npm run bench:compare-fuzz`): for every base
 * (each file of ../shared/corpus/files as accepted, each older file of ../shared/corpus/compare),
 * a seeded next version edited without tracking (test/conformance/next-version.ts: words replaced,
 * deleted and inserted, paragraphs copied out of cells, content controls and text boxes, deleted,
 * split and joined, rows inserted and deleted, cells edited). The comparison's accept-all is the
 * next version and its reject-all the base, paragraph for paragraph, empty paragraphs included, and
 * block for block (each paragraph in the container it stood in: blockProblems); the untracked
 * check keeps the same contract and finds the edits. A sample of next versions and
 * outputs adds no schema error (../shared/tools/ooxml-validate.py --new).
 */
import { describe, expect, it } from 'vitest';
import { checkNextVersion, corpusBases } from './next-version-check';
import { nextVersion } from './next-version';
import { wordControlBases } from './word-control-bases';
import { loneParagraphPairs } from './lone-paragraph-pairs';
import { compareDocx } from '../../src/docx/index';
import { blockProblems, checkContract, decideAll } from '../support/compare-contract';
import { CORPUS_DIR, lacksShared, sharedTool } from '../support/shared-corpus';
import { SchemaBatch, schemaCheckMissing } from './schema-check';

const VALIDATOR = sharedTool('ooxml-validate.py');
const HAS_CORPUS = !lacksShared('next-version property', 'files');
const HAS_XMLLINT = schemaCheckMissing(VALIDATOR) === null;
const SEEDS = [1, 2];

/**
 * Issue 34 item 3: the four shapes real next versions still failed on (checkboxes nested in a
 * rich-text control, nested repeating sections, a run-level repeating section, a floating picture
 * anchored in a cell), built with Word's own markup (word-control-bases.ts), over many seeds: a
 * failure there is rare per pair (19 of 800 pairs of seeds 1-200 before the fix; seeds 14, 16 and
 * 33 of the anchored-picture document among them), so two seeds would not see it. Needs no corpus.
 */
describe('compare property: next versions of documents built with Word\'s content-control and anchor markup', () => {
  it('the comparison and the untracked check give back both versions exactly, seeds 1-60 of each', () => {
    const failing: string[] = [];
    const blocksFailing: string[] = [];
    let pairs = 0;
    for (const base of wordControlBases()) {
      for (let seed = 1; seed <= 60; seed++) {
        const outcome = checkNextVersion(base.bytes, seed);
        if (!outcome.edits) continue;
        pairs++;
        const name = `${base.name} seed ${seed} (${outcome.edits.map((e) => `${e.kind} ${e.where}`).join('; ')})`;
        if (outcome.problems.length) failing.push(`${name}: ${outcome.problems.join('; ')}`);
        if (outcome.blocks.length && !betweenTables(base.name, outcome.blocks)) blocksFailing.push(`${name}: ${outcome.blocks.join('; ')}`);
      }
    }
    console.log(`Word-markup bases: ${pairs} generated pairs, ${failing.length} failing, ${blocksFailing.length} failing the block check`);
    expect(failing).toEqual([]);
    expect(blocksFailing).toEqual([]);
    expect(pairs).toBeGreaterThan(200);
  }, 300_000);
});

/**
 * The one shape whose blocks reject-all does not give back (controls.ts, amongControls): the empty
 * paragraph the anchored-picture document has between a table and a control that starts with a
 * table, deleted. Beside the control the engine could not take it away on accept (joins.ts: two
 * tables would stand together, counted through a control's edge), so the comparison leaves it
 * inside the control, before its table, where reject-all gives it back. Only that difference.
 */
function betweenTables(base: string, blocks: readonly string[]): boolean {
  return base.startsWith('shape: anchored pictures') && blocks.every((b) => b.includes('reject-all\'s blocks differ') && b.includes('got "control", want "p: "'));
}

describe('compare property: the block check on next versions of documents built with Word\'s markup', () => {
  it('knows the one shape it lets pass', () => {
    expect(betweenTables('shape: anchored pictures in cells (Word markup)', ['compare: reject-all\'s blocks differ: block 12: got "control", want "p: " (after "x"; 32 vs 32 lines)'])).toBe(true);
    expect(betweenTables('shape: anchored pictures in cells (Word markup)', ['compare: accept-all\'s blocks differ: block 12: got "control", want "p: " (after "x"; 32 vs 32 lines)'])).toBe(false);
    expect(betweenTables('shape: checkboxes in rich-text controls (Word markup)', ['compare: reject-all\'s blocks differ: block 12: got "control", want "p: "'])).toBe(false);
  });
});

/**
 * Issue 34 item 3's last shape (lone-paragraph-pairs.ts): a paragraph one version has alone beside
 * a content control (between a control and a table, between two controls, first before a control,
 * after a control ending its container), every combination of neighbours, container and paragraph,
 * inserted and deleted. Before the engine took such a paragraph away whole (joins.ts,
 * standsAlone), 239 of the 480 pairs (every inserted one but one) came back from reject-all with
 * the paragraphs left empty; needs no corpus.
 */
describe('compare property: a paragraph alone beside a content control, built with Word\'s markup', () => {
  const DATE = '2025-05-01T00:00:00Z';
  const pairs = loneParagraphPairs();

  it('the comparison and the untracked check give back both versions exactly, every pair', () => {
    const failing: string[] = [];
    const failingPairs = new Set<string>();
    for (const { name, older, newer } of pairs) {
      const compared = compareDocx(older, newer, { date: DATE });
      const untracked = compareDocx(older, newer, { view: 'rejected', keepNewerRevisions: true, author: 'Untracked edit', date: DATE });
      const comparedContract = checkContract(older, newer, compared.bytes);
      const untrackedContract = checkContract(older, newer, untracked.bytes);
      const problems = [
        ...comparedContract.problems.map((p) => `compare: ${p}`),
        ...untrackedContract.problems.map((p) => `untracked check: ${p}`),
        ...(!compared.differences.length || !untracked.differences.length ? ['no difference found'] : []),
        // Blocks as well as paragraphs (controls, tables, rows and cells): the paragraph contract
        // cannot see a deleted paragraph coming back inside the control it stood beside (191 of
        // the 240 deleted pairs before controls.ts's amongControls).
        ...blockProblems(older, newer, comparedContract).map((p) => `compare: ${p}`),
        ...blockProblems(older, newer, untrackedContract).map((p) => `untracked check: ${p}`),
      ];
      for (const p of problems) failing.push(`${name}: ${p}`);
      if (problems.length) failingPairs.add(name);
    }
    console.log(`Lone paragraphs beside controls: ${pairs.length} generated pairs, ${failingPairs.size} failing`);
    expect(failing).toEqual([]);
    expect(pairs.length).toBe(480);
  }, 300_000);

  it.skipIf(!HAS_XMLLINT)('the pairs, both outputs and the comparison decided all one way add no schema error (every fifth pair)', () => {
    const batch = new SchemaBatch(VALIDATOR);
    for (const { name, older, newer } of pairs.filter((_, i) => i % 5 === 0)) {
      const compared = compareDocx(older, newer, { date: DATE }).bytes;
      batch.add(`${name} newer`, newer, [older]);
      batch.add(`${name} comparison`, compared, [older, newer]);
      batch.add(`${name} untracked check`, compareDocx(older, newer, { view: 'rejected', keepNewerRevisions: true, date: DATE }).bytes, [older, newer]);
      batch.add(`${name} reject-all`, decideAll(compared, 'reject'), [older]);
      batch.add(`${name} accept-all`, decideAll(compared, 'accept'), [newer]);
    }
    expect(Object.fromEntries(batch.run())).toEqual({});
  }, 300_000);
});

describe.skipIf(!HAS_CORPUS)('compare property: next versions of real documents edited without tracking', () => {
  const bases = HAS_CORPUS ? corpusBases(CORPUS_DIR) : [];

  it('the comparison and the untracked check give back both versions exactly, blocks included, and find the edits', () => {
    const failing: string[] = [];
    let pairs = 0;
    for (const seed of SEEDS) {
      for (const base of bases) {
        const outcome = checkNextVersion(base.bytes, seed);
        if (!outcome.edits) continue;
        pairs++;
        const problems = [...outcome.problems, ...(betweenTables(base.name, outcome.blocks) ? [] : outcome.blocks)];
        if (problems.length) failing.push(`${base.name} seed ${seed} (${outcome.edits.map((e) => `${e.kind} ${e.where}`).join('; ')}): ${problems.join('; ')}`);
      }
    }
    expect(failing).toEqual([]);
    expect(pairs).toBeGreaterThan(bases.length);
  }, 180_000);

  it('generates each kind of edit, and a copy out of a cell, a content control and a text box', () => {
    const kinds = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      for (const base of bases) {
        for (const e of nextVersion(base.bytes, seed)?.edits ?? []) {
          kinds.add(e.kind);
          if (e.kind === 'copy-paragraph') for (const from of ['tc', 'sdt', 'txbxContent']) if (e.where.split(' -> ')[0]!.includes(from)) kinds.add(`copy from ${from}`);
        }
      }
    }
    expect([...kinds].sort()).toEqual(
      ['copy from sdt', 'copy from tc', 'copy from txbxContent', 'copy-paragraph', 'delete-paragraph', 'delete-row', 'delete-word', 'edit-cell', 'insert-row', 'insert-word', 'join-paragraphs', 'replace-word', 'split-paragraph'].sort(),
    );
  }, 120_000);

  it.skipIf(!HAS_XMLLINT)('next versions and both outputs add no schema error (a sample)', () => {
    // Every twentieth base, seed 1, all checked in one Python process (SchemaBatch): one process
    // per check paid Python's start and xmllint's schema load (wml.xsd) three times per base.
    const batch = new SchemaBatch(VALIDATOR);
    for (const base of bases.filter((_, i) => i % 20 === 0)) {
      const outcome = checkNextVersion(base.bytes, 1);
      if (!outcome.newer || !outcome.outputs) continue;
      batch.add(`${base.name} next version`, outcome.newer, [base.bytes]);
      batch.add(`${base.name} comparison`, outcome.outputs.compared, [base.bytes, outcome.newer]);
      batch.add(`${base.name} untracked check`, outcome.outputs.untracked, [base.bytes, outcome.newer]);
    }
    expect(batch.size).toBeGreaterThan(0);
    expect(Object.fromEntries(batch.run())).toEqual({});
  }, 300_000);
});
