/**
 * `Prefer: return=minimal` (RFC 7240) on apply, undo and redline edits (issue 22.4): the answer
 * carries the Document row, revisions and track and no content, says Preference-Applied, and
 * is what the full answer says about the same draft; the content it leaves out is the same as a
 * full answer's would be, and GET render serves the render variant alone. Without the
 * preference the answer is the interface's default, unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import type { DocumentRow } from '../../contract/document';
import { IDEMPOTENCY_KEY_HEADER } from '../../contract/events';
import { ReviewMinimalResponse, ReviewResponse } from '../../contract/review';
import { buildDemoContract } from '../../docx/fixture';
import { multipartBody, startTestService, type TestService, signedInCaller } from '../../../test/support/test-service';
import { prefersMinimal } from '../routes/document-routes';

describe('Prefer: return=minimal', () => {
  let t: TestService;
  let lawyer: SessionGrant;
  let call: ReturnType<typeof signedInCaller>;
  beforeAll(async () => {
    t = await startTestService();
    lawyer = await t.signUpAndSignIn('minimal@firm.example');
    call = signedInCaller(t, lawyer);
  });
  afterAll(async () => t.destroy());

  const minimal = { prefer: 'return=minimal' };

  async function newDraft(): Promise<DocumentRow> {
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'MSA.docx', bytes: buildDemoContract() });
    const created = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(lawyer) } });
    const draft = await call('POST', `/api/uploads/${created.json().id}/working-draft`);
    expect(draft.statusCode).toBe(201);
    return draft.json() as DocumentRow;
  }
  const review = async (id: string) => ReviewResponse.parse((await call('GET', `/api/documents/${id}/review`)).json());

  /** A minimal answer: 200, said so, no content, and what a full read of the draft then says. */
  async function expectMinimal(res: Awaited<ReturnType<typeof call>>, id: string) {
    expect(res.statusCode).toBe(200);
    expect(res.headers['preference-applied']).toBe('return=minimal');
    expect(res.headers.vary).toContain('Prefer');
    const body = res.json() as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['document', 'revisions', 'track']);
    const answer = ReviewMinimalResponse.parse(body);
    const full = await review(id);
    expect(answer.document).toEqual(full.document);
    expect(answer.revisions).toEqual(full.revisions);
    expect(answer.track).toEqual(full.track);
    return { answer, full };
  }

  it('answers apply, undo and redline edits minimal; the same batches answered in full leave the same content', async () => {
    const [lean, whole] = [await newDraft(), await newDraft()];
    const ids = (await review(lean.id)).revisions.map((r) => r.change_id);
    const batches = [{ accepted_change_ids: ids.slice(0, 3) }, { rejected_change_ids: ids.slice(3, 6), accepted_change_ids: ids.slice(6, 8) }];
    for (const batch of batches) {
      await expectMinimal(await call('POST', `/api/documents/${lean.id}/revisions/apply`, batch, minimal), lean.id);
      const res = await call('POST', `/api/documents/${whole.id}/revisions/apply`, batch);
      expect(res.headers['preference-applied']).toBeUndefined();
      ReviewResponse.parse(res.json());
    }
    const [a, b] = [await review(lean.id), await review(whole.id)];
    expect(a.document.contentSha256).toBe(b.document.contentSha256);
    expect(a.renderContentBase64).toBe(b.renderContentBase64);
    expect(a.track!.items.map((i) => [i.id, i.state])).toEqual(b.track!.items.map((i) => [i.id, i.state]));

    const undone = await expectMinimal(await call('POST', `/api/documents/${lean.id}/revisions/undo`, undefined, minimal), lean.id);
    expect(undone.answer.revisions.map((r) => r.change_id)).toEqual(expect.arrayContaining(ids.slice(3, 8)));
    const edit = { edits: [{ op: 'insert', find: 'In this Agreement', text: ' (as amended)', justification: 'Clarity.' }] };
    const edited = await expectMinimal(await call('POST', `/api/documents/${lean.id}/redlines`, edit, minimal), lean.id);
    expect(edited.answer.revisions.some((r) => r.justification === 'Clarity.')).toBe(true);
  });

  it('keeps the default answer without the preference, or with another one', async () => {
    const draft = await newDraft();
    const id = (await review(draft.id)).revisions[0]!.change_id;
    const res = await call('POST', `/api/documents/${draft.id}/revisions/apply`, { accepted_change_ids: [id] }, { prefer: 'return=representation, wait=3' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['preference-applied']).toBeUndefined();
    expect(ReviewResponse.parse(res.json()).contentBase64).toEqual(expect.any(String));
  });

  it('replays a recorded answer minimal too', async () => {
    const draft = await newDraft();
    const id = (await review(draft.id)).revisions[0]!.change_id;
    const key = { ...minimal, [IDEMPOTENCY_KEY_HEADER]: 'minimal-replay-key-1' };
    const first = await call('POST', `/api/documents/${draft.id}/revisions/apply`, { accepted_change_ids: [id] }, key);
    const again = await call('POST', `/api/documents/${draft.id}/revisions/apply`, { accepted_change_ids: [id] }, key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['preference-applied']).toBe('return=minimal');
    expect(again.json()).toEqual(first.json());
  });

  it('serves the render variant alone, tagged with the content hash it shows', async () => {
    const draft = await newDraft();
    const id = (await review(draft.id)).revisions[0]!.change_id;
    await call('POST', `/api/documents/${draft.id}/revisions/apply`, { accepted_change_ids: [id] }, minimal);
    const res = await call('GET', `/api/documents/${draft.id}/render`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('wordprocessingml');
    const full = await review(draft.id);
    expect(res.headers.etag).toBe(`"${full.document.contentSha256}"`);
    expect(res.rawPayload.equals(Buffer.from(full.renderContentBase64!, 'base64'))).toBe(true);
  });

  it('reads the review minimal: what the full read says, without the content the app fetches from GET render', async () => {
    const draft = await newDraft();
    const res = await call('GET', `/api/documents/${draft.id}/review`, undefined, minimal);
    const { full } = await expectMinimal(res, draft.id);
    expect(full.contentBase64).toEqual(expect.any(String));
    const render = await call('GET', `/api/documents/${draft.id}/render`);
    expect(render.rawPayload.equals(Buffer.from(full.renderContentBase64 ?? full.contentBase64, 'base64'))).toBe(true);
    const fullBytes = (await call('GET', `/api/documents/${draft.id}/review`)).rawPayload.length;
    expect(fullBytes - res.rawPayload.length).toBeGreaterThanOrEqual(full.contentBase64.length);
    // Without the preference, the full answer as before.
    expect((await call('GET', `/api/documents/${draft.id}/review`)).headers['preference-applied']).toBeUndefined();
  });

  it('reads the preference as RFC 7240 writes it', () => {
    for (const yes of ['return=minimal', 'respond-async, return=minimal', 'RETURN = "minimal"; foo=bar', 'wait=2,return=minimal']) expect(prefersMinimal(yes), yes).toBe(true);
    for (const no of [undefined, '', 'return=representation', 'return=minimalist', 'minimal', 'wait=2']) expect(prefersMinimal(no), String(no)).toBe(false);
    expect(prefersMinimal(['wait=1', 'return=minimal'])).toBe(true);
  });
});
