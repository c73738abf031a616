import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import type { DocumentRow } from '../../contract/document';
import { ReviewResponse } from '../../contract/review';
import { buildDemoContract } from '../../docx/fixture';
import { createService, type Service } from '../app';
import { addMember, createUser } from '../auth/directory';
import { multipartBody, startTestService, type TestService } from '../../../test/support/test-service';
import { purgeExpiredKeys } from './idempotency';

/**
 * Idempotency-Key on apply, undo and redline edits: a batch sent again (its first answer
 * lost on the way back) is applied exactly once and answered with the original result.
 */
describe('Idempotency-Key on review changes', () => {
  let t: TestService;
  let lawyer: SessionGrant;
  let partner: SessionGrant;
  /** A second instance on the same database: its own queue, its own drafts kept open. */
  let other: Service;

  beforeAll(async () => {
    t = await startTestService();
    lawyer = await t.signUpAndSignIn('lawyer@keys.example', 'Keys LLP');
    await t.ctx.db.transaction(async (tx) => {
      const user = await createUser(tx, 'partner@keys.example', 'Priya Partner');
      await addMember(tx, lawyer.orgId, user.id, 'member');
    });
    partner = await t.signIn('partner@keys.example');
    other = await createService(t.config, { db: t.ctx.db, logger: false });
  });
  afterAll(async () => {
    await other?.close();
    await t.destroy();
  });

  const send = (service: Service, grant: SessionGrant, url: string, payload: object | undefined, key?: string) =>
    service.app.inject({ method: 'POST', url, headers: { ...t.headers(grant), ...(key ? { 'idempotency-key': key } : {}) }, ...(payload ? { payload } : {}) });
  const apply = (id: string, body: object, key?: string, grant = lawyer, service: Service = t) =>
    send(service, grant, `/api/documents/${id}/revisions/apply`, body, key);
  const logOf = (id: string) => t.ctx.db.query<{ seq: number; kind: string }>('SELECT seq, kind FROM decision_batches WHERE upload_id = $1 ORDER BY seq', [id]);

  async function newDraft(): Promise<{ draft: DocumentRow; ids: string[] }> {
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'MSA.docx', bytes: buildDemoContract() });
    const created = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(lawyer) } });
    const draft = (await t.app.inject({ method: 'POST', url: `/api/uploads/${created.json().id}/working-draft`, headers: t.headers(lawyer) })).json() as DocumentRow;
    const review = ReviewResponse.parse((await t.app.inject({ method: 'GET', url: `/api/documents/${draft.id}/review`, headers: t.headers(lawyer) })).json());
    return { draft, ids: review.revisions.map((r) => r.change_id) };
  }

  it('applies a batch sent twice with one key exactly once, and answers the replay with the original result', async () => {
    const { draft, ids } = await newDraft();
    const key = randomUUID();
    const first = await apply(draft.id, { accepted_change_ids: [ids[0]], rejected_change_ids: [ids[1]] }, key);
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // Someone else decides another change meanwhile: the replay still answers what the batch did.
    expect((await apply(draft.id, { accepted_change_ids: [ids[2]] }, randomUUID(), partner)).statusCode).toBe(200);
    const again = await apply(draft.id, { accepted_change_ids: [ids[0]], rejected_change_ids: [ids[1]] }, key);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const [a, b] = [ReviewResponse.parse(first.json()), ReviewResponse.parse(again.json())];
    expect(b.document).toEqual(a.document);
    expect(b.contentBase64).toBe(a.contentBase64);
    expect(b.revisions).toEqual(a.revisions);
    expect(b.track).toEqual(a.track);
    expect(b.track!.items.find((i) => i.id === ids[2])!.state).toBe('open');
    expect(await logOf(draft.id)).toEqual([{ seq: 1, kind: 'decide' }, { seq: 2, kind: 'decide' }]);
  });

  it("documents in OpenAPI what the service answers a reused key, on every route that takes one", async () => {
    const { draft, ids } = await newDraft();
    const key = randomUUID();
    await apply(draft.id, { accepted_change_ids: [ids[0]] }, key);
    const reused = await apply(draft.id, { accepted_change_ids: [ids[1]] }, key);
    const { status, code } = reused.json() as { status: number; code: string };
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const documented: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { parameters: { in: string; name: string; description?: string }[] }>>)) {
      for (const [method, op] of Object.entries(item)) {
        const header = op.parameters.find((p) => p.in === 'header' && p.name === 'idempotency-key');
        if (!header) continue;
        documented.push(`${method} ${path}`);
        expect(header.description, `${method} ${path}`).toContain(`${status} \`${code}\``);
        expect(header.description, `${method} ${path}`).not.toMatch(/\b409\b/);
        expect(header.description).toContain('24 hours');
      }
    }
    expect(documented.sort()).toEqual(['post /documents/{documentId}/redlines', 'post /documents/{documentId}/revisions/apply', 'post /documents/{documentId}/revisions/undo']);
  });

  it('refuses the same key with a different request: 422 idempotency_key_reused, nothing changed', async () => {
    const { draft, ids } = await newDraft();
    const key = randomUUID();
    expect((await apply(draft.id, { accepted_change_ids: [ids[0]] }, key)).statusCode).toBe(200);
    const otherBody = await apply(draft.id, { accepted_change_ids: [ids[1]] }, key);
    expect(otherBody.statusCode).toBe(422);
    expect(otherBody.json()).toMatchObject({ code: 'idempotency_key_reused', status: 422 });
    // The same body from another person is another request too.
    const otherCaller = await apply(draft.id, { accepted_change_ids: [ids[0]] }, key, partner);
    expect(otherCaller.statusCode).toBe(422);
    const undo = await send(t, lawyer, `/api/documents/${draft.id}/revisions/undo`, undefined, key);
    expect(undo.json().code).toBe('idempotency_key_reused');
    expect(await logOf(draft.id)).toHaveLength(1);
    for (const bad of ['short', 'has space in it', 'x'.repeat(201)]) {
      const res = await apply(draft.id, { accepted_change_ids: [ids[1]] }, bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().code).toBe('invalid_request');
    }
    expect(await logOf(draft.id)).toHaveLength(1);
  });

  it('undoes once and writes redlines once when each is sent twice', async () => {
    const { draft, ids } = await newDraft();
    expect((await apply(draft.id, { accepted_change_ids: [ids[0]] })).statusCode).toBe(200);
    expect((await apply(draft.id, { accepted_change_ids: [ids[1]] })).statusCode).toBe(200);
    const key = randomUUID();
    const undo = () => send(t, lawyer, `/api/documents/${draft.id}/revisions/undo`, undefined, key);
    const [u1, u2] = [await undo(), await undo()];
    expect([u1.statusCode, u2.statusCode]).toEqual([200, 200]);
    expect(u2.headers['idempotent-replayed']).toBe('true');
    // Only the second batch was undone; without the key the repeat would have undone the first too.
    const track = ReviewResponse.parse(u2.json()).track!;
    expect(track.items.find((i) => i.id === ids[0])!.state).toBe('in');
    expect(track.items.find((i) => i.id === ids[1])!.state).toBe('open');

    const redlineKey = randomUUID();
    const edits = { edits: [{ op: 'insert', find: 'Agreement', text: ' (as amended)', justification: 'Clarity.' }] };
    const r1 = await send(t, lawyer, `/api/documents/${draft.id}/redlines`, edits, redlineKey);
    const r2 = await send(t, lawyer, `/api/documents/${draft.id}/redlines`, edits, redlineKey);
    expect([r1.statusCode, r2.statusCode]).toEqual([200, 200]);
    expect(ReviewResponse.parse(r2.json()).revisions).toEqual(ReviewResponse.parse(r1.json()).revisions);
    expect((await logOf(draft.id)).map((e) => e.kind)).toEqual(['decide', 'decide', 'undo', 'redline']);
  });

  it('applies once when the same batch arrives at two instances at once', async () => {
    const { draft, ids } = await newDraft();
    const key = randomUUID();
    const body = { rejected_change_ids: [ids[3]] };
    const answers = await Promise.all([apply(draft.id, body, key), apply(draft.id, body, key, lawyer, other), apply(draft.id, body, key, lawyer, other)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(2);
    expect(new Set(answers.map((a) => a.json().document.contentSha256)).size).toBe(1);
    expect(await logOf(draft.id)).toHaveLength(1);
  });

  it('forgets a key after 24 hours: the batch sent again is then a new request, refused as already decided by whom', async () => {
    const { draft, ids } = await newDraft();
    const key = randomUUID();
    expect((await apply(draft.id, { accepted_change_ids: [ids[0]] }, key, partner)).statusCode).toBe(200);
    await t.ctx.db.query("UPDATE idempotency_keys SET created_at = now() - interval '23 hours' WHERE key = $1", [key]);
    expect((await apply(draft.id, { accepted_change_ids: [ids[0]] }, key, partner)).headers['idempotent-replayed']).toBe('true');
    await t.ctx.db.query("UPDATE idempotency_keys SET created_at = now() - interval '24 hours 1 minute' WHERE key = $1", [key]);
    const late = await apply(draft.id, { accepted_change_ids: [ids[0]] }, key, partner);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      code: 'already_decided', ids: [ids[0]],
      decisions: [{ id: ids[0], state: 'in', decidedByUserId: partner.user.id, decidedByName: 'Priya Partner', decidedAt: expect.any(String) }],
    });
    await purgeExpiredKeys(t.ctx.db);
    expect(await t.ctx.db.query('SELECT 1 FROM idempotency_keys WHERE key = $1', [key])).toEqual([]);
  });
});
