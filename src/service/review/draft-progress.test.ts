import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import { DraftProgressList, type DraftProgress } from '../../contract/draft-progress';
import { countEntries } from '../../contract/entries';
import type { Track } from '../../contract/track';
import { DOCUMENT_ROW_FIELDS } from '../../contract/document';
import { buildDemoContract, buildKindSample } from '../../docx/fixture';
import { multipartBody, startTestService, type TestService } from '../../../test/support/test-service';

describe('GET /api/documents/progress', () => {
  let t: TestService;
  let alice: SessionGrant;

  beforeAll(async () => {
    t = await startTestService();
    alice = await t.signUpAndSignIn('alice@progress.example', 'Progress LLP');
  });
  afterAll(async () => t.destroy());

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: t.headers(alice), ...(payload ? { payload } : {}) });
  const upload = async (name: string) => {
    const body = multipartBody({ purpose: 'source_doc' }, { name, bytes: buildDemoContract() });
    return (await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(alice) } })).json() as { id: string; documentSeriesId: string };
  };
  const progress = async (): Promise<DraftProgress[]> => {
    const res = await call('GET', '/api/documents/progress');
    expect(res.statusCode).toBe(200);
    return DraftProgressList.parse(res.json()).items;
  };

  it('answers one entry per series, for its newest working draft, with counts that follow decisions', async () => {
    const withoutDraft = await upload('No draft yet.docx');
    const original = await upload('Supply agreement.docx');
    const first = (await call('POST', `/api/uploads/${original.id}/working-draft`)).json() as { id: string };
    const newest = (await call('POST', `/api/uploads/${original.id}/working-draft`)).json() as { id: string };

    let items = await progress();
    expect(items.map((i) => i.documentSeriesId)).toEqual([original.documentSeriesId]);
    expect(items.map((i) => i.documentSeriesId)).not.toContain(withoutDraft.documentSeriesId);
    const [entry] = items;
    expect(entry!.documentId).toBe(newest.id);
    expect(entry!.documentId).not.toBe(first.id);
    // Never opened: counted on the way (the review stores its track for the next request).
    const review = (await call('GET', `/api/documents/${newest.id}/review`)).json() as { track: Track; revisions: { change_id: string }[] };
    // Entries, as the review page counts them: the demo's edits of several changes count once.
    const groups = new Set(review.track.items.map((i) => i.group ?? i.id)).size;
    expect(groups).toBeLessThan(review.revisions.length);
    const unopened = { open: groups, in: 0, back: 0, total: groups };
    expect(entry!.counts).toEqual(unopened);
    expect(entry!.lastDecision).toBeNull();

    const [a, b, c] = review.revisions.map((r) => r.change_id);
    const applied = await call('POST', `/api/documents/${newest.id}/revisions/apply`, { accepted_change_ids: [a, b], rejected_change_ids: [c] });
    expect(applied.statusCode).toBe(200);
    const track = (applied.json() as { track: Track }).track;
    await t.ctx.review.settle();

    items = await progress();
    expect(items[0]!.counts).toEqual(countEntries(track.items));
    expect(items[0]!.counts!.in + items[0]!.counts!.back).toBeGreaterThanOrEqual(1);
    expect(items[0]!.counts!.total).toBe(groups);
    expect(items[0]!.lastDecision).toMatchObject({ kind: 'decide', byUserId: alice.user.id, byName: 'alice' });
    expect(Date.parse(items[0]!.lastDecision!.at)).toBeGreaterThan(Date.now() - 60_000);

    // An undo is the newest activity, and the counts follow it.
    expect((await call('POST', `/api/documents/${newest.id}/revisions/undo`)).statusCode).toBe(200);
    await t.ctx.review.settle();
    items = await progress();
    expect(items[0]!.lastDecision!.kind).toBe('undo');
    expect(items[0]!.counts).toEqual(unopened);
    const undoneAt = items[0]!.lastDecision!.at;

    // A comment is a log entry but no decision: the last decision stays the undo, and the counts
    // (the projection is behind the log by that entry) are still answered.
    const commented = await call('POST', `/api/documents/${newest.id}/comments`, { changeId: a, text: 'Why this wording?' });
    expect(commented.statusCode).toBe(200);
    await t.ctx.review.settle();
    items = await progress();
    expect(items[0]!.lastDecision).toMatchObject({ kind: 'undo', at: undoneAt });
    expect(items[0]!.counts).toEqual(unopened);
  });

  it('leaves drafts uncounted once the time budget is spent, and counts them on a later request', async () => {
    const { listDraftProgress, projectionReader } = await import('./draft-progress');
    const original = await upload('Budget.docx');
    await call('POST', `/api/uploads/${original.id}/working-draft`);
    let counted = 0;
    const none = await listDraftProgress(t.ctx.db, alice.orgId, async () => { counted++; return { open: 1, in: 0, back: 0, total: 1 }; }, projectionReader(t.ctx.db), -1);
    expect(counted).toBe(0);
    expect(none.find((i) => i.documentSeriesId === original.documentSeriesId)!.counts).toBeNull();
    const later = await progress();
    expect(later.find((i) => i.documentSeriesId === original.documentSeriesId)!.counts!.open).toBeGreaterThan(0);
  });

  it("answers each series' newest untracked-edit check, with its count once done", async () => {
    const original = await upload('Checked.docx');
    const body = multipartBody({}, { name: 'Checked v2.docx', bytes: buildKindSample('delete') });
    const v2 = (await t.app.inject({ method: 'POST', url: `/api/uploads/${original.id}/versions`, payload: body.payload, headers: { ...body.headers, ...t.headers(alice) } })).json() as { id: string };
    let report: { count: number } | null = null;
    for (let i = 0; i < 100 && !report; i++) {
      const res = await call('GET', `/api/uploads/${v2.id}/untracked`);
      if (res.statusCode === 200) report = res.json() as { count: number };
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(report).not.toBeNull();
    const res = await call('GET', '/api/documents/progress');
    const list = DraftProgressList.parse(res.json());
    expect(list.untracked.find((c) => c.documentSeriesId === original.documentSeriesId)).toEqual({
      documentSeriesId: original.documentSeriesId, uploadId: v2.id, state: 'done', count: report!.count,
    });
    // Another organisation sees none of it.
    const bob = await t.signUpAndSignIn('bob@elsewhere.example', 'Elsewhere');
    const theirs = await t.app.inject({ method: 'GET', url: '/api/documents/progress', headers: t.headers(bob) });
    expect(theirs.json()).toEqual({ items: [], untracked: [] });
  });

  it("answers the review of the latest version: never a comparison's redline, a draft made from one, nor an older version's review", async () => {
    const original = await upload('Compared.docx');
    const entryOf = async () => (await progress()).find((i) => i.documentSeriesId === original.documentSeriesId)?.documentId;
    const draftFrom = async (id: string) => {
      const res = await call('POST', `/api/uploads/${id}/working-draft`);
      expect(res.statusCode).toBe(201);
      return (res.json() as { id: string }).id;
    };
    const v1Review = await draftFrom(original.id);
    expect(await entryOf()).toBe(v1Review);
    // A review of the review (a draft made from it) reviews the same version.
    const v1ReviewCopy = await draftFrom(v1Review);
    expect(await entryOf()).toBe(v1ReviewCopy);

    // Their version comes back: v1's review is no review of it.
    const body = multipartBody({}, { name: 'Compared v2.docx', bytes: buildKindSample('delete') });
    const v2 = (await t.app.inject({ method: 'POST', url: `/api/uploads/${original.id}/versions`, payload: body.payload, headers: { ...body.headers, ...t.headers(alice) } })).json() as { id: string };
    expect(await entryOf()).toBeUndefined();
    const compared = await call('POST', `/api/uploads/${v2.id}/compare`, { against: original.id });
    expect(compared.statusCode).toBe(201);
    const redline = compared.json() as { id: string; artifactId: string };
    expect(redline.artifactId).toBe(`compare:${original.id}`);
    expect(await entryOf()).toBeUndefined();
    // Nor is a draft of the redline (the difference between two versions, not a version).
    await draftFrom(redline.id);
    expect(await entryOf()).toBeUndefined();

    const v2Review = await draftFrom(v2.id);
    expect(await entryOf()).toBe(v2Review);
    // Newer rows that review something else leave it standing: another redline, a draft of v1.
    expect((await call('POST', `/api/uploads/${v2.id}/compare`, { against: original.id })).statusCode).toBe(201);
    await draftFrom(original.id);
    expect(await entryOf()).toBe(v2Review);
    // The untracked-edit draft of v2 is v2 whole, its untracked edits tracked: a review of v2.
    const untracked = await call('POST', `/api/uploads/${v2.id}/untracked/working-draft`);
    expect(untracked.statusCode).toBe(201);
    expect(await entryOf()).toBe((untracked.json() as { id: string }).id);
  });

  it('leaves the Document row as it was: 19 fields', async () => {
    const list = (await call('GET', '/api/uploads')).json() as { items: object[] };
    for (const row of list.items) expect(Object.keys(row).sort()).toEqual([...DOCUMENT_ROW_FIELDS].sort());
  });
});

// Issue 21 item 6: a projection that cannot be read costs its series' counts, not the answer
// (the review's track: null rule), whether one draft's read fails or the whole store's.
describe('GET /api/documents/progress when track projections cannot be read', () => {
  let t: TestService;
  let alice: SessionGrant;
  const unreadable = new Set<string>();

  beforeAll(async () => {
    t = await startTestService({}, {
      faults: {
        projectionRead: (ids) => {
          const failing = ids.filter((id) => unreadable.has(id));
          if (failing.length > 0) throw new Error(`injected: projections of ${failing.join(', ')} cannot be read`);
        },
      },
    });
    alice = await t.signUpAndSignIn('alice@unreadable.example', 'Unreadable LLP');
  });
  afterAll(async () => t.destroy());

  const call = (method: 'GET' | 'POST', url: string) => t.app.inject({ method, url, headers: t.headers(alice) });
  const newDraft = async (name: string) => {
    const body = multipartBody({ purpose: 'source_doc' }, { name, bytes: buildKindSample('insert') });
    const created = (await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(alice) } })).json() as { id: string };
    const draft = (await call('POST', `/api/uploads/${created.id}/working-draft`)).json() as { id: string; documentSeriesId: string };
    expect((await call('GET', `/api/documents/${draft.id}/review`)).statusCode).toBe(200);
    return draft;
  };

  it("answers null counts for the series whose projection cannot be read, and the rest as usual", async () => {
    const broken = await newDraft('Broken.docx');
    const fine = await newDraft('Fine.docx');
    unreadable.add(broken.id);
    try {
      const res = await call('GET', '/api/documents/progress');
      expect(res.statusCode).toBe(200);
      const items = DraftProgressList.parse(res.json()).items;
      expect(items.find((i) => i.documentId === broken.id)).toMatchObject({ documentSeriesId: broken.documentSeriesId, counts: null, lastDecision: null });
      expect(items.find((i) => i.documentId === fine.id)!.counts).toEqual({ open: 1, in: 0, back: 0, total: 1 });
      // As the review of that draft does.
      const review = await call('GET', `/api/documents/${broken.id}/review`);
      expect(review.statusCode).toBe(200);
      expect(review.json().track).toBeNull();
    } finally {
      unreadable.clear();
    }
  });

  it('answers 200 with every count null when the projections table itself cannot be read', async () => {
    const draft = await newDraft('Table gone.docx');
    await t.ctx.db.query('ALTER TABLE track_projection RENAME TO track_projection_away');
    try {
      const res = await call('GET', '/api/documents/progress');
      expect(res.statusCode).toBe(200);
      const list = DraftProgressList.parse(res.json());
      expect(list.items.find((i) => i.documentId === draft.id)!.counts).toBeNull();
      expect(list.items.every((i) => i.counts === null)).toBe(true);
      expect((await call('GET', `/api/documents/${draft.id}/review`)).json().track).toBeNull();
    } finally {
      await t.ctx.db.query('ALTER TABLE track_projection_away RENAME TO track_projection');
    }
    const again = DraftProgressList.parse((await call('GET', '/api/documents/progress')).json());
    expect(again.items.find((i) => i.documentId === draft.id)!.counts).toEqual({ open: 1, in: 0, back: 0, total: 1 });
  });
});
