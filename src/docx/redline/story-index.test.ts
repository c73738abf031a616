import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildBenchmarkContract, buildDemoContract } from '../fixture';
import { DocxPackage } from '../package/package';
import { readBlockIndex } from '../reading/blocks';
import { groupChanges } from '../revisions/changes';
import { scanPart } from '../revisions/sites';
import { serializeXml } from '../xml/serialize';
import { walk, type XmlElement } from '../xml/tree';
import { PartStory, SEARCHED_ROLES, StoryIndex } from './story-index';
import { writeRedlinesIn, type RedlineEdit } from './write';
import { minimalDocx, r } from '../../../test/support/docx-files';

/** The reference: every lookup reads its part's story afresh from the tree, as each edit did before the index. */
class ReadAfresh extends StoryIndex {
  protected override storyOf(root: XmlElement): PartStory {
    return new PartStory(root);
  }
}

const opts = { author: 'Property', date: '2026-01-01T00:00:00Z' };

/** A document opened as the engine opens it: its parts, their scans and its block index. */
function opened(bytes: Uint8Array) {
  const pkg = DocxPackage.open(bytes);
  const scans = pkg.stories().map(({ part, doc }) => scanPart(part.name, part.role, doc));
  const blocks = readBlockIndex({ scans, changes: groupChanges(scans), styles: null, info: new Map() });
  return { pkg, scans, blocks };
}

/** Writes the batch with the given stories; the written parts (or the refusal) are the outcome. */
function outcome(bytes: Uint8Array, edits: RedlineEdit[], stories: (scans: ReturnType<typeof opened>['scans']) => StoryIndex): { parts: Map<string, string>; result: unknown } {
  const { pkg, scans, blocks } = opened(bytes);
  let result: unknown;
  try {
    result = writeRedlinesIn(scans, edits, opts, () => blocks, stories(scans)).changes;
  } catch (error) {
    result = { refused: (error as Error).name, message: (error as Error).message };
  }
  const parts = new Map(pkg.stories().map(({ part, doc }) => [part.name, serializeXml(doc)]));
  return { parts, result };
}

/** One random edit, described by numbers and made concrete on the draft's paragraphs (below). */
const editPick = fc.record({
  op: fc.constantFrom('replace', 'insert', 'delete', 'insert_paragraph', 'delete_paragraph', 'replace_paragraph'),
  anchored: fc.boolean(),
  block: fc.nat(),
  start: fc.nat(),
  length: fc.integer({ min: 1, max: 30 }),
  /** An unanchored find reaches into the next paragraph ("\n" for the boundary). */
  across: fc.boolean(),
  /** An unanchored find starts with the boundary before its paragraph ("\n" then its first letters). */
  lead: fc.boolean(),
  before: fc.boolean(),
  /** New text: random, or words the drafts hold (so later finds may match in it). */
  text: fc.oneof(fc.stringMatching(/^[a-z \t\n]{0,12}$/), fc.constantFrom('one', 'Boxed ', 'two', 'the ', 'e', 'Beta')),
});
type EditPick = typeof editPick extends fc.Arbitrary<infer T> ? T : never;

function firstParagraph(root: XmlElement): XmlElement {
  let found: XmlElement | null = null;
  walk(root, (el) => {
    if (el.name === 'w:p') found ??= el;
    return found === null;
  });
  return found ?? root;
}

/** Concrete edits on the draft: finds taken from the paragraphs' searchable text (they may no longer match once earlier edits land). */
function concrete(bytes: Uint8Array, picks: EditPick[]): RedlineEdit[] {
  const { scans, blocks } = opened(bytes);
  const index = new StoryIndex(scans);
  const editable = [...blocks].flatMap(([id, ref]) => {
    const placed = index.place(ref.el);
    if (!placed?.story || placed.at < 0 || !SEARCHED_ROLES.has(placed.role)) return [];
    const story = placed.story;
    const text = story.window(placed.at, Math.min(placed.at + 1, story.whole().paragraphs.length - 1)).text;
    return [{ id, own: story.window(placed.at, placed.at).text, withNext: text }];
  });
  const everywhere = scans.filter((s) => SEARCHED_ROLES.has(s.role)).map((s) => index.place(firstParagraph(s.doc.root))?.story?.whole().text ?? '');
  const occurrences = (find: string) => everywhere.reduce((n, text) => n + text.split(find).length - 1, 0);
  return picks.map((pick): RedlineEdit => {
    const block = editable[pick.block % editable.length]!;
    if (pick.op === 'insert_paragraph' || pick.op === 'delete_paragraph' || pick.op === 'replace_paragraph') {
      return { op: pick.op, blockId: block.id, ...(pick.op === 'delete_paragraph' ? {} : { text: pick.text }) };
    }
    const source = pick.anchored || !pick.across ? block.own : block.withNext;
    const start = source.length ? pick.start % source.length : 0;
    const find = !pick.anchored && pick.lead ? `\n${block.own.slice(0, pick.length)}` : source.slice(start, start + pick.length) || 'x';
    const position = pick.before ? 'before' as const : 'after' as const;
    if (pick.anchored) {
      const count = block.own.split(find).length - 1;
      return { op: pick.op, blockId: block.id, find, ...(count > 1 ? { occurrence: 1 + (pick.start % count) } : {}), text: pick.text, position };
    }
    return { op: pick.op, find, occurrence: 1 + (pick.start % Math.max(1, occurrences(find))), text: pick.text, position };
  });
}

/** Paragraphs the generators do not make: text boxes (read after their anchor, no boundary to them), markers between paragraphs, cells. */
function boxesAndCells(): Uint8Array {
  const para = (...texts: string[]) => `<w:p>${texts.map((t) => r(t)).join('')}</w:p>`;
  const box = `<w:r><w:pict><v:rect><v:textbox><w:txbxContent>${para('Boxed one')}${para('Boxed two')}</w:txbxContent></v:textbox></v:rect></w:pict></w:r>`;
  const cell = (...texts: string[]) => `<w:tc>${texts.map((t) => para(t)).join('')}</w:tc>`;
  return minimalDocx([
    para('Alpha one ', 'two'),
    `<w:p>${r('Anchor text ')}${box}${r('after the box')}</w:p>`,
    '<w:bookmarkStart w:id="1" w:name="b"/>', para('Beta three'), '<w:bookmarkEnd w:id="1"/>',
    `<w:p>${r('Gamma ')}${box}</w:p>`,
    para('Delta four'),
    `<w:tbl><w:tr>${cell('Cell one', 'Cell two')}${cell('Cell three')}<w:tc><w:p>${r('Boxed in a cell ')}${box}</w:p>${para('Last in the cell')}</w:tc></w:tr></w:tbl>`,
    para('Omega last'),
  ].join(''));
}

describe('the story index of a batch of redline edits', () => {
  const same = (bytes: Uint8Array, picks: EditPick[]) => {
    const edits = concrete(bytes, picks);
    const indexed = outcome(bytes, edits, (scans) => new StoryIndex(scans));
    const afresh = outcome(bytes, edits, (scans) => new ReadAfresh(scans));
    expect(indexed.result).toEqual(afresh.result);
    expect(indexed.parts).toEqual(afresh.parts);
  };

  it('writes exactly the document that reading every story afresh for each edit writes (property, random batches on generated drafts)', () => {
    const drafts = [buildDemoContract(), ...[1, 2, 3].map((seed) => buildBenchmarkContract({ pages: 2, revisions: 30, seed }))];
    fc.assert(fc.property(fc.constantFrom(...drafts.keys()), fc.array(editPick, { minLength: 1, maxLength: 25 }), (which, picks) => same(drafts[which]!, picks)), { numRuns: 60 });
  });

  it('does so around text boxes, markers between paragraphs and table cells too (property)', () => {
    const draft = boxesAndCells();
    fc.assert(fc.property(fc.array(editPick, { minLength: 1, maxLength: 25 }), (picks) => same(draft, picks)), { numRuns: 400 });
  });

  it('puts a paragraph inserted after one anchoring a text box after the box, so the next paragraph joins it (example)', () => {
    const bytes = boxesAndCells();
    const { blocks } = opened(bytes);
    const idOf = (start: string) => [...blocks].find(([, b]) => b.text.startsWith(start))![0];
    // Deleting the last paragraph of the cell deletes the mark before it: the new paragraph's, not the box's.
    const edits: RedlineEdit[] = [{ op: 'insert_paragraph', blockId: idOf('Boxed in'), text: 'new' }, { op: 'delete_paragraph', blockId: idOf('Last') }];
    const indexed = outcome(bytes, edits, (scans) => new StoryIndex(scans));
    expect(indexed.result).toEqual([{ editIndex: 0, changeIds: ['c0', 'c1'] }, { editIndex: 1, changeIds: ['c2', 'c3'] }]);
    expect(indexed).toEqual(outcome(bytes, edits, (scans) => new ReadAfresh(scans)));
  });
});
