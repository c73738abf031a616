import { describe, expect, it } from 'vitest';
import { bodyOf, ins, minimalDocx, r, readPart } from '../../../test/support/docx-files';
import { documentStructure, remainingRevisionMarkup } from '../../../test/conformance/docstructure';
import { structuralProblems } from '../../../test/conformance/validity';
import { planTrial, runTrial } from '../../../test/conformance/decision-trials';
import { buildStructureSample, STRUCTURE_SAMPLES, type StructureSample } from '../fixture';
import { Prng } from '../fixture/prng';
import { ingestDocx, openDocx } from '../index';

/**
 * Issue 17's constructs, each in a fixture: what is listed, and what accept-all and reject-all
 * leave, compared structurally (empty paragraphs, tables, controls, field code), with no revision
 * markup left and the package structurally valid.
 */
const sample = (name: StructureSample) => ingestDocx(buildStructureSample(name)).bytes;

function decideAll(bytes: Uint8Array, mode: 'accept' | 'reject'): Uint8Array {
  const ids = openDocx(bytes).changeIds();
  const out = openDocx(bytes).apply(mode === 'accept' ? { accept: ids, reject: [] } : { accept: [], reject: ids }).toBytes();
  expect(remainingRevisionMarkup(out), `${mode}: revision markup left`).toEqual([]);
  expect(openDocx(out).revisionCount, `${mode}: revisions listed after`).toBe(0);
  expect(structuralProblems(out), `${mode}: structure`).toEqual([]);
  return out;
}

const TABLE = ['table', ' row', '  cell', '   p: Service', '  cell', '   p: Fee', ' row', '  cell', '   p: Hosting', '  cell', '   p: USD 4,000'];

describe('17.1 a paragraph with nothing to join disappears', () => {
  it('on accept: deleted runs and mark before a table, before a table that vanishes, and at the end of the story', () => {
    const bytes = sample('vanishing-paragraph-accept');
    expect(documentStructure(decideAll(bytes, 'accept'))).toEqual(['p: Schedule 1 sets out the fees.', ...TABLE, 'p: Fees are payable monthly.']);
    expect(documentStructure(decideAll(bytes, 'reject'))).toEqual([
      'p: Schedule 1 sets out the fees.', 'p: Fees (draft):', ...TABLE, 'p: Withdrawn fees:', ...TABLE, 'p: Fees are payable monthly.', 'p: This line is withdrawn.',
    ]);
  });

  it('on reject: inserted runs and mark before a table and at the end of the story', () => {
    const bytes = sample('vanishing-paragraph-reject');
    expect(documentStructure(decideAll(bytes, 'reject'))).toEqual(['p: Schedule 1 sets out the fees.', ...TABLE, 'p: Fees are payable monthly.']);
    expect(documentStructure(decideAll(bytes, 'accept'))).toEqual([
      'p: Schedule 1 sets out the fees.', 'p: MODSCH/1', ...TABLE, 'p: Fees are payable monthly.', 'p: An added line.', 'p: Another added line.',
    ]);
  });

  it('gives the same document whether the marks are decided before, after or with the content', () => {
    for (const name of ['vanishing-paragraph-accept', 'vanishing-paragraph-reject'] as const) {
      const bytes = sample(name);
      const revisions = openDocx(bytes).revisions();
      // The rows of the table that vanishes go with the content: a mark decided before them waits for them (joins.ts).
      const marks = revisions.filter((x) => x.kind === 'paragraph_mark').map((x) => x.change_id);
      const rest = revisions.filter((x) => x.kind !== 'paragraph_mark').map((x) => x.change_id);
      for (const accept of [true, false]) {
        const verdict = (ids: string[]) => (accept ? { accept: ids, reject: [] } : { accept: [], reject: ids });
        const once = openDocx(bytes).apply(verdict([...marks, ...rest])).toBytes();
        const marksFirst = openDocx(openDocx(bytes).apply(verdict(marks)).toBytes()).apply(verdict(rest)).toBytes();
        const contentFirst = openDocx(openDocx(bytes).apply(verdict(rest)).toBytes()).apply(verdict(marks)).toBytes();
        expect(bodyOf(marksFirst), `${name} ${accept}: marks first`).toBe(bodyOf(once));
        expect(bodyOf(contentFirst), `${name} ${accept}: content first`).toBe(bodyOf(once));
      }
    }
  });
});

describe('17.2 tracked boundaries of a content control', () => {
  it('lists a deleted and an inserted control as one change each', () => {
    const revisions = openDocx(sample('content-control-ranges')).revisions();
    expect(revisions.map((r) => [r.kind, r.text_preview])).toEqual([
      ['delete', 'Content control removed: Acme Ltd'],
      ['insert', 'Content control inserted: Beta LLC'],
    ]);
  });

  it('decides them as Word does: a deleted control loses the control on accept, an inserted one on reject; content stays', () => {
    const bytes = sample('content-control-ranges');
    expect(documentStructure(decideAll(bytes, 'accept'))).toEqual(['p: Supplier: Acme Ltd.', 'p: Customer: [[Beta LLC]].', 'p: End of parties.']);
    expect(documentStructure(decideAll(bytes, 'reject'))).toEqual(['p: Supplier: [[Acme Ltd]].', 'p: Customer: Beta LLC.', 'p: End of parties.']);
    const [removed, inserted] = openDocx(bytes).changeIds();
    const mixed = openDocx(bytes).apply({ accept: [inserted!], reject: [removed!] }).toBytes();
    expect(documentStructure(mixed)).toEqual(['p: Supplier: [[Acme Ltd]].', 'p: Customer: [[Beta LLC]].', 'p: End of parties.']);
    expect(remainingRevisionMarkup(mixed)).toEqual([]);
  });

  it('lists a moved control with the move it holds, and removes it at the source on accept, at the destination on reject', () => {
    const bytes = sample('moved-content-control');
    const revisions = openDocx(bytes).revisions();
    expect(revisions.map((r) => [r.kind, r.text_preview])).toEqual([['delete', 'Moved: The Supplier shall keep records.']]);
    const control = ['control', ' p: The Supplier shall keep records.'];
    expect(documentStructure(decideAll(bytes, 'accept'))).toEqual(['p: 1. Scope.', 'p: 2. Fees.', ...control, 'p: 3. Term.']);
    expect(documentStructure(decideAll(bytes, 'reject'))).toEqual(['p: 1. Scope.', ...control, 'p: 2. Fees.', 'p: 3. Term.']);
  });

  it('keeps a range start and end paired when ingest renumbers a duplicate id', () => {
    const W = 'w:author="A" w:date="2025-01-01T00:00:00Z"';
    const body =
      `<w:p>${ins(5, r('x'))}<w:customXmlDelRangeStart w:id="5" ${W}/><w:sdt><w:sdtPr/><w:sdtContent><w:customXmlDelRangeEnd w:id="5"/>` +
      `${r('kept')}<w:customXmlDelRangeStart w:id="6" ${W}/></w:sdtContent></w:sdt><w:customXmlDelRangeEnd w:id="6"/></w:p>`;
    const { bytes } = ingestDocx(minimalDocx(body));
    const xml = readPart(bytes);
    const startId = /<w:customXmlDelRangeStart w:id="(\d+)"/.exec(xml)![1];
    expect(startId).not.toBe('5');
    expect(xml).toContain(`<w:customXmlDelRangeEnd w:id="${startId}"/>`);
    expect(openDocx(bytes).revisions().map((x) => x.kind)).toEqual(['insert', 'delete']);
    expect(documentStructure(decideAll(bytes, 'accept'))).toEqual(['p: xkept']);
  });
});

describe('17.3 field code fragments between tracked parts of one field', () => {
  it('lists a field deleted (or inserted) in two parts as one change', () => {
    expect(openDocx(sample('field-fragments')).revisions().map((r) => r.kind)).toEqual(['delete', 'insert']);
  });

  it('removes the whole field with its untracked code on accept of the deletion and on reject of the insertion', () => {
    const bytes = sample('field-fragments');
    expect(documentStructure(decideAll(bytes, 'accept'))).toEqual([
      'p: See note  below.', 'p: Page {PAGE \\* MERGEFORMAT}1 of the schedule.', 'p: End.',
    ]);
    expect(documentStructure(decideAll(bytes, 'reject'))).toEqual([
      'p: See note {NOTEREF _Ref1 \\f \\h \\* MERGEFORMAT}3 below.', 'p: Page  of the schedule.', 'p: End.',
    ]);
  });
});

describe("issue 11's decision properties on issue 17's constructs", () => {
  it('order, batching, halves, deciding everything and the simulation agree on every structure sample', () => {
    let trials = 0;
    for (const name of STRUCTURE_SAMPLES) {
      const bytes = sample(name);
      for (let seed = 0; seed < 12; seed++) {
        const rng = new Prng(seed + 1);
        const plan = planTrial(openDocx(bytes).changeIds(), (n) => Math.floor(rng.next() * n), { decideAll: seed % 2 === 0 });
        expect(runTrial(bytes, plan).failures, `${name}, plan seed ${seed + 1}`).toEqual([]);
        trials++;
      }
    }
    expect(trials).toBe(STRUCTURE_SAMPLES.length * 12);
  });
});
