/**
 * Issue 32 item 4: summaries tell the truth. Every entry's summary (the revisions' group_summary)
 * says counts and verbs its members bear out, on generated drafts (lab-protocol shapes and the
 * decision fixtures) and on every corpus file:
 *   - "Deleted N rows" / "Inserted N rows": N members are deleted / inserted rows;
 *   - "Split '…' into N paragraphs": N - 1 members are inserted paragraph marks; "joined N
 *     paragraphs" and "removed M empty paragraphs": (N - 1) + M members are deleted marks;
 *   - "Replaced" needs a deletion and an insertion, "Inserted" an insertion (of text, whitespace
 *     or a paragraph), "Deleted" a deletion;
 *   - no summary counts paragraph marks of both kinds as one ("Inserted 22 paragraph marks").
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Revision } from '../../src/contract/revision';
import { ingestDocx, listRevisions } from '../../src/docx/index';
import { ingestedDrafts } from '../support/corpus-drafts';
import { corpusFileNames, lacksShared } from '../support/shared-corpus';
import { minimalDocx } from '../support/docx-files';
import { generateFixture } from './decision-fixtures';
import { generateLabProtocol } from './entry-fixtures';

const HAS_CORPUS = !lacksShared('summaries on the corpus', 'files');

/** What the members of one group are, by their own previews and kinds. */
function tally(members: readonly Revision[]) {
  const has = (test: (r: Revision) => boolean) => members.filter(test).length;
  return {
    rowsIn: has((r) => r.text_preview.startsWith('Row inserted')),
    rowsOut: has((r) => r.text_preview.startsWith('Row deleted')),
    marksIn: has((r) => r.kind === 'paragraph_mark' && r.text_preview.startsWith('Paragraph mark inserted')),
    marksOut: has((r) => r.kind === 'paragraph_mark' && r.text_preview.startsWith('Paragraph mark deleted')),
    inserts: has((r) => r.kind === 'insert' && !r.move),
    deletes: has((r) => r.kind === 'delete' && !r.move),
  };
}

const count = (match: RegExpMatchArray | null, one = 1) => (match ? (match[1] ? Number(match[1]) : one) : 0);

/** The mismatches between a group's summary and its members. */
function summaryFailures(revisions: readonly Revision[]): string[] {
  const groups = new Map<string, Revision[]>();
  for (const r of revisions) groups.set(r.group!, [...(groups.get(r.group!) ?? []), r]);
  const out: string[] = [];
  for (const [id, members] of groups) {
    const summary = members[0]!.group_summary!;
    const t = tally(members);
    const fail = (what: string) => out.push(`${id} "${summary}": ${what} (${JSON.stringify(t)})`);
    if (/paragraph marks/.test(summary)) fail('counts paragraph marks');
    const rowsOut = count(summary.match(/^Deleted (?:(\d+) rows|row)\b/));
    const rowsIn = count(summary.match(/(?:^|, )Inserted (?:(\d+) rows|row)\b/));
    if (rowsOut || rowsIn) {
      if (rowsOut !== t.rowsOut || rowsIn !== t.rowsIn) fail(`says ${rowsOut} rows deleted and ${rowsIn} inserted`);
      continue;
    }
    const split = summary.match(/^Split .* into (\d+) paragraphs/i);
    const joined = count(summary.match(/joined (\d+) paragraphs/i));
    const removed = count(summary.match(/removed (?:(\d+) empty paragraphs|an empty paragraph)/i));
    if (split && Number(split[1]) - 1 !== t.marksIn) fail(`says split into ${split[1]} paragraphs`);
    if ((joined || removed) && (joined ? joined - 1 : 0) + removed !== t.marksOut) fail(`says joined ${joined}, removed ${removed}`);
    if (split || joined || removed) continue;
    if (/^Replaced /.test(summary) && !(t.deletes && t.inserts)) fail('says replaced');
    if (/^Inserted /.test(summary) && !(t.inserts || t.marksIn) && members.length > 1) fail('says inserted');
    if (/^Deleted /.test(summary) && !(t.deletes || t.marksOut) && members.length > 1) fail('says deleted');
  }
  return out;
}

describe('summaries say what their members are', () => {
  it('on lab-protocol drafts: rows, split and joined paragraphs, removed empty ones, whitespace', () => {
    fc.assert(
      fc.property(fc.nat(), (seed) => {
        const revisions = listRevisions(ingestDocx(generateLabProtocol(seed)).bytes);
        expect(summaryFailures(revisions), `seed ${seed}`).toEqual([]);
      }),
      { seed: 4, numRuns: 80 },
    );
  });

  it('on generated documents combining tables, rows, cells, moves, marks and nested changes', () => {
    fc.assert(
      fc.property(fc.nat(), (seed) => {
        const revisions = listRevisions(ingestDocx(generateFixture(seed).bytes).bytes);
        expect(summaryFailures(revisions), `seed ${seed}`).toEqual([]);
      }),
      { seed: 4, numRuns: 150 },
    );
  });

  const files = corpusFileNames();
  it.skipIf(!HAS_CORPUS)(`on every corpus file (${files.length})${HAS_CORPUS ? '' : ': skipped, the shared corpus is absent'}`, () => {
    for (const { file, bytes } of ingestedDrafts(files)) expect(summaryFailures(listRevisions(bytes)), file).toEqual([]);
  }, 120_000);

  it('names whitespace and paragraph marks as the lawyer sees them', () => {
    const by = 'w:author="A" w:date="2025-01-01T00:00:00Z"';
    const t = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
    const summaries = (body: string) => listRevisions(ingestDocx(minimalDocx(body)).bytes).map((r) => r.group_summary);
    expect(summaries(`<w:p>${t('a')}<w:ins w:id="1" ${by}><w:r><w:tab/></w:r></w:ins>${t('b')}</w:p>`)).toEqual(['Inserted a tab']);
    expect(summaries(`<w:p>${t('a')}<w:ins w:id="1" ${by}>${t('   ')}</w:ins>${t('b')}</w:p>`)).toEqual(['Inserted 3 spaces']);
    expect(summaries(`<w:p>${t('a')}<w:ins w:id="1" ${by}><w:r><w:br/></w:r></w:ins>${t('b')}</w:p>`)).toEqual(['Inserted a line break']);
    const mark = (tag: string, id: number) => `<w:pPr><w:rPr><w:${tag} w:id="${id}" ${by}/></w:rPr></w:pPr>`;
    expect(summaries(`<w:p>${mark('ins', 1)}${t('Order of injection: ')}</w:p><w:p>${mark('ins', 2)}</w:p><w:p>${t('standard')}</w:p>`))
      .toEqual(Array(2).fill("Split 'Order of injection:' into 3 paragraphs"));
    expect(summaries(`<w:p>${mark('del', 1)}${t('one')}</w:p><w:p>${mark('del', 2)}</w:p><w:p>${mark('del', 3)}${t('two')}</w:p><w:p>${t('three')}</w:p>`))
      .toEqual([...Array(2).fill('Joined 2 paragraphs, removed an empty paragraph'), 'Joined 2 paragraphs']);
  });
});
