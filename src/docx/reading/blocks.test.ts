import { describe, expect, it } from 'vitest';
import type { Block, ParagraphBlock } from '../../contract/reading';
import { EditAnchorError, openDocx } from '../index';
import { buildDocx, by, del, field, footnote, heading, ins, p, type TableSpec } from '../fixture';

/** A plain table of one-paragraph cells. */
function table(rows: readonly string[][]): TableSpec {
  return { type: 'table', grid: rows[0]!.map(() => 2000), rows: rows.map((cells) => ({ cells: cells.map((content) => ({ content })) })) };
}

const alex = by('Alex', '2025-03-01T10:00:00Z');
const sam = by('Sam', '2025-03-02T10:00:00Z');

function paragraphs(blocks: readonly Block[]): ParagraphBlock[] {
  return blocks.flatMap((b) => (b.type === 'paragraph' ? [b] : b.rows.flatMap((r) => r.cells.flatMap((c) => paragraphs(c.blocks)))));
}

function read(bytes: Uint8Array) {
  return paragraphs(openDocx(bytes).blocks());
}

describe('reading model: blocks', () => {
  it('reads visible text: field results not codes, tabs and breaks, no note reference marks; headings and styles', () => {
    const bytes = buildDocx({
      body: [
        heading(1, 'Payment'),
        p('Due in\tthirty days', footnote(p('From the invoice date.')), ' (page ', field('PAGE', '3'), ').'),
      ],
    });
    const [h, body, note] = read(bytes);
    expect(h).toMatchObject({ text: 'Payment', heading: 1, story: 'body' });
    expect(body!.text).toBe('Due in\tthirty days (page 3).');
    expect(note).toMatchObject({ text: 'From the invoice date.', story: 'footnote' });
  });

  it('locates each change in the markup text, deleted text included, with the listing\'s author and date', () => {
    const doc = openDocx(buildDocx({ body: [p('Fees are due in ', del(alex, 'sixty'), ins(sam, 'thirty'), ' days.')] }));
    const [block] = paragraphs(doc.blocks());
    expect(block!.text).toBe('Fees are due in sixtythirty days.');
    const changes = block!.changes!;
    const revisions = doc.revisions();
    expect(changes.map((c) => c.change_id).sort()).toEqual(revisions.map((r) => r.change_id).sort());
    const deletion = changes.find((c) => c.kind === 'delete')!;
    const insertion = changes.find((c) => c.kind === 'insert')!;
    expect(block!.text.slice(deletion.start, deletion.end)).toBe('sixty');
    expect(block!.text.slice(insertion.start, insertion.end)).toBe('thirty');
    expect(deletion).toMatchObject({ author: 'Alex', date: '2025-03-01T10:00:00Z' });
    expect(insertion).toMatchObject({ author: 'Sam' });
  });

  it('keeps block ids across decisions that do not touch the block, and changes the version of a block that is touched', () => {
    const bytes = buildDocx({
      body: [
        p('Clause one stays as it is.'),
        p('Clause two: ', del(alex, 'old'), ins(alex, 'new'), ' terms.'),
        p('Clause three stays too.'),
        table([['Cell text', 'Other cell']]),
      ],
    });
    const doc = openDocx(bytes);
    const before = paragraphs(doc.blocks());
    doc.apply({ accept: doc.changeIds(), reject: [] });
    const after = paragraphs(doc.blocks());
    expect(after.map((b) => b.id)[0]).toBe(before[0]!.id);
    expect(after.map((b) => b.id).slice(2)).toEqual(before.map((b) => b.id).slice(2));
    expect(after[0]!.version).toBe(before[0]!.version);
    expect(after[1]!.text).toBe('Clause two: new terms.');
    expect(after[1]!.version).not.toBe(before[1]!.version);
    // Re-reading the same content gives the same ids and versions.
    expect(paragraphs(openDocx(doc.toBytes()).blocks())).toEqual(after);
  });

  it('reads tables as rows of cells of blocks with ids of their own', () => {
    const blocks = openDocx(buildDocx({ body: [table([['A1', 'B1'], ['A2', 'B2']])] })).blocks();
    const t = blocks.find((b) => b.type === 'table');
    expect(t?.type).toBe('table');
    if (t?.type !== 'table') return;
    expect(t.rows.map((r) => r.cells.map((c) => (c.blocks[0] as ParagraphBlock).text))).toEqual([['A1', 'B1'], ['A2', 'B2']]);
    expect(new Set(t.rows.flatMap((r) => [r.id, ...r.cells.map((c) => c.id)])).size).toBe(6);
  });
});

describe('anchored redline edits', () => {
  const contract = () => buildDocx({
    body: [p('The term is one year.'), p('Notice: thirty days, or thirty days after the invoice.'), p('Governing law: England.')],
  });

  it('edits only inside the named block, and refuses ambiguous, absent and stale anchors without changing anything', () => {
    const doc = openDocx(contract());
    const [, notice] = paragraphs(doc.blocks());
    const bytes = doc.toBytes();
    const refused = (edit: Parameters<typeof doc.writeRedlines>[0][number]) => {
      try {
        doc.writeRedlines([edit], { author: 'AI', date: '2025-04-01T00:00:00Z' });
      } catch (error) {
        expect(doc.toBytes()).toBe(bytes);
        return error as EditAnchorError;
      }
      throw new Error('the edit was not refused');
    };
    const ambiguous = refused({ op: 'replace', blockId: notice!.id, find: 'thirty days', text: 'sixty days' });
    expect(ambiguous).toBeInstanceOf(EditAnchorError);
    expect(ambiguous.problem).toBe('ambiguous_anchor');
    expect(ambiguous.candidates.map((c) => c.occurrence)).toEqual([1, 2]);
    expect(refused({ op: 'delete', blockId: notice!.id, find: 'one year' }).problem).toBe('anchor_not_found');
    const caseOnly = refused({ op: 'delete', blockId: notice!.id, find: 'THIRTY' });
    expect(caseOnly.problem).toBe('anchor_not_found');
    expect(caseOnly.candidates).toHaveLength(2);
    expect(refused({ op: 'delete', blockId: 'nope', find: 'x' }).problem).toBe('block_not_found');
    expect(refused({ op: 'delete', blockId: notice!.id, blockVersion: 'old', find: 'Notice' }).problem).toBe('stale_anchor');

    const [change] = doc.writeRedlines([{ op: 'replace', blockId: notice!.id, blockVersion: notice!.version, find: 'thirty days', occurrence: 2, text: 'sixty days' }], { author: 'AI', date: '2025-04-01T00:00:00Z' });
    doc.apply({ accept: change!.changeIds, reject: [] });
    expect(paragraphs(doc.blocks())[1]!.text).toBe('Notice: thirty days, or sixty days after the invoice.');
  });

  it('inserts a clause after a block with its style, deletes and replaces whole paragraphs; reject-all gives the original back', () => {
    const original = buildDocx({ body: [heading(1, 'Term'), p('The term is one year.'), p('Renewal is automatic.'), p('Governing law: England.')] });
    const doc = openDocx(original);
    const [title, term, renewal, law] = paragraphs(doc.blocks());
    const opts = { author: 'AI', date: '2025-04-01T00:00:00Z' };
    doc.writeRedlines([
      { op: 'insert_paragraph', blockId: title!.id, text: 'Termination' },
      { op: 'delete_paragraph', blockId: renewal!.id },
      { op: 'replace_paragraph', blockId: law!.id, text: 'Governing law: the laws of Ireland.' },
      { op: 'insert_paragraph', blockId: term!.id, text: 'Either party may end it on notice.' },
    ], opts);
    const ids = doc.changeIds();
    const accepted = openDocx(doc.toBytes()).apply({ accept: ids, reject: [] });
    expect(read(accepted.toBytes()).map((b) => [b.text, b.heading ?? null])).toEqual([
      ['Term', 1], ['Termination', 1], ['The term is one year.', null], ['Either party may end it on notice.', null],
      ['Governing law: the laws of Ireland.', null],
    ]);
    const rejected = openDocx(doc.toBytes()).apply({ accept: [], reject: ids });
    expect(read(rejected.toBytes()).map((b) => [b.text, b.heading ?? null, b.style ?? null]))
      .toEqual(read(original).map((b) => [b.text, b.heading ?? null, b.style ?? null]));
  });
});
