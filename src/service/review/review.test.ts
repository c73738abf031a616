import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import type { DocumentRow } from '../../contract/document';
import { REVISION_KINDS } from '../../contract/revision';
import { ReviewResponse } from '../../contract/review';
import { listRevisions, openDocx } from '../../docx';
import { buildDemoContract, buildDocx, by, del, ins, p } from '../../docx/fixture';
import { partsOf } from '../../../test/support/docx-files';
import { nativeZipCodec } from '../engine/native-zip-codec';
import { multipartBody, startTestService, type TestService } from '../../../test/support/test-service';

type Review = ReviewResponse;


describe('review API and the track', () => {
  let t: TestService;
  let lawyer: SessionGrant;
  let failProjection = false;
  let crashAfterBlobWrite = false;

  beforeAll(async () => {
    t = await startTestService({}, {
      faults: {
        projection: () => {
          if (failProjection) throw new Error('injected: decisions store down');
        },
        afterBlobWrite: () => {
          if (crashAfterBlobWrite) throw new Error('injected: crash between blob write and commit');
        },
      },
    });
    lawyer = await t.signUpAndSignIn('lawyer@firm.example');
  });
  afterAll(async () => t.destroy());

  const call = (grant: SessionGrant, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: t.headers(grant), ...(payload ? { payload } : {}) });

  async function newDraft(grant = lawyer, bytes = buildDemoContract()): Promise<DocumentRow> {
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'MSA.docx', bytes });
    const created = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(grant) } });
    expect(created.statusCode).toBe(201);
    const draft = await call(grant, 'POST', `/api/uploads/${created.json().id}/working-draft`);
    expect(draft.statusCode).toBe(201);
    return draft.json() as DocumentRow;
  }
  const review = async (id: string, grant = lawyer): Promise<Review> => {
    const res = await call(grant, 'GET', `/api/documents/${id}/review`);
    expect(res.statusCode).toBe(200);
    return ReviewResponse.parse(res.json());
  };
  const apply = (id: string, body: object, grant = lawyer) => call(grant, 'POST', `/api/documents/${id}/revisions/apply`, body);

  it('answers the review: revisions of all ten kinds, render variant, and a track in document order', async () => {
    const draft = await newDraft();
    const r = await review(draft.id);
    expect(new Set(r.revisions.map((x) => x.kind))).toEqual(new Set(REVISION_KINDS));
    expect(r.renderContentBase64).toEqual(expect.any(String));
    expect(Buffer.from(r.contentBase64, 'base64').byteLength).toBe(r.document.sizeBytes);
    const track = r.track!;
    expect(track.items.map((i) => i.id)).toEqual(r.revisions.map((x) => x.change_id));
    expect(track.items.map((i) => i.label)).toEqual(r.revisions.map((_, i) => `Change ${i + 1}`));
    expect(track.hereId).toBe(r.revisions[0]!.change_id);
    expect(track.counts).toEqual({ open: r.revisions.length, in: 0, back: 0, total: r.revisions.length });
    expect(r.revisions.some((x) => x.justification)).toBe(true);
    const open = track.items[0]!;
    expect(open).toHaveProperty('date');
    expect(open).toHaveProperty('justification');
  });

  it('applies a batch: the document, revisions and track all move together', async () => {
    const draft = await newDraft();
    const before = await review(draft.id);
    const [a, b, c] = before.revisions.map((x) => x.change_id);
    const res = await apply(draft.id, { accepted_change_ids: [a, b], rejected_change_ids: [c] });
    expect(res.statusCode).toBe(200);
    const after = ReviewResponse.parse(res.json());
    expect(after.document.contentSha256).not.toBe(before.document.contentSha256);
    expect(after.revisions.map((x) => x.change_id)).not.toContain(a);
    expect(after.revisions).toHaveLength(before.revisions.length - 3);
    // The engine agrees with the service about what is left in the stored bytes.
    expect(listRevisions(new Uint8Array(Buffer.from(after.contentBase64, 'base64'))).map((x) => x.change_id))
      .toEqual(after.revisions.map((x) => x.change_id));
    const track = after.track!;
    expect(track.items.map((i) => i.id)).toEqual(before.track!.items.map((i) => i.id));
    expect(track.items.slice(0, 3).map((i) => i.state)).toEqual(['in', 'in', 'back']);
    const decided = track.items[0]!;
    expect(decided).toMatchObject({ decidedByUserId: lawyer.user.id, decidedAt: expect.any(String) });
    expect(decided).not.toHaveProperty('justification');
    expect(decided).not.toHaveProperty('date');
    expect(track.counts).toMatchObject({ in: 2, back: 1, open: before.revisions.length - 3 });
    expect(track.hereId).toBe(before.revisions[3]!.change_id);
    // Reading again gives the same answer.
    const again = await review(draft.id);
    expect(again.track).toEqual(track);
  });

  it('keeps the draft open between batches, writing what a fresh parse would, and says where the time went', async () => {
    const draft = await newDraft();
    let current = await review(draft.id);
    for (let batch = 0; batch < 3; batch++) {
      const ids = current.revisions.map((x) => x.change_id).filter((_, i) => i % 5 === batch);
      const decision = { accept: ids.filter((_, i) => i % 2 === 0), reject: ids.filter((_, i) => i % 2 === 1) };
      const res = await apply(draft.id, { accepted_change_ids: decision.accept, rejected_change_ids: decision.reject });
      expect(res.statusCode).toBe(200);
      expect(res.headers['server-timing']).toMatch(/(^|, )open;desc="hit";dur=[\d.]+, facts;dur=[\d.]+, apply;dur=[\d.]+, write;dur=[\d.]+, render;dur=.*commit;dur=/);
      const next = ReviewResponse.parse(res.json());
      const expected = openDocx(Buffer.from(current.contentBase64, 'base64'), { codec: nativeZipCodec }).apply(decision);
      expect(Buffer.from(next.contentBase64, 'base64').equals(expected.toBytes())).toBe(true);
      // The variant is written while the content is compressed, so a part the batch changed but the
      // variant does not touch may be deflated at another level: the same parts, not the same bytes.
      expect(partsOf(Buffer.from(next.renderContentBase64!, 'base64'))).toEqual(partsOf(expected.renderVariant()));
      current = next;
    }
  });

  it('is atomic: a bad batch names the ids and changes nothing', async () => {
    const draft = await newDraft();
    const before = await review(draft.id);
    const ids = before.revisions.map((x) => x.change_id);
    await apply(draft.id, { accepted_change_ids: [ids[0]] });
    const snapshot = await review(draft.id);

    const unknown = await apply(draft.id, { accepted_change_ids: [ids[1], 'nope-1'], rejected_change_ids: ['nope-2'] });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({ code: 'unknown_change_ids', ids: ['nope-1', 'nope-2'] });

    const decided = await apply(draft.id, { rejected_change_ids: [ids[0], ids[2]] });
    expect(decided.statusCode).toBe(409);
    expect(decided.json()).toMatchObject({ code: 'already_decided', ids: [ids[0]] });

    const both = await apply(draft.id, { accepted_change_ids: [ids[1]], rejected_change_ids: [ids[1]] });
    expect(both.statusCode).toBe(400);
    expect(both.json()).toMatchObject({ code: 'conflicting_change_ids', ids: [ids[1]] });

    const badBody = await apply(draft.id, { accepted_change_ids: 'all' });
    expect(badBody.statusCode).toBe(400);
    expect(badBody.json().code).toBe('invalid_request');

    const after = await review(draft.id);
    expect(after.document).toEqual(snapshot.document);
    expect(after.track).toEqual(snapshot.track);

    const empty = await apply(draft.id, {});
    expect(empty.statusCode).toBe(200);
    expect(ReviewResponse.parse(empty.json()).document).toEqual(snapshot.document);
  });

  it('refuses to apply to anything but a working draft, and to another org', async () => {
    const draft = await newDraft();
    const original = await call(lawyer, 'POST', `/api/documents/${draft.parentUploadId}/revisions/apply`, { accepted_change_ids: [] });
    expect(original.statusCode).toBe(409);
    expect(original.json().code).toBe('not_working_draft');
    const other = await t.signUpAndSignIn('other@elsewhere.example');
    for (const res of [
      await call(other, 'GET', `/api/documents/${draft.id}/review`),
      await call(other, 'POST', `/api/documents/${draft.id}/revisions/apply`, { accepted_change_ids: [] }),
      await call(other, 'POST', `/api/documents/${draft.id}/revisions/undo`),
      await call(other, 'POST', `/api/documents/${draft.id}/redlines`, { edits: [{ op: 'delete', find: 'Agreement' }] }),
    ]) {
      expect(res.statusCode).toBe(404);
    }
  });

  it('stores the projection of each batch after answering, and a read uses it', async () => {
    const draft = await newDraft();
    const ids = (await review(draft.id)).revisions.map((x) => x.change_id);
    await apply(draft.id, { accepted_change_ids: [ids[0]] });
    const second = ReviewResponse.parse((await apply(draft.id, { rejected_change_ids: [ids[1]] })).json());
    await t.ctx.review.settle();
    const [stored] = await t.ctx.db.query<{ log_seq: number; content_sha256: string }>('SELECT log_seq, content_sha256 FROM track_projection WHERE upload_id = $1', [draft.id]);
    expect(stored).toEqual({ log_seq: 2, content_sha256: second.document.contentSha256 });
    expect((await review(draft.id)).track).toEqual(second.track);
  });

  it('answers track: null when the decisions store fails, and the next read rebuilds it from the log', async () => {
    const draft = await newDraft();
    const before = await review(draft.id);
    const id = before.revisions[0]!.change_id;
    failProjection = true;
    let res;
    try {
      res = await apply(draft.id, { rejected_change_ids: [id] });
    } finally {
      failProjection = false;
    }
    expect(res.statusCode).toBe(200);
    const body = ReviewResponse.parse(res.json());
    expect(body.track).toBeNull();
    expect(body.revisions.map((x) => x.change_id)).not.toContain(id);
    await t.ctx.db.query('DELETE FROM track_projection WHERE upload_id = $1', [draft.id]);
    const rebuilt = (await review(draft.id)).track!;
    expect(rebuilt.items.find((i) => i.id === id)).toMatchObject({ state: 'back', decidedByUserId: lawyer.user.id });
    expect(rebuilt.counts.back).toBe(1);
  });

  it('leaves no row pointing at a missing blob when it dies between blob write and commit, and the retry succeeds', async () => {
    const draft = await newDraft();
    const before = await review(draft.id);
    const id = before.revisions[1]!.change_id;
    crashAfterBlobWrite = true;
    let res;
    try {
      res = await apply(draft.id, { accepted_change_ids: [id] });
    } finally {
      crashAfterBlobWrite = false;
    }
    expect(res.statusCode).toBe(500);
    const unchanged = await review(draft.id);
    expect(unchanged.document).toEqual(before.document);
    expect(unchanged.track).toEqual(before.track);
    const rows = await t.ctx.db.query<{ content_sha256: string }>('SELECT content_sha256 FROM uploads');
    for (const row of rows) await expect(t.ctx.content.get(row.content_sha256)).resolves.toBeInstanceOf(Uint8Array);
    const retry = await apply(draft.id, { accepted_change_ids: [id] });
    expect(retry.statusCode).toBe(200);
  });

  it('undoes the last batch: content restored, items reopened; only its author, only if nothing came after', async () => {
    const draft = await newDraft();
    const before = await review(draft.id);
    const [a, b] = before.revisions.map((x) => x.change_id);
    expect((await call(lawyer, 'POST', `/api/documents/${draft.id}/revisions/undo`)).json().code).toBe('nothing_to_undo');
    await apply(draft.id, { accepted_change_ids: [a] });
    await apply(draft.id, { rejected_change_ids: [b] });
    const undo = await call(lawyer, 'POST', `/api/documents/${draft.id}/revisions/undo`);
    expect(undo.statusCode).toBe(200);
    const undone = ReviewResponse.parse(undo.json());
    expect(undone.revisions.map((x) => x.change_id)).toContain(b);
    expect(undone.track!.items.find((i) => i.id === b)!.state).toBe('open');
    expect(undone.track!.items.find((i) => i.id === a)!.state).toBe('in');
    const twice = ReviewResponse.parse((await call(lawyer, 'POST', `/api/documents/${draft.id}/revisions/undo`)).json());
    expect(twice.document.contentSha256).toBe(before.document.contentSha256);
    expect(twice.track!.counts).toMatchObject({ in: 0, back: 0, open: before.revisions.length });

    // Someone else's batch cannot be undone by me.
    const colleague = await t.signIn('lawyer@firm.example');
    const other = await t.signUpAndSignIn('partner@firm.example');
    await t.ctx.db.query('INSERT INTO memberships (org_id, user_id, role) VALUES ($1, $2, $3)', [lawyer.orgId, other.user.id, 'member']);
    await apply(draft.id, { accepted_change_ids: [a] }, colleague);
    const refused = await call(other, 'POST', `/api/documents/${draft.id}/revisions/undo`, undefined);
    const headers = t.headers(other, lawyer.orgId);
    const refusedInOrg = await t.app.inject({ method: 'POST', url: `/api/documents/${draft.id}/revisions/undo`, headers });
    expect(refused.statusCode).toBe(404);
    expect(refusedInOrg.statusCode).toBe(409);
    // Nothing can be undone once the draft changed after the batch.
    await call(lawyer, 'POST', `/api/documents/${draft.id}/redlines`, { edits: [{ op: 'insert', find: 'In this Agreement', text: ' (as amended)' }] });
    const stale = await call(lawyer, 'POST', `/api/documents/${draft.id}/revisions/undo`);
    expect(stale.statusCode).toBe(409);
  });

  it('writes redline edits with justifications; new changes join the track at their position', async () => {
    const draft = await newDraft();
    const before = await review(draft.id);
    const first = before.revisions[0]!.change_id;
    await apply(draft.id, { accepted_change_ids: [first] });
    const res = await call(lawyer, 'POST', `/api/documents/${draft.id}/redlines`, {
      edits: [
        { op: 'replace', find: 'the following terms have the meanings given below', text: 'these terms mean', justification: 'Plain English.' },
        { op: 'delete', find: 'to perform the Services', justification: 'Duplicated in clause 5.' },
      ],
    });
    expect(res.statusCode).toBe(200);
    const after = ReviewResponse.parse(res.json());
    const added = after.revisions.filter((x) => !before.revisions.some((b) => b.change_id === x.change_id));
    expect(added.length).toBeGreaterThanOrEqual(3);
    expect(added.every((x) => x.author === 'lawyer')).toBe(true);
    expect(added.map((x) => x.justification)).toEqual(expect.arrayContaining(['Plain English.', 'Duplicated in clause 5.']));
    const track = after.track!;
    expect(track.items[0]).toMatchObject({ id: first, state: 'in' });
    // Document order: each new change sits right after the change before it in the document.
    const openIds = track.items.filter((i) => i.state === 'open').map((i) => i.id);
    expect(openIds).toEqual(after.revisions.map((x) => x.change_id));
    expect(track.counts.total).toBe(after.revisions.length + 1);

    const missing = await call(lawyer, 'POST', `/api/documents/${draft.id}/redlines`, {
      edits: [{ op: 'delete', find: 'Agreement' }, { op: 'replace', find: 'no such words anywhere', text: 'x' }],
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({ code: 'edit_not_found', errors: [{ path: 'edits.1.find' }] });
    expect((await review(draft.id)).document).toEqual(after.document);
  });

  it('withdraws only the caller\'s own proposals with recordDecision false; they leave the track', async () => {
    const draft = await newDraft();
    const before = await review(draft.id);
    const notMine = before.revisions[0]!.change_id;
    const refused = await apply(draft.id, { rejected_change_ids: [notMine], recordDecision: false });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'not_own_proposal', ids: [notMine] });

    const proposed = ReviewResponse.parse((await call(lawyer, 'POST', `/api/documents/${draft.id}/redlines`, {
      edits: [{ op: 'insert', find: 'In this Agreement', text: ', unless the context requires otherwise', justification: 'Standard carve-out.' }],
    })).json());
    const mine = proposed.revisions.find((x) => x.justification === 'Standard carve-out.')!.change_id;
    // Another session of the same user counts as the same proposer.
    const otherTab = await t.signIn('lawyer@firm.example');
    const withdrawn = await apply(draft.id, { rejected_change_ids: [mine], record_decision: false }, otherTab);
    expect(withdrawn.statusCode).toBe(200);
    const body = ReviewResponse.parse(withdrawn.json());
    expect(body.revisions.map((x) => x.change_id)).not.toContain(mine);
    expect(body.track!.items.map((i) => i.id)).not.toContain(mine);
    expect(body.track!.counts).toMatchObject({ in: 0, back: 0 });
    expect(body.revisions).toEqual(before.revisions);
    const again = await apply(draft.id, { rejected_change_ids: [mine], recordDecision: false });
    expect(again.statusCode).toBe(409);
  });

  it('records the changes a decision resolves with it: accepting a deleted row decides the deletions inside it', async () => {
    const draft = await newDraft();
    const before = await review(draft.id);
    const row = before.revisions.find((x) => x.kind === 'tr-prop-change' && x.text_preview.startsWith('Row deleted'))!;
    const res = ReviewResponse.parse((await apply(draft.id, { accepted_change_ids: [row.change_id] })).json());
    const gone = before.revisions.filter((x) => !res.revisions.some((y) => y.change_id === x.change_id)).map((x) => x.change_id);
    expect(gone.length).toBeGreaterThan(1);
    for (const id of gone) expect(res.track!.items.find((i) => i.id === id)?.state).toBe('in');
    expect(res.track!.counts.total).toBe(before.track!.counts.total);
    const again = await apply(draft.id, { rejected_change_ids: [gone[1]!] });
    expect(again.statusCode).toBe(409);
  });

  it('serialises 20 concurrent disjoint batches on one draft: all recorded, all applied', async () => {
    const counsel = by('Counsel', '2026-11-01T09:00:00Z');
    const independent = buildDocx({
      body: Array.from({ length: 40 }, (_, i) => i % 2 ? p(`Clause ${i}: payment within `, del(counsel, 'sixty'), ' days.') : p(`Clause ${i}: notice by `, ins(counsel, 'e-mail or '), 'post.')),
    });
    const draft = await newDraft(lawyer, independent);
    const before = await review(draft.id);
    const ids = before.revisions.map((x) => x.change_id).slice(0, 40);
    expect(ids.length).toBeGreaterThanOrEqual(20);
    const batches = Array.from({ length: 20 }, (_, i) => ids.filter((_, j) => j % 20 === i));
    // One sign-in at a time: a new code cancels the previous one, by design.
    const sessions: SessionGrant[] = [];
    for (let i = 0; i < batches.length; i++) sessions.push(await t.signIn('lawyer@firm.example'));
    const results = await Promise.all(batches.map((batch, i) =>
      apply(draft.id, i % 2 ? { accepted_change_ids: batch } : { rejected_change_ids: batch }, sessions[i])));
    expect(results.map((r) => (r.statusCode === 200 ? 200 : r.body))).toEqual(Array(20).fill(200));
    const after = await review(draft.id);
    const decided = new Map(after.track!.items.filter((i) => i.state !== 'open').map((i) => [i.id, i.state]));
    expect(decided.size).toBe(ids.length);
    batches.forEach((batch, i) => batch.forEach((id) => expect(decided.get(id)).toBe(i % 2 ? 'in' : 'back')));
    const left = listRevisions(new Uint8Array(Buffer.from(after.contentBase64, 'base64'))).map((x) => x.change_id);
    expect(left.filter((id) => ids.includes(id))).toEqual([]);
    const log = await t.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM decision_batches WHERE upload_id = $1', [draft.id]);
    expect(log[0]!.n).toBe(20);
  });
});
