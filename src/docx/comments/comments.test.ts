import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { CommentAnchorError, UnknownChangeIdsError, UnknownCommentError } from '../errors';
import { buildDemoContract } from '../fixture';
import { ingestDocx, openDocx } from '../index';
import { documentParagraphs } from '../../../test/conformance/doctext';
import { structuralProblems } from '../../../test/conformance/validity';
import { commentsPart, ins, minimalDocx, partsOf, r } from '../../../test/support/docx-files';

const ALEX = { author: 'Alex Chen', date: '2026-01-05T10:00:00Z' };
const SAM = { author: 'Sam Ortiz', initials: 'SO', date: '2026-01-06T09:30:00Z' };

/** Every comment mark names a comment, every comment has its mark, and range starts and ends pair up. */
function expectConsistent(bytes: Uint8Array): void {
  const parts = partsOf(bytes);
  const comments = parts.get('word/comments.xml') ?? '';
  const ids = new Set([...comments.matchAll(/<w:comment [^>]*w:id="(\d+)"/g)].map((m) => m[1]));
  const refs = new Set<string>();
  const starts: string[] = [];
  const ends: string[] = [];
  for (const [name, xml] of parts) {
    if (!/^word\/(document|footnotes|endnotes)\.xml$/.test(name)) continue;
    for (const m of xml.matchAll(/<w:commentReference w:id="(\d+)"/g)) refs.add(m[1]!);
    for (const m of xml.matchAll(/<w:commentRangeStart w:id="(\d+)"/g)) starts.push(m[1]!);
    for (const m of xml.matchAll(/<w:commentRangeEnd w:id="(\d+)"/g)) ends.push(m[1]!);
  }
  expect([...refs].sort()).toEqual([...ids].sort());
  expect([...starts].sort()).toEqual([...ends].sort());
  for (const s of starts) expect(ids.has(s)).toBe(true);
  const extended = parts.get('word/commentsExtended.xml');
  if (extended) {
    const paraIds = new Set([...comments.matchAll(/w14:paraId="([0-9A-F]{8})"/g)].map((m) => m[1]));
    for (const m of extended.matchAll(/w15:paraId="([0-9A-F]{8})"/g)) expect(paraIds.has(m[1]!)).toBe(true);
    for (const m of extended.matchAll(/w15:paraIdParent="([0-9A-F]{8})"/g)) expect(paraIds.has(m[1]!)).toBe(true);
  }
}

const plain = minimalDocx(
  `<w:p>${r('The fee is ')}${r('sixty', '<w:b/>')}${r(' (60) days net.')}</w:p>` +
  `<w:p>${r('Payment ')}${ins(5, r('promptly '))}${r('by wire.')}</w:p>`,
);

describe('comments', () => {
  it('adds a comment across runs, replies and resolves, written as Word 2016 writes them, and reads them back', () => {
    const doc = openDocx(plain);
    const first = doc.addComment({ find: 'sixty (60)' }, { ...ALEX, text: 'Market is thirty.\nSee the playbook.' });
    const reply = doc.replyToComment(first, { ...SAM, text: 'Agreed, propose 30.' });
    doc.addComment({ changeId: 'c5' }, { ...SAM, text: 'Why "promptly"?' });
    doc.setCommentResolved(reply, true);
    const bytes = doc.toBytes();
    expectConsistent(bytes);

    const parts = partsOf(bytes);
    expect(parts.get('[Content_Types].xml')).toContain('/word/commentsExtended.xml');
    expect(parts.get('[Content_Types].xml')).toContain('application/vnd.openxmlformats-officedocument.wordprocessingml.commentsIds+xml');
    expect(parts.get('word/_rels/document.xml.rels')).toContain('Target="comments.xml"');
    expect(parts.get('word/commentsExtended.xml')).toMatch(/w15:paraIdParent="[0-9A-F]{8}" w15:done="1"/);
    expect(parts.get('word/commentsIds.xml')).toMatch(/w16cid:durableId="[0-9A-F]{8}"/);
    // The range starts before "sixty" (bold) and ends after " (60)", with the reference after it.
    expect(parts.get('word/document.xml')).toMatch(/<w:commentRangeStart w:id="0"\/><w:commentRangeStart w:id="1"\/><w:r><w:rPr><w:b\/><\/w:rPr><w:t xml:space="preserve">sixty<\/w:t><\/w:r><w:r><w:t xml:space="preserve"> \(60\)<\/w:t><\/w:r><w:commentRangeEnd w:id="0"\/><w:r><w:rPr><w:rStyle w:val="CommentReference"\/><\/w:rPr><w:commentReference w:id="0"\/><\/w:r><w:commentRangeEnd w:id="1"\/>/);

    const back = openDocx(bytes);
    expect(back.comments()).toEqual([
      { id: '0', parentId: null, author: 'Alex Chen', initials: 'AC', date: ALEX.date, text: 'Market is thirty.\nSee the playbook.', resolved: true, changeIds: [], anchorText: 'sixty (60)', justification: false },
      { id: '1', parentId: '0', author: 'Sam Ortiz', initials: 'SO', date: SAM.date, text: 'Agreed, propose 30.', resolved: true, changeIds: [], anchorText: 'sixty (60)', justification: false },
      { id: '2', parentId: null, author: 'Sam Ortiz', initials: 'SO', date: SAM.date, text: 'Why "promptly"?', resolved: false, changeIds: ['c5'], anchorText: 'promptly', justification: false },
    ]);
    // A comment Redline writes on a change is not taken for the change's justification.
    expect(back.revisions()[0]!.justification).toBeNull();
    expect(documentParagraphs(bytes)).toEqual(['The fee is sixty (60) days net.', 'Payment promptly by wire.']);

    back.setCommentResolved('1', false);
    expect(openDocx(back.toBytes()).comments().map((c) => c.resolved)).toEqual([false, false, false]);
  });

  it('keeps a comment on a rejected insertion as a point comment, and drops a comment whose mark went with the content', () => {
    const docx = minimalDocx(
      `<w:p>${r('Keep ')}${ins(7, r('this clause'))}${r('.')}</w:p>` +
      `<w:tbl><w:tr><w:trPr><w:ins w:id="8" w:author="Ann" w:date="2025-01-01T00:00:00Z"/></w:trPr><w:tc><w:p>${r('new row text')}</w:p></w:tc></w:tr>` +
      `<w:tr><w:tc><w:p>${r('old row')}</w:p></w:tc></w:tr></w:tbl><w:p/>`,
    );
    const doc = openDocx(docx);
    const onInsert = doc.addComment({ changeId: 'c7' }, { ...ALEX, text: 'Not acceptable.' });
    const inRow = doc.addComment({ find: 'new row text' }, { ...ALEX, text: 'Row comment' });
    doc.replyToComment(inRow, { ...SAM, text: 'Reply in the row' });
    expect(doc.comments().find((c) => c.id === inRow)!.changeIds).toEqual(['c8']);
    const bytes = doc.apply({ accept: [], reject: ['c7', 'c8'] }).toBytes();
    expectConsistent(bytes);
    const left = openDocx(bytes).comments();
    expect(left.map((c) => [c.id, c.text, c.anchorText])).toEqual([[onInsert, 'Not acceptable.', '']]);
    expect(documentParagraphs(bytes)).toEqual(['Keep .', 'old row']);
  });

  it('reads comments of an uploaded file (no threads part) and recognises an exactly anchored justification', () => {
    const docx = minimalDocx(
      `<w:p>${r('A ')}<w:commentRangeStart w:id="3"/>${ins(1, r('new'), 'Reviewer')}<w:commentRangeEnd w:id="3"/><w:r><w:commentReference w:id="3"/></w:r></w:p>`,
      { 'word/comments.xml': commentsPart({ 3: 'Because.' }) },
    );
    const doc = openDocx(docx);
    expect(doc.comments()).toEqual([
      { id: '3', parentId: null, author: 'Reviewer', initials: null, date: null, text: 'Because.', resolved: false, changeIds: ['c1'], anchorText: 'new', justification: true },
    ]);
    // A reply (markers stacked beside the justification's) keeps the justification recognised.
    const reply = doc.replyToComment('3', { ...ALEX, text: 'Not convinced.' });
    doc.setCommentResolved('3', true);
    const bytes = doc.toBytes();
    expectConsistent(bytes);
    const back = openDocx(bytes);
    expect(back.revisions()[0]!.justification).toBe('Because.');
    expect(back.comments().map((c) => [c.id, c.parentId, c.resolved, c.justification])).toEqual([['3', null, true, true], [reply, '3', true, false]]);
    expect(partsOf(bytes).get('word/comments.xml')).toContain('mc:Ignorable="w14"');
  });

  it('refuses an unknown change, a missing anchor and an unknown comment, changing nothing', () => {
    const doc = openDocx(plain);
    const before = doc.toBytes();
    expect(() => doc.addComment({ changeId: 'c99' }, { ...ALEX, text: 'x' })).toThrow(UnknownChangeIdsError);
    expect(() => doc.addComment({ find: 'ninety' }, { ...ALEX, text: 'x' })).toThrow(CommentAnchorError);
    expect(() => doc.addComment({ find: 'sixty', occurrence: 2 }, { ...ALEX, text: 'x' })).toThrow(CommentAnchorError);
    expect(() => doc.replyToComment('4', { ...ALEX, text: 'x' })).toThrow(UnknownCommentError);
    expect(() => doc.setCommentResolved('4', true)).toThrow(UnknownCommentError);
    expect(doc.toBytes()).toBe(before);
  });

  it('removes every comment and mark for a clean copy', () => {
    const doc = openDocx(buildDemoContract());
    expect(doc.comments().length).toBeGreaterThan(3);
    doc.addComment({ changeId: doc.changeIds()[0]! }, { ...ALEX, text: 'Mine' });
    const ids = doc.changeIds();
    const bytes = doc.apply({ accept: ids, reject: [] }).removeComments().toBytes();
    const back = openDocx(bytes);
    expect(back.comments()).toEqual([]);
    expect(back.revisionCount).toBe(0);
    expect(partsOf(bytes).get('word/document.xml')).not.toMatch(/<w:comment(Reference|RangeStart|RangeEnd)\b/);
  });

  it('lists the demo contract\u2019s justification comments with the changes they justify', () => {
    const doc = openDocx(buildDemoContract());
    const justified = new Map(doc.revisions().filter((x) => x.justification).map((x) => [x.change_id, x.justification]));
    const flagged = doc.comments().filter((c) => c.justification);
    expect(flagged.length).toBe(justified.size);
    for (const c of flagged) expect(c.changeIds.some((id) => justified.get(id) === c.text)).toBe(true);
  });

  it('keeps comments consistent through any sequence of comments, replies and decisions (property)', () => {
    const demo = ingestDocx(buildDemoContract()).bytes;
    const changeCount = openDocx(demo).revisionCount;
    const op = fc.oneof(
      fc.record({ t: fc.constant('change' as const), i: fc.nat(changeCount - 1) }),
      fc.record({ t: fc.constant('text' as const), find: fc.constantFrom('Customer', 'Provider', 'Services', 'fees', 'Agreement') , occurrence: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ t: fc.constant('reply' as const), i: fc.nat(30) }),
      fc.record({ t: fc.constant('resolve' as const), i: fc.nat(30), done: fc.boolean() }),
      fc.record({ t: fc.constant('decide' as const), mask: fc.array(fc.constantFrom('a', 'r', '-'), { minLength: 1, maxLength: changeCount }) }),
    );
    fc.assert(fc.property(fc.array(op, { minLength: 1, maxLength: 8 }), (ops) => {
      const doc = openDocx(demo);
      for (const o of ops) {
        const comments = doc.comments();
        try {
          if (o.t === 'change') {
            const id = doc.changeIds()[o.i % Math.max(1, doc.revisionCount)];
            if (id) {
              doc.addComment({ changeId: id }, { ...ALEX, text: `on ${id}` });
            }
          } else if (o.t === 'text') {
            doc.addComment({ find: o.find, occurrence: o.occurrence }, { ...SAM, text: `on ${o.find}` });
          } else if (o.t === 'reply' && comments.length) {
            doc.replyToComment(comments[o.i % comments.length]!.id, { ...SAM, text: 'reply' });
          } else if (o.t === 'resolve' && comments.length) {
            doc.setCommentResolved(comments[o.i % comments.length]!.id, o.done);
          } else if (o.t === 'decide') {
            const ids = doc.changeIds();
            doc.apply({ accept: ids.filter((_, i) => o.mask[i] === 'a'), reject: ids.filter((_, i) => o.mask[i] === 'r') });
          }
        } catch (error) {
          if (!(error instanceof CommentAnchorError)) throw error;
        }
      }
      const bytes = doc.toBytes();
      expectConsistent(bytes);
      expect(structuralProblems(bytes)).toEqual([]);
      const back = openDocx(bytes);
      expect(back.comments()).toEqual(doc.comments());
    }), { numRuns: 25, seed: 1414 });
  });
});

const HAS_LO = spawnSync('soffice', ['--version']).status === 0;

describe.skipIf(!HAS_LO)('comments in LibreOffice', () => {
  it('opens a draft with added comments, a reply and a resolved thread, and shows their text and authors', () => {
    const doc = openDocx(buildDemoContract());
    const first = doc.addComment({ changeId: doc.changeIds()[1]! }, { ...ALEX, text: 'Counsel cannot accept this wording.' });
    doc.replyToComment(first, { ...SAM, text: 'Business agrees with counsel.' });
    doc.addComment({ find: 'Agreement' }, { ...SAM, text: 'Defined term check.' });
    doc.setCommentResolved(first, true);
    const ids = doc.changeIds();
    doc.apply({ accept: ids.slice(0, 5), reject: ids.slice(5, 10) });
    const work = mkdtempSync(path.join(tmpdir(), 'rl-comments-'));
    try {
      writeFileSync(path.join(work, 'draft.docx'), doc.toBytes());
      const lo = spawnSync('soffice', [`-env:UserInstallation=file://${work}/profile`, '--headless', '--convert-to', 'odt', '--outdir', work, path.join(work, 'draft.docx')], { timeout: 180_000 });
      expect(lo.status).toBe(0);
      const content = strFromU8(unzipSync(readFileSync(path.join(work, 'draft.odt')), { filter: (f) => f.name === 'content.xml' })['content.xml']!);
      const annotations = [...content.matchAll(/<office:annotation\b[\s\S]*?<\/office:annotation>/g)].map((m) => m[0]);
      const texts = annotations.map((a) => a.replace(/<[^>]+>/g, ''));
      for (const expected of ['Counsel cannot accept this wording.', 'Business agrees with counsel.', 'Defined term check.']) {
        expect(texts.some((t) => t.includes(expected))).toBe(true);
      }
      expect(annotations.some((a) => a.includes('<dc:creator>Alex Chen</dc:creator>'))).toBe(true);
      // LibreOffice reads the thread's resolved state from commentsExtended.xml.
      expect(annotations.filter((a) => /loext:resolved="true"/.test(a)).length).toBeGreaterThanOrEqual(1);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 240_000);
});
