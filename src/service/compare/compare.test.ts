import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import { CHANGES_HEADER, ComparisonIdentical, ComparisonProgressList, ComparisonSummary, NoUntrackedEdits, UNTRACKED_EDIT_AUTHOR, UntrackedPending, UntrackedReport } from '../../contract/compare';
import { DOCUMENT_ROW_FIELDS, DocumentRow } from '../../contract/document';
import type { ReviewResponse } from '../../contract/review';
import { createMcpServer } from '../connector/mcp-tools';
import { EngineThreads } from '../engine/engine-threads';
import { UNTRACKED_MAX_WAIT_SECONDS, UNTRACKED_WAIT_SECONDS } from './untracked-checks';
import { preferredWaitSeconds } from '../routes/compare-routes';
import fc from 'fast-check';
import type { BlobStore } from '../store/blobs/blob-store';
import { createDiskBlobStore } from '../store/blobs/disk-blob-store';
import { SwitchableBlobStore } from '../../../test/reliability/switchable-blob-store';
import { insertUpload } from '../uploads/upload-rows';
import { newId } from '../auth/secrets';
import { del, ins, minimalDocx, r, readPart } from '../../../test/support/docx-files';
import { multipartBody, startTestService, type TestService } from '../../../test/support/test-service';

const p = (...runs: string[]) => `<w:p>${runs.join('')}</w:p>`;

/** The text of each body paragraph, as a reader sees it (w:t only: deleted text is w:delText). */
function paragraphsOf(docx: Uint8Array): string[] {
  const body = readPart(docx).replace(/<w:sectPr[\s\S]*?<\/w:sectPr>/g, '');
  return [...body.matchAll(/<w:p[ >][\s\S]*?<\/w:p>|<w:p\/>/g)].map((m) =>
    [...m[0].matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((t) => t[1]).join(''));
}

const OLDER = minimalDocx(
  p(r('1. The Supplier shall deliver the goods within 30 days of the order.')) +
  p(r('2. The Customer shall pay each invoice within 60 days.')) +
  p(r('3. This agreement is governed by the laws of England.')),
);
const NEWER = minimalDocx(
  p(r('1. The Supplier shall deliver the goods within 45 days of the order.')) +
  p(r('2. The Customer shall pay each invoice within 60 days.')) +
  p(r('2A. Late payment bears interest at 8% a year.')) +
  p(r('3. This agreement is governed by the laws of England.')),
);
/**
 * The counterparty's next version: one tracked change of theirs (the new clause 4) and one
 * edit they made without tracking (30 days became 90 days).
 */
const COUNTERPARTY = minimalDocx(
  p(r('1. The Supplier shall deliver the goods within 90 days of the order.')) +
  p(r('2. The Customer shall pay each invoice within 60 days.')) +
  p(r('3. This agreement is governed by the laws of England.')) +
  // A tracked inserted paragraph: its runs and its mark.
  `<w:p><w:pPr><w:rPr><w:ins w:id="903" w:author="Counterparty" w:date="2025-01-01T00:00:00Z"/></w:rPr></w:pPr>${ins(901, r('4. Neither party may assign this agreement.'), 'Counterparty')}</w:p>` +
  p(r('5. Notices are given in writing'), del(902, r(' by post'), 'Counterparty'), r('.')),
);
const COUNTERPARTY_BASE = minimalDocx(
  p(r('1. The Supplier shall deliver the goods within 30 days of the order.')) +
  p(r('2. The Customer shall pay each invoice within 60 days.')) +
  p(r('3. This agreement is governed by the laws of England.')) +
  p(r('5. Notices are given in writing by post.')),
);

describe('comparing versions and checking for untracked edits', () => {
  let t: TestService;
  let alice: SessionGrant;
  let bob: SessionGrant;

  beforeAll(async () => {
    t = await startTestService();
    alice = await t.signUpAndSignIn('alice@compare-a.example');
    bob = await t.signUpAndSignIn('bob@compare-b.example');
  });
  afterAll(async () => t.destroy());

  const upload = async (grant: SessionGrant, bytes: Uint8Array, name = 'Supply.docx'): Promise<DocumentRow> => {
    const body = multipartBody({ purpose: 'source_doc' }, { name, bytes });
    const res = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(grant) } });
    expect(res.statusCode, res.body).toBe(201);
    return DocumentRow.parse(res.json());
  };
  const addVersion = (grant: SessionGrant, parentId: string, bytes: Uint8Array, name = 'Supply v2.docx') => {
    const body = multipartBody({}, { name, bytes });
    return t.app.inject({ method: 'POST', url: `/api/uploads/${parentId}/versions`, payload: body.payload, headers: { ...body.headers, ...t.headers(grant) } });
  };
  const call = (grant: SessionGrant, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: t.headers(grant), ...(payload ? { payload } : {}) });
  const expectRow = (value: unknown): DocumentRow => {
    expect(Object.keys(value as object).sort()).toEqual([...DOCUMENT_ROW_FIELDS].sort());
    return DocumentRow.parse(value);
  };
  const reviewOf = async (grant: SessionGrant, id: string): Promise<ReviewResponse> => {
    const res = await call(grant, 'GET', `/api/documents/${id}/review`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ReviewResponse;
  };
  /** Decides every change one way and answers the resulting text. */
  const decideAll = async (grant: SessionGrant, id: string, verdict: 'accept' | 'reject'): Promise<string[]> => {
    const ids = (await reviewOf(grant, id)).revisions.map((rev) => rev.change_id);
    const res = await call(grant, 'POST', `/api/documents/${id}/revisions/apply`, verdict === 'accept' ? { accepted_change_ids: ids } : { rejected_change_ids: ids });
    expect(res.statusCode, res.body).toBe(200);
    return paragraphsOf(Buffer.from((res.json() as ReviewResponse).contentBase64, 'base64'));
  };
  /** Calls one tool of the MCP server as `grant`'s user would through the connector. */
  const callMcpTool = async (grant: SessionGrant, name: string, args: Record<string, unknown>) => {
    const server = createMcpServer({ orgId: grant.orgId, userId: grant.user.id }, t.ctx);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test-assistant', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      return await client.callTool({ name, arguments: args });
    } finally {
      await client.close();
    }
  };
  const uploadCount = async () => (await t.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM uploads'))[0]!.n;
  /** The blobs on the test service's disk store (content-addressed: a new redline adds one). */
  const blobCount = () => readdirSync(path.join(t.config.dataDir, 'blobs'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
  const untrackedOf = async (grant: SessionGrant, id: string): Promise<UntrackedReport> => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await call(grant, 'GET', `/api/uploads/${id}/untracked`);
      if (res.statusCode === 200) return UntrackedReport.parse(res.json());
      expect(res.statusCode, res.body).toBe(202);
      expect(res.headers['retry-after']).toBe('1');
      UntrackedPending.parse(res.json());
      if (Date.now() > deadline) throw new Error('the untracked check did not finish within 20 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('compares two versions into a new working draft in the series of the newer: accept all gives the newer, reject all the older', async () => {
    const v1 = await upload(alice, OLDER);
    const v2 = expectRow((await addVersion(alice, v1.id, NEWER)).json());
    const res = await call(alice, 'POST', `/api/uploads/${v2.id}/compare`, { against: v1.id });
    expect(res.statusCode, res.body).toBe(201);
    const draft = expectRow(res.json());
    expect(draft).toMatchObject({
      documentSeriesId: v1.id, documentVersion: 3, parentUploadId: v2.id, versionKind: 'working_draft',
      artifactId: `compare:${v1.id}`, createdByUserId: alice.user.id, fileName: 'Supply v2.docx', status: 'ready',
    });
    const changes = Number(res.headers[CHANGES_HEADER.toLowerCase()]);
    expect(changes).toBeGreaterThan(0);
    const review = await reviewOf(alice, draft.id);
    expect(review.revisions.length).toBeGreaterThan(0);
    expect(new Set(review.revisions.map((rev) => rev.author))).toEqual(new Set(['Comparison']));
    // Dated with the newer version's upload time.
    expect(review.revisions[0]!.date).toBe(v2.createdAt.replace(/\.\d{3}Z$/, 'Z'));
    expect(await decideAll(alice, draft.id, 'accept')).toEqual(paragraphsOf(NEWER));

    const again = expectRow((await call(alice, 'POST', `/api/uploads/${v2.id}/compare`, { against: v1.id, author: 'Alice Ng' })).json());
    expect(again.documentVersion).toBe(4);
    expect(new Set((await reviewOf(alice, again.id)).revisions.map((rev) => rev.author))).toEqual(new Set(['Alice Ng']));
    expect(await decideAll(alice, again.id, 'reject')).toEqual(paragraphsOf(OLDER));
  });

  it('keeps the newer version\'s pending changes under their authors beside the comparison\'s, and says what it did with each version\'s (issue 34)', async () => {
    const pending = (id: number) => ins(id, r('Data Protection. The Company will comply with the law.'), 'Author');
    const ndaV1 = minimalDocx(p(r('1. Each party keeps the other\'s secrets for five years.')) + p(r('2. '), pending(11)) + p(r('3. The courts of England decide.')));
    const ndaV2 = minimalDocx(p(r('1. Each party keeps the other\'s secrets for three years.')) + p(r('2. '), pending(21)) + p(r('3. The courts of Scotland decide.')));
    const v1 = await upload(alice, ndaV1, 'NDA.docx');
    const v2 = expectRow((await addVersion(alice, v1.id, ndaV2, 'NDA v2.docx')).json());
    const res = await call(alice, 'POST', `/api/uploads/${v2.id}/compare`, { against: v1.id });
    expect(res.statusCode, res.body).toBe(201);
    const draft = expectRow(res.json());
    const review = await reviewOf(alice, draft.id);
    expect(review.revisions.filter((rev) => rev.author === 'Author').map((rev) => [rev.kind, rev.text_preview])).toEqual([['insert', 'Data Protection. The Company will comply with the law.']]);
    expect(review.revisions.filter((rev) => rev.author === 'Comparison').map((rev) => rev.text_preview)).toEqual(['five', 'three', 'England', 'Scotland']);
    expect(Number(res.headers[CHANGES_HEADER.toLowerCase()])).toBe(4);
    const summary = await call(alice, 'GET', `/api/uploads/${draft.id}/comparison`);
    expect(summary.statusCode, summary.body).toBe(200);
    expect(ComparisonSummary.parse(summary.json())).toEqual({
      draftId: draft.id, kind: 'compare', uploadId: v2.id, against: v1.id, view: 'pending', author: 'Comparison', changes: 4, entries: 2,
      pending: { treatment: 'kept', older: 1, newer: 1, kept: 1, olderStillPending: 1, olderResolved: 0 },
      options: { granularity: 'word', ignoreCase: false, ignoreWhitespace: false, ignoreFormatting: false, moves: true, stories: { headersFooters: true, notes: true, textBoxes: true } },
    });
    // No comparison made these: 404; another organisation's draft: 404.
    expect((await call(alice, 'GET', `/api/uploads/${v2.id}/comparison`)).statusCode).toBe(404);
    expect((await call(bob, 'GET', `/api/uploads/${draft.id}/comparison`)).statusCode).toBe(404);
    // Accepting everything gives the newer version's accepted text.
    const acceptedV2 = paragraphsOf(ndaV2).map((t, i) => (i === 1 ? '2. Data Protection. The Company will comply with the law.' : t));
    expect(await decideAll(alice, draft.id, 'accept')).toEqual(acceptedV2);
    // The documents page shows the comparison as v2's review in progress: counted in entries (2 by Comparison, 1 by Author).
    const progress = ComparisonProgressList.parse((await call(alice, 'GET', '/api/comparisons/progress')).json());
    expect(progress.items.find((i) => i.documentSeriesId === v1.id)).toMatchObject({ documentId: draft.id, counts: { open: 0, in: 3, back: 0, total: 3 } });
    expect(ComparisonProgressList.parse((await call(bob, 'GET', '/api/comparisons/progress')).json()).items.some((i) => i.documentId === draft.id)).toBe(false);
    // As Word compares: both as if accepted; nothing kept, and the summary says so.
    const word = expectRow((await call(alice, 'POST', `/api/uploads/${v2.id}/compare`, { against: v1.id, view: 'accepted' })).json());
    expect(new Set((await reviewOf(alice, word.id)).revisions.map((rev) => rev.author))).toEqual(new Set(['Comparison']));
    expect(ComparisonSummary.parse((await call(alice, 'GET', `/api/uploads/${word.id}/comparison`)).json()).pending)
      .toEqual({ treatment: 'accepted', older: 1, newer: 1, kept: 0, olderStillPending: 0, olderResolved: 0 });
  });

  it('takes Word\'s compare options: a version that differs only in case is identical with ignoreCase, through the route and the MCP tool, and the draft remembers its options', async () => {
    const v1 = await upload(alice, OLDER);
    const shouting = minimalDocx(paragraphsOf(OLDER).map((t) => p(r(t.replace('Supplier', 'SUPPLIER')))).join(''));
    const v2 = expectRow((await addVersion(alice, v1.id, shouting)).json());
    const before = await uploadCount();
    const same = await call(alice, 'POST', `/api/uploads/${v2.id}/compare`, { against: v1.id, options: { ignoreCase: true } });
    expect(same.statusCode, same.body).toBe(200);
    expect(ComparisonIdentical.parse(same.json()).identical).toBe(true);
    expect(await uploadCount()).toBe(before);
    const answered = await callMcpTool(alice, 'compare_versions', { uploadId: v2.id, against: v1.id, options: { ignoreCase: true } });
    expect(answered.structuredContent).toMatchObject({ identical: true });
    // Without it, the capital is a difference; the draft's summary says which options made it.
    const differs = await call(alice, 'POST', `/api/uploads/${v2.id}/compare`, { against: v1.id, options: { granularity: 'character', moves: false, stories: { textBoxes: false } } });
    expect(differs.statusCode, differs.body).toBe(201);
    const summary = ComparisonSummary.parse((await call(alice, 'GET', `/api/uploads/${expectRow(differs.json()).id}/comparison`)).json());
    expect(summary.options).toEqual({
      granularity: 'character', ignoreCase: false, ignoreWhitespace: false, ignoreFormatting: false, moves: false, stories: { headersFooters: true, notes: true, textBoxes: false },
    });
  });

  it('says when two documents are identical (200, identical: true) and adds no version', async () => {
    const v1 = await upload(alice, OLDER);
    const v2 = expectRow((await addVersion(alice, v1.id, OLDER)).json());
    const before = await uploadCount();
    const res = await call(alice, 'POST', `/api/uploads/${v2.id}/compare`, { against: v1.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(ComparisonIdentical.parse(res.json())).toEqual({
      identical: true, uploadId: v2.id, against: v1.id, view: 'pending',
      pending: { treatment: 'kept', older: 0, newer: 0, kept: 0, olderStillPending: 0, olderResolved: 0 },
    });
    expect(res.headers['redline-changes']).toBeUndefined();
    expect(await uploadCount()).toBe(before);
    // The MCP tool says the same, and writes nothing either.
    const answered = await callMcpTool(alice, 'compare_versions', { uploadId: v2.id, against: v1.id });
    expect(answered.isError).not.toBe(true);
    expect(answered.structuredContent).toMatchObject({ identical: true, against: v1.id });
    expect(await uploadCount()).toBe(before);
  });

  it('refuses bad comparisons with a problem and writes nothing', async () => {
    const v1 = await upload(alice, OLDER);
    const v2 = expectRow((await addVersion(alice, v1.id, NEWER)).json());
    const bobs = await upload(bob, OLDER);
    const before = await uploadCount();
    const cases: [string, object, number, string][] = [
      [v2.id, { against: v2.id }, 409, 'conflict'],
      [v2.id, { against: bobs.id }, 404, 'not_found'],
      [bobs.id, { against: v1.id }, 404, 'not_found'],
      [v2.id, { against: 'no-such-upload' }, 404, 'not_found'],
      [v2.id, {}, 400, 'invalid_request'],
      [v2.id, { against: v1.id, view: 'sideways' }, 400, 'invalid_request'],
      [v2.id, { against: v1.id, extra: true }, 400, 'invalid_request'],
      [v2.id, { against: v1.id, options: { granularity: 'sentence' } }, 400, 'invalid_request'],
      [v2.id, { against: v1.id, options: { ignoreCase: 'yes' } }, 400, 'invalid_request'],
      [v2.id, { against: v1.id, options: { stories: { comments: false } } }, 400, 'invalid_request'],
    ];
    for (const [id, body, status, code] of cases) {
      const res = await call(alice, 'POST', `/api/uploads/${id}/compare`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json().code).toBe(code);
    }
    // A deleted series: its versions are gone for comparisons too.
    expect((await call(alice, 'POST', `/api/uploads/${v1.id}/delete`)).statusCode).toBe(200);
    const gone = await call(alice, 'POST', `/api/uploads/${v2.id}/compare`, { against: v1.id });
    expect(gone.statusCode).toBe(404);
    expect(await uploadCount()).toBe(before - 2);
  });

  it('answers 422 for stored content that is not a .docx, and writes nothing', async () => {
    const v1 = await upload(alice, OLDER);
    // A row whose bytes are not a Word document (as a row written before uploads were validated would be).
    const stored = await t.ctx.content.put(new TextEncoder().encode('%PDF-1.7 not a word document'));
    const legacy = await insertUpload(t.ctx.db, {
      id: newId(), orgId: alice.orgId, userId: alice.user.id, fileName: 'Scan.pdf', purpose: 'source_doc', clientReferenceId: null,
      seriesId: v1.id, version: 2, parentId: v1.id, versionKind: 'original', sha256: stored.sha256, storageKey: stored.storageKey,
      sizeBytes: stored.sizeBytes, mimeType: 'application/pdf',
    });
    const before = await uploadCount();
    const res = await call(alice, 'POST', `/api/uploads/${legacy.id}/compare`, { against: v1.id });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ code: 'invalid_docx', status: 422 });
    expect(res.json().detail).toContain('cannot be compared');
    const drafted = await call(alice, 'POST', `/api/uploads/${legacy.id}/untracked/working-draft`);
    expect(drafted.statusCode).toBe(422);
    expect(await uploadCount()).toBe(before);
    // Its untracked check says so too, every time, rather than "pending" forever.
    await t.ctx.db.query('DELETE FROM untracked_checks WHERE upload_id = $1', [legacy.id]);
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline && status !== 422) {
      status = (await call(alice, 'GET', `/api/uploads/${legacy.id}/untracked`)).statusCode;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe(422);
  });

  it('checks a new version for untracked edits after answering, and drafts them as tracked changes beside the counterparty\'s own', async () => {
    const v1 = await upload(alice, COUNTERPARTY_BASE);
    const added = await addVersion(alice, v1.id, COUNTERPARTY, 'Supply (their turn).docx');
    expect(added.statusCode).toBe(201);
    const v2 = expectRow(added.json());
    // The check started by itself once the upload was answered: no reader asked for it.
    await t.ctx.untracked.settle();
    const [stored] = await t.ctx.db.query<{ state: string; finished_at: Date }>('SELECT state, finished_at FROM untracked_checks WHERE upload_id = $1', [v2.id]);
    expect(stored?.state).toBe('done');
    const report = await untrackedOf(alice, v2.id);
    expect(report.against).toBe(v1.id);
    // 30 -> 90 days was not tracked; clause 4 and " by post" were, and are not counted.
    expect(report.count).toBe(report.changes.length);
    // The replaced word is one entry, as the review lists it; their clause 4 (text and mark) and " by post" are two.
    expect(report.entries).toBe(1);
    expect(report.pending).toEqual({ older: 0, newer: 2 });
    expect(report.count).toBeGreaterThan(0);
    const previews = report.changes.map((c) => c.text_preview).join(' | ');
    expect(previews).toMatch(/90|30/);
    expect(previews).not.toMatch(/assign|by post/);
    for (const change of report.changes) {
      expect(change).toMatchObject({ story: 'word/document.xml', paragraph: 0 });
      expect(['insert', 'delete']).toContain(change.kind);
    }

    const res = await call(alice, 'POST', `/api/uploads/${v2.id}/untracked/working-draft`);
    expect(res.statusCode, res.body).toBe(201);
    expect(Number(res.headers['redline-changes'])).toBe(report.count);
    const draft = expectRow(res.json());
    expect(draft).toMatchObject({ parentUploadId: v2.id, versionKind: 'working_draft', artifactId: `untracked:${v1.id}`, documentVersion: 3 });
    const review = await reviewOf(alice, draft.id);
    const byAuthor = (author: string) => review.revisions.filter((rev) => rev.author === author);
    expect(byAuthor(UNTRACKED_EDIT_AUTHOR).length).toBe(report.count);
    expect(byAuthor('Counterparty').map((rev) => rev.kind).sort()).toEqual(['delete', 'insert', 'paragraph_mark']);
    // Rejecting everything gives back what we sent them.
    expect(await decideAll(alice, draft.id, 'reject')).toEqual(paragraphsOf(COUNTERPARTY_BASE));
  });

  it('reports no untracked edits for a first upload or a working draft, and none for an unchanged version', async () => {
    const v1 = await upload(alice, COUNTERPARTY_BASE);
    expect(await untrackedOf(alice, v1.id)).toEqual({ against: null, count: 0, entries: 0, changes: [], pending: null });
    const draft = expectRow((await call(alice, 'POST', `/api/uploads/${v1.id}/working-draft`)).json());
    expect(await untrackedOf(alice, draft.id)).toEqual({ against: null, count: 0, entries: 0, changes: [], pending: null });
    const refused = await call(alice, 'POST', `/api/uploads/${v1.id}/untracked/working-draft`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('conflict');
    // Only their tracked changes differ: nothing untracked.
    const v2 = expectRow((await addVersion(alice, v1.id, minimalDocx(
      p(r('1. The Supplier shall deliver the goods within 30 days of the order.')) +
      p(r('2. The Customer shall pay each invoice within 60 days.')) +
      p(r('3. This agreement is governed by the laws of England.')) +
      p(r('5. Notices are given in writing'), del(902, r(' by post'), 'Counterparty'), r('.')),
    ))).json());
    expect(await untrackedOf(alice, v2.id)).toEqual({ against: v1.id, count: 0, entries: 0, changes: [], pending: { older: 0, newer: 1 } });
    expect((await call(bob, 'GET', `/api/uploads/${v2.id}/untracked`)).statusCode).toBe(404);
    // Nothing to review: said (200), and no draft, version or redline bytes stored.
    const [rowsBefore, blobsBefore] = [await uploadCount(), blobCount()];
    const nothing = await call(alice, 'POST', `/api/uploads/${v2.id}/untracked/working-draft`);
    expect(nothing.statusCode, nothing.body).toBe(200);
    expect(nothing.json()).toEqual({ nothingToReview: true, uploadId: v2.id, against: v1.id });
    expect(NoUntrackedEdits.parse(nothing.json())).toEqual(nothing.json());
    expect(nothing.headers[CHANGES_HEADER.toLowerCase()]).toBeUndefined();
    expect(await uploadCount()).toBe(rowsBefore);
    expect(blobCount()).toBe(blobsBefore);
  });

  it('computes a check nobody finished on demand: lost results, and a runner that stopped (another instance, a restart)', async () => {
    const v1 = await upload(alice, COUNTERPARTY_BASE);
    const v2 = expectRow((await addVersion(alice, v1.id, COUNTERPARTY)).json());
    const expected = await untrackedOf(alice, v2.id);
    // A second instance on the same database and blob store.
    const other = await startTestService({}, { db: t.ctx.db, blobs: createDiskBlobStore(path.join(t.config.dataDir, 'blobs')) });
    try {
      // It reads the stored result.
      const read = await other.app.inject({ method: 'GET', url: `/api/uploads/${v2.id}/untracked`, headers: t.headers(alice) });
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(expected);
      // The runner died mid-check (its lease ran out): the next reader, on any instance, runs it again.
      await t.ctx.db.query(`UPDATE untracked_checks SET state = 'running', count = NULL, changes = NULL, lease_until = now() - interval '1 second' WHERE upload_id = $1`, [v2.id]);
      // (Prefer: wait=0: answered at once, so the lease is seen taken but not yet finished.)
      const first = await other.app.inject({ method: 'GET', url: `/api/uploads/${v2.id}/untracked`, headers: { ...t.headers(alice), prefer: 'wait=0' } });
      expect(first.statusCode).toBe(202);
      await other.ctx.untracked.settle();
      expect((await other.app.inject({ method: 'GET', url: `/api/uploads/${v2.id}/untracked`, headers: t.headers(alice) })).json()).toEqual(expected);
      // A runner still inside its lease is left alone: readers wait.
      await t.ctx.db.query(`UPDATE untracked_checks SET state = 'running', lease_until = now() + interval '1 minute' WHERE upload_id = $1`, [v2.id]);
      expect((await other.app.inject({ method: 'GET', url: `/api/uploads/${v2.id}/untracked`, headers: { ...t.headers(alice), prefer: 'wait=0' } })).statusCode).toBe(202);
      await other.ctx.untracked.settle();
      expect((await t.ctx.db.query<{ state: string }>('SELECT state FROM untracked_checks WHERE upload_id = $1', [v2.id]))[0]!.state).toBe('running');
      // No result at all (a version added before the check existed, or before a crash): computed on demand.
      await t.ctx.db.query('DELETE FROM untracked_checks WHERE upload_id = $1', [v2.id]);
      expect(await untrackedOf(alice, v2.id)).toEqual(expected);
    } finally {
      await other.destroy();
    }
  });

  it('retries a check at once after a passing failure (storage down), and answers the compare route 503 meanwhile', async () => {
    const blobs = new SwitchableBlobStore(createDiskBlobStore(path.join(t.config.dataDir, 'blobs')));
    const other = await startTestService({}, { db: t.ctx.db, blobs });
    try {
      const v1 = await upload(alice, COUNTERPARTY_BASE);
      const v2 = expectRow((await addVersion(alice, v1.id, COUNTERPARTY)).json());
      await t.ctx.untracked.settle();
      await t.ctx.db.query('DELETE FROM untracked_checks WHERE upload_id = $1', [v2.id]);
      blobs.mode = 'down';
      const read = () => other.app.inject({ method: 'GET', url: `/api/uploads/${v2.id}/untracked`, headers: { ...t.headers(alice), prefer: 'wait=0' } });
      expect((await read()).statusCode).toBe(202);
      await other.ctx.untracked.settle();
      const [held] = await t.ctx.db.query<{ state: string; free: boolean }>('SELECT state, lease_until <= now() AS free FROM untracked_checks WHERE upload_id = $1', [v2.id]);
      expect(held).toEqual({ state: 'running', free: true });
      const compared = await other.app.inject({ method: 'POST', url: `/api/uploads/${v2.id}/compare`, headers: t.headers(alice), payload: { against: v1.id } });
      expect(compared.statusCode).toBe(503);
      expect(compared.json().code).toBe('service_unavailable');
      blobs.mode = 'up';
      expect((await read()).statusCode).toBe(202);
      await other.ctx.untracked.settle();
      expect(UntrackedReport.parse((await read()).json()).against).toBe(v1.id);
    } finally {
      await other.destroy();
    }
  });

  it('answers a reader waiting on a running check the moment it is stored, with where the check\'s time went', async () => {
    const v1 = await upload(alice, COUNTERPARTY_BASE);
    const v2 = expectRow((await addVersion(alice, v1.id, COUNTERPARTY)).json());
    // Asked right after the upload's answer, while this instance runs the check: one request, no 202
    // (a long wait, so a slow machine cannot make the check outlast it).
    const asked = performance.now();
    const res = await t.app.inject({ method: 'GET', url: `/api/uploads/${v2.id}/untracked`, headers: { ...t.headers(alice), prefer: 'wait=10' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(UntrackedReport.parse(res.json()).count).toBeGreaterThan(0);
    const timing = String(res.headers['server-timing']);
    const phase = (name: string) => Number(new RegExp(`(?:^|, )${name};dur=([\\d.]+)`).exec(timing)?.[1] ?? NaN);
    // It waited for the check (the check was not done when asked), no longer than the request took.
    expect(phase('wait')).toBeGreaterThan(0);
    expect(phase('wait')).toBeLessThanOrEqual(performance.now() - asked);
    for (const name of ['schedule', 'claim', 'rows', 'read', 'queue', 'engine', 'reply', 'store', 'total']) expect(phase(`check-${name}`)).toBeGreaterThanOrEqual(0);
    expect(phase('check-total')).toBeGreaterThanOrEqual(phase('check-engine'));

    // A check another instance holds: the reader looks at the database while it waits, and answers
    // once that instance has stored it; past its wait, 202.
    const v3 = expectRow((await addVersion(alice, v2.id, COUNTERPARTY_BASE)).json());
    await t.ctx.untracked.settle();
    const [done] = await t.ctx.db.query<{ count: number; changes: unknown }>('SELECT count, changes FROM untracked_checks WHERE upload_id = $1', [v3.id]);
    await t.ctx.db.query(`UPDATE untracked_checks SET state = 'running', count = NULL, changes = NULL, lease_until = now() + interval '1 minute' WHERE upload_id = $1`, [v3.id]);
    const waited = performance.now();
    // Without Prefer: the default wait (UNTRACKED_WAIT_SECONDS), then 202.
    const pending = await call(alice, 'GET', `/api/uploads/${v3.id}/untracked`);
    expect(pending.statusCode).toBe(202);
    expect(performance.now() - waited).toBeGreaterThanOrEqual(UNTRACKED_WAIT_SECONDS * 1000 - 100);
    const read = t.app.inject({ method: 'GET', url: `/api/uploads/${v3.id}/untracked`, headers: { ...t.headers(alice), prefer: 'wait=5' } });
    setTimeout(() => {
      void t.ctx.db.query(`UPDATE untracked_checks SET state = 'done', count = $2, changes = $3, lease_until = NULL WHERE upload_id = $1`,
        [v3.id, done!.count, JSON.stringify(done!.changes)]);
    }, 300);
    const stored = await read;
    expect(stored.statusCode).toBe(200);
    expect(UntrackedReport.parse(stored.json()).count).toBe(done!.count);
  });

  it('checks a version without reading back the bytes its upload wrote, nor those of a previous version it checked, with the same answer', async () => {
    const reads: string[] = [];
    const disk = createDiskBlobStore(path.join(t.config.dataDir, 'blobs'));
    const counting: BlobStore = { kind: disk.kind, put: (k, b) => disk.put(k, b), delete: (k) => disk.delete(k), ping: () => disk.ping(),
      get: (k) => { reads.push(k); return disk.get(k); } };
    const other = await startTestService({}, { db: t.ctx.db, blobs: counting });
    try {
      const add = async (parentId: string, bytes: Uint8Array) => {
        const body = multipartBody({}, { name: 'Supply.docx', bytes });
        const res = await other.app.inject({ method: 'POST', url: `/api/uploads/${parentId}/versions`, payload: body.payload, headers: { ...body.headers, ...t.headers(alice) } });
        expect(res.statusCode, res.body).toBe(201);
        await other.ctx.untracked.settle();
        return expectRow(res.json());
      };
      const v1 = await upload(alice, COUNTERPARTY_BASE);
      const v2 = await add(v1.id, COUNTERPARTY);
      // v1 came in by the other instance's plain upload: read once; v2 was handed over.
      expect(reads.length).toBe(1);
      const v3 = await add(v2.id, COUNTERPARTY_BASE);
      expect(reads.length).toBe(1);
      const kept = await Promise.all([v2, v3].map((v) => other.app.inject({ method: 'GET', url: `/api/uploads/${v.id}/untracked`, headers: t.headers(alice) })));
      // The same answers when every byte is read from the store (this instance kept none of them).
      await t.ctx.db.query('DELETE FROM untracked_checks WHERE upload_id = ANY($1)', [[v2.id, v3.id]]);
      expect(await untrackedOf(alice, v2.id)).toEqual(kept[0]!.json());
      expect(await untrackedOf(alice, v3.id)).toEqual(kept[1]!.json());
      expect(UntrackedReport.parse(kept[1]!.json()).count).toBeGreaterThan(0);
    } finally {
      await other.destroy();
    }
  });

  it('refuses a bad new version with a problem and writes nothing: no row, no check', async () => {
    const v1 = await upload(alice, COUNTERPARTY_BASE);
    const before = await uploadCount();
    const ole = new Uint8Array(4096);
    ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    const truncated = COUNTERPARTY.slice(0, COUNTERPARTY.byteLength - 40);
    const badXml = minimalDocx('<w:p><w:r><w:t>unclosed</w:r>');
    for (const [bytes, status] of [[ole, 415], [truncated, 415], [badXml, 422]] as const) {
      const res = await addVersion(alice, v1.id, bytes);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json().detail).toBeTruthy();
    }
    const small = await startTestService({ maxUploadBytes: 2048 });
    try {
      const grant = await small.signUpAndSignIn('carol@compare-c.example');
      const body = multipartBody({ purpose: 'source_doc' }, { name: 'x.docx', bytes: minimalDocx(p(r('x'))) });
      const first = await small.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...small.headers(grant) } });
      const big = multipartBody({}, { name: 'big.docx', bytes: minimalDocx(p(r(randomBytes(4000).toString('hex')))) });
      const res = await small.app.inject({ method: 'POST', url: `/api/uploads/${first.json().id}/versions`, payload: big.payload, headers: { ...big.headers, ...small.headers(grant) } });
      expect(res.statusCode).toBe(413);
      expect((await small.ctx.db.query('SELECT 1 FROM untracked_checks')).length).toBe(0);
    } finally {
      await small.destroy();
    }
    await t.ctx.untracked.settle();
    expect(await uploadCount()).toBe(before);
    expect((await t.ctx.db.query('SELECT 1 FROM untracked_checks c JOIN uploads u ON u.id = c.upload_id WHERE u.parent_upload_id = $1', [v1.id])).length).toBe(0);
  });

  it('drops the check of a series deleted while it runs', async () => {
    const v1 = await upload(alice, COUNTERPARTY_BASE);
    const v2 = expectRow((await addVersion(alice, v1.id, COUNTERPARTY)).json());
    expect((await call(alice, 'POST', `/api/uploads/${v1.id}/delete`)).statusCode).toBe(200);
    await t.ctx.untracked.settle();
    expect((await t.ctx.db.query('SELECT 1 FROM untracked_checks WHERE upload_id = $1', [v2.id])).length).toBe(0);
    expect((await call(alice, 'GET', `/api/uploads/${v2.id}/untracked`)).statusCode).toBe(404);
    expect((await call(alice, 'POST', `/api/uploads/${v2.id}/untracked/working-draft`)).statusCode).toBe(404);
  });

  it('offers the comparison to the assistant as the MCP tool compare_versions, under the same rules', async () => {
    const v1 = await upload(alice, OLDER);
    const v2 = expectRow((await addVersion(alice, v1.id, NEWER)).json());
    const server = createMcpServer({ orgId: alice.orgId, userId: alice.user.id }, t.ctx);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test-assistant', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const made = await client.callTool({ name: 'compare_versions', arguments: { uploadId: v2.id, against: v1.id } });
      expect(made.isError).not.toBe(true);
      const value = made.structuredContent as { document: DocumentRow; changes: number };
      expect(expectRow(value.document)).toMatchObject({ parentUploadId: v2.id, artifactId: `compare:${v1.id}` });
      expect(value.changes).toBeGreaterThan(0);
      const foreign = await upload(bob, OLDER);
      const refused = await client.callTool({ name: 'compare_versions', arguments: { uploadId: v2.id, against: foreign.id } });
      expect(refused.isError).toBe(true);
      expect((refused.structuredContent as { problem: { code: string } }).problem.code).toBe('not_found');
    } finally {
      await client.close();
    }
  });

  it('documents the routes, their Redline-Changes header and the 202 answer in OpenAPI', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const compare = doc.paths['/uploads/{uploadId}/compare'].post;
    expect(Object.keys(compare.requestBody.content['application/json'].schema.properties)).toEqual(['against', 'author', 'view', 'options']);
    expect(Object.keys(compare.requestBody.content['application/json'].schema.properties.options.properties))
      .toEqual(['granularity', 'ignoreCase', 'ignoreWhitespace', 'ignoreFormatting', 'moves', 'stories']);
    expect(compare.responses['201'].headers[CHANGES_HEADER]).toBeDefined();
    const untracked = doc.paths['/uploads/{uploadId}/untracked'].get;
    expect(Object.keys(untracked.responses['200'].content['application/json'].schema.properties)).toEqual(['against', 'count', 'entries', 'changes', 'pending']);
    expect(untracked.responses['202'].headers['Retry-After']).toBeDefined();
    expect(Object.keys(doc.paths['/uploads/{uploadId}/comparison'].get.responses['200'].content['application/json'].schema.properties)).toContain('pending');
    const untrackedDraft = doc.paths['/uploads/{uploadId}/untracked/working-draft'].post;
    expect(untrackedDraft.responses['201'].headers[CHANGES_HEADER]).toBeDefined();
    expect(Object.keys(untrackedDraft.responses['200'].content['application/json'].schema.properties)).toEqual(['nothingToReview', 'uploadId', 'against']);
  });
});

describe('the engine threads', () => {
  it('is started once and kept: warmed, its first comparison runs on a thread that has run the engine before', async () => {
    const thread = new EngineThreads({});
    try {
      await thread.warm();
      await thread.warm();
      const first = await thread.compare(OLDER.slice(), NEWER.slice(), { view: 'rejected' }, false);
      const second = await thread.compare(OLDER.slice(), NEWER.slice(), { view: 'rejected' }, false);
      expect(first.timing.warm).toBe(true);
      expect(second.differences).toEqual(first.differences);
      expect(first.differences.length).toBeGreaterThan(0);
      expect(thread.workersStarted).toBe(1);
    } finally {
      await thread.close();
    }
  });

  it('hands its inputs over (transferred, not copied), but never a pooled buffer that holds other bytes too', async () => {
    const thread = new EngineThreads({});
    try {
      const cold = await thread.compare(OLDER.slice(), NEWER.slice(), {}, false);
      // Not warmed: the first job is the worker's first.
      expect(cold.timing.warm).toBe(false);
      const own = NEWER.slice();
      const pool = new Uint8Array(OLDER.byteLength + 64);
      pool.set(OLDER, 32);
      const view = pool.subarray(32, 32 + OLDER.byteLength);
      const result = await thread.compare(view, own, {}, true);
      expect(own.byteLength).toBe(0);
      expect(pool.byteLength).toBe(OLDER.byteLength + 64);
      expect(view).toEqual(OLDER);
      expect(result.bytes.byteLength).toBeGreaterThan(0);
      expect(result.differences.length).toBe(cold.differences.length);
      // The same buffer twice in one job is sent as two.
      const same = OLDER.slice();
      expect((await thread.compare(same, same, {}, false)).differences).toEqual([]);
      expect(thread.workersStarted).toBe(1);
    } finally {
      await thread.close();
    }
  });
});

describe('Prefer: wait on the untracked report', () => {
  it('waits what the client prefers (RFC 7240), at most the cap, else the default', () => {
    fc.assert(fc.property(fc.nat(100_000), fc.constantFrom('', 'respond-async, ', 'return=minimal; ', 'handling=lenient,'), fc.boolean(), (n, before, quoted) => {
      const wait = quoted ? `wait="${n}"` : `wait=${n}`;
      expect(preferredWaitSeconds(`${before}${wait}`)).toBe(Math.min(n, UNTRACKED_MAX_WAIT_SECONDS));
      expect(preferredWaitSeconds([`${before}x=1`, wait])).toBe(Math.min(n, UNTRACKED_MAX_WAIT_SECONDS));
    }), { numRuns: 200 });
    for (const none of [undefined, '', 'respond-async', 'handling=strict', 'wait=', 'wait=-1', 'nowait=3']) {
      expect(preferredWaitSeconds(none)).toBe(UNTRACKED_WAIT_SECONDS);
    }
  });
});
