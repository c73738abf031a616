/**
 * The reading model on the shared corpus (issue 25): for every file and view, the text of the
 * body's blocks in order is the text of the document that view stands for: the engine's
 * accept-all for "accepted", its reject-all for "rejected", the draft itself (deleted text
 * included) for "markup", each read by an oracle of its own (test/conformance/reading-oracle.ts,
 * straight from the XML with fflate). Every change located in the markup view is a listed
 * revision with the listing's kind, author and date (and group, where the listing gives one), and
 * every listed revision of the body's text is located in some block. Block ids are unique, and
 * reading the same content twice gives the same ids and versions.
 */
import { describe, expect, it } from 'vitest';
import type { Block, ParagraphBlock } from '../../src/contract/reading';
import { openDocx } from '../../src/docx/index';
import { bodyParagraphTexts } from './reading-oracle';
import { corpusFileNames, lacksShared, readCorpusFile } from '../support/shared-corpus';

const HAS_CORPUS = !lacksShared('reading model on the corpus', 'files');

function paragraphsOf(blocks: readonly Block[]): ParagraphBlock[] {
  return blocks.flatMap((b) => (b.type === 'paragraph' ? [b] : b.rows.flatMap((r) => r.cells.flatMap((c) => paragraphsOf(c.blocks)))));
}

/** Compared without tabs and breaks, and without empty paragraphs (the oracle reads w:t-like text only). */
const comparable = (texts: readonly string[]) => texts.map((t) => t.replace(/[\t\n]/g, '')).filter((t) => t.trim() !== '');

describe.skipIf(!HAS_CORPUS)('reading model on the corpus', () => {
  const files = corpusFileNames();

  it.each(files)('%s: every view reads as the document it stands for', (file) => {
    const bytes = readCorpusFile(file);
    const draft = openDocx(bytes);
    const listing = new Map(draft.revisions().map((r) => [r.change_id, r]));
    const ids = draft.changeIds();
    const views = {
      markup: { doc: draft, bytes: draft.toBytes() },
      accepted: (() => { const d = openDocx(bytes).apply({ accept: ids, reject: [] }); return { doc: d, bytes: d.toBytes() }; })(),
      rejected: (() => { const d = openDocx(bytes).apply({ accept: [], reject: ids }); return { doc: d, bytes: d.toBytes() }; })(),
    };
    for (const [view, { doc, bytes: viewBytes }] of Object.entries(views)) {
      const blocks = doc.blocks();
      const body = paragraphsOf(blocks).filter((p) => p.story === 'body');
      expect(comparable(body.map((p) => p.text)), `${view} text`).toEqual(comparable(bodyParagraphTexts(viewBytes, { deleted: view === 'markup' })));
      const all = paragraphsOf(blocks);
      expect(new Set(all.map((p) => p.id)).size, `${view}: unique block ids`).toBe(all.length);
      expect(openDocx(viewBytes).blocks(), `${view}: the same read twice`).toEqual(blocks);
      if (view !== 'markup') expect(all.flatMap((p) => p.changes ?? []), `${view}: no change left`).toEqual([]);
    }

    const located = new Set<string>();
    for (const p of paragraphsOf(draft.blocks())) {
      for (const c of p.changes ?? []) {
        const revision = listing.get(c.change_id);
        expect(revision, `${c.change_id} is a listed revision`).toBeDefined();
        expect({ kind: c.kind, author: c.author, date: c.date }).toEqual({ kind: revision!.kind, author: revision!.author ?? null, date: revision!.date ?? null });
        const listedGroup = (revision as { group?: string }).group;
        if (listedGroup !== undefined) expect(c.group).toBe(listedGroup);
        expect(c.start).toBeLessThanOrEqual(c.end);
        expect(c.end).toBeLessThanOrEqual(p.text.length);
        located.add(c.change_id);
      }
    }
    // Every change of the text is located (styles and numbering changes have no place in it;
    // table, row and cell changes are listed on their table, rows and cells).
    const onContainers = new Set(collectContainerChanges(draft.blocks()));
    for (const r of listing.values()) {
      if (r.document_wide) continue;
      expect(located.has(r.change_id) || onContainers.has(r.change_id), `${r.change_id} (${r.kind}) is located`).toBe(true);
    }
  });
});

function collectContainerChanges(blocks: readonly Block[]): string[] {
  return blocks.flatMap((b) => (b.type === 'paragraph' ? [] : [
    ...(b.changeIds ?? []),
    ...b.rows.flatMap((r) => [...(r.changeIds ?? []), ...r.cells.flatMap((c) => [...(c.changeIds ?? []), ...collectContainerChanges(c.blocks)])]),
  ]));
}
