import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import { CommentList, CommentsResponse } from '../../contract/comments';
import type { DocumentRow } from '../../contract/document';
import { ReviewResponse } from '../../contract/review';
import { openDocx } from '../../docx';
import { buildDemoContract } from '../../docx/fixture';
import { partsOf } from '../../../test/support/docx-files';
import { multipartBody, startTestService, type TestService } from '../../../test/support/test-service';

describe('comment routes and draft downloads', () => {
  let t: TestService;
  let lawyer: SessionGrant;

  beforeAll(async () => {
    t = await startTestService();
    lawyer = await t.signUpAndSignIn('counsel@firm.example', 'Firm LLP');
  });
  afterAll(async () => t.destroy());

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, grant = lawyer) =>
    t.app.inject({ method, url, headers: t.headers(grant), ...(payload ? { payload } : {}) });

  async function newDraft(): Promise<DocumentRow> {
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'MSA.docx', bytes: buildDemoContract() });
    const created = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(lawyer) } });
    const draft = await call('POST', `/api/uploads/${created.json().id}/working-draft`);
    expect(draft.statusCode).toBe(201);
    return draft.json() as DocumentRow;
  }
  const comments = async (id: string) => CommentList.parse((await call('GET', `/api/documents/${id}/comments`)).json()).comments;
  const review = async (id: string) => ReviewResponse.parse((await call('GET', `/api/documents/${id}/review`)).json());
  const stored = async (id: string) => new Uint8Array((await call('GET', `/api/uploads/${id}/content`)).rawPayload);

  it('lists the comments of an uploaded draft: the assistant\u2019s justifications, with their authors and dates', async () => {
    const draft = await newDraft();
    const list = await comments(draft.id);
    expect(list.length).toBeGreaterThan(3);
    expect(list.every((c) => c.justification && c.changeIds.length > 0 && c.author && c.date)).toBe(true);
  });

  it('adds on a change and on text, replies, resolves and reopens; each answers the review plus the comments, and the stored draft holds them', async () => {
    const draft = await newDraft();
    const { revisions } = await review(draft.id);
    const target = revisions.find((r) => r.kind === 'delete')!.change_id;

    const added = await call('POST', `/api/documents/${draft.id}/comments`, { changeId: target, text: 'We cannot accept this deletion.' });
    expect(added.statusCode).toBe(200);
    const a = CommentsResponse.parse(added.json());
    const mine = a.comments.find((c) => c.id === a.commentId)!;
    expect(mine).toMatchObject({ parentId: null, text: 'We cannot accept this deletion.', resolved: false, changeIds: [target], justification: false });
    expect(mine.author).toBeTruthy();
    expect(a.revisions.map((r) => r.change_id)).toEqual(revisions.map((r) => r.change_id));
    expect(a.track).not.toBeNull();

    const onText = CommentsResponse.parse((await call('POST', `/api/documents/${draft.id}/comments`, { anchor: { find: 'Agreement', occurrence: 2 }, text: 'Defined term?' })).json());
    expect(onText.comments.find((c) => c.id === onText.commentId)!.anchorText).toBe('Agreement');

    const replied = CommentsResponse.parse((await call('POST', `/api/documents/${draft.id}/comments/${a.commentId}/replies`, { text: 'Agreed.' })).json());
    expect(replied.comments.find((c) => c.id === replied.commentId)).toMatchObject({ parentId: a.commentId, text: 'Agreed.' });

    const resolved = CommentsResponse.parse((await call('PATCH', `/api/documents/${draft.id}/comments/${replied.commentId}`, { resolved: true })).json());
    expect(resolved.comments.filter((c) => c.id === a.commentId || c.parentId === a.commentId).map((c) => c.resolved)).toEqual([true, true]);
    const reopened = CommentsResponse.parse((await call('PATCH', `/api/documents/${draft.id}/comments/${a.commentId}`, { resolved: false })).json());
    expect(reopened.comments.find((c) => c.id === a.commentId)!.resolved).toBe(false);

    // The stored draft is the answer's content; the engine reads the same comments back.
    const bytes = await stored(draft.id);
    expect(Buffer.from(bytes).toString('base64')).toBe(reopened.contentBase64);
    expect(openDocx(bytes).comments()).toEqual(reopened.comments);
    expect(await comments(draft.id)).toEqual(reopened.comments);
    // The render variant marks the comment's range for the app's highlight.
    const render = partsOf(Buffer.from(reopened.renderContentBase64!, 'base64')).get('word/document.xml')!;
    expect(render).toContain(`w:name="_rlcs_${a.commentId}"`);
    expect(render).toContain(`w:name="_rlce_${a.commentId}"`);
  });

  it('refuses bad input with problem details, changing nothing', async () => {
    const draft = await newDraft();
    const other = await newDraft();
    const theirs = CommentsResponse.parse((await call('POST', `/api/documents/${other.id}/comments`, { anchor: { find: 'Customer' }, text: 'Theirs' })).json());
    const before = await stored(draft.id);
    const cases: { method: 'POST' | 'PATCH'; url: string; body: object; status: number; code: string }[] = [
      { method: 'POST', url: 'comments', body: { anchor: { find: 'Customer' }, text: 'x'.repeat(10_001) }, status: 400, code: 'invalid_request' },
      { method: 'POST', url: 'comments', body: { anchor: { find: 'Customer' }, text: '   ' }, status: 400, code: 'invalid_request' },
      { method: 'POST', url: 'comments', body: { changeId: 'c1', anchor: { find: 'Customer' }, text: 'both' }, status: 400, code: 'invalid_request' },
      { method: 'POST', url: 'comments', body: { text: 'neither' }, status: 400, code: 'invalid_request' },
      { method: 'POST', url: 'comments', body: { changeId: 'c999999', text: 'x' }, status: 422, code: 'unknown_change_ids' },
      { method: 'POST', url: 'comments', body: { anchor: { find: 'no such words anywhere' }, text: 'x' }, status: 422, code: 'anchor_not_found' },
      { method: 'POST', url: 'comments', body: { anchor: { find: 'Customer', occurrence: 10_000 }, text: 'x' }, status: 422, code: 'anchor_not_found' },
      // A reply to another document's comment: this draft has no comment with that id.
      { method: 'POST', url: `comments/${theirs.commentId! + '9'}/replies`, body: { text: 'x' }, status: 404, code: 'comment_not_found' },
      { method: 'POST', url: 'comments/999/replies', body: { text: 'x'.repeat(10_001) }, status: 400, code: 'invalid_request' },
      { method: 'PATCH', url: 'comments/999', body: { resolved: true }, status: 404, code: 'comment_not_found' },
      { method: 'PATCH', url: 'comments/999', body: { resolved: 'yes' }, status: 400, code: 'invalid_request' },
    ];
    for (const c of cases) {
      const res = await call(c.method, `/api/documents/${draft.id}/${c.url}`, c.body);
      expect([c.url, res.statusCode, res.json().code]).toEqual([c.url, c.status, c.code]);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
    expect(await stored(draft.id)).toEqual(before);
    // Another organisation's draft is not found.
    const stranger = await t.signUpAndSignIn('stranger@elsewhere.example', 'Elsewhere');
    const foreign = await call('POST', `/api/documents/${draft.id}/comments`, { anchor: { find: 'Customer' }, text: 'x' }, stranger);
    expect(foreign.statusCode).toBe(404);
  });

  it('a reply to a comment of another document is refused even when the id exists only there', async () => {
    const draft = await newDraft();
    const other = await newDraft();
    const own = await comments(draft.id);
    const theirs = CommentsResponse.parse((await call('POST', `/api/documents/${other.id}/comments`, { anchor: { find: 'Customer' }, text: 'Theirs' })).json());
    expect(own.some((c) => c.id === theirs.commentId)).toBe(false);
    const res = await call('POST', `/api/documents/${draft.id}/comments/${theirs.commentId}/replies`, { text: 'x' });
    expect([res.statusCode, res.json().code]).toEqual([404, 'comment_not_found']);
  });

  it('keeps comments through decisions and undo, and logs them without touching the track', async () => {
    const draft = await newDraft();
    const { revisions } = await review(draft.id);
    const first = revisions[0]!.change_id;
    const applied = await call('POST', `/api/documents/${draft.id}/revisions/apply`, { accepted_change_ids: [first] });
    expect(applied.statusCode).toBe(200);
    const c = CommentsResponse.parse((await call('POST', `/api/documents/${draft.id}/comments`, { changeId: revisions[1]!.change_id, text: 'After the batch' })).json());
    expect(c.track!.counts.in).toBe(1);
    await call('POST', `/api/documents/${draft.id}/comments/${c.commentId}/replies`, { text: 'Reply after the batch' });
    // Undo the batch: the decision is undone, the comments written since are still there.
    const undone = await call('POST', `/api/documents/${draft.id}/revisions/undo`);
    expect(undone.statusCode).toBe(200);
    expect(ReviewResponse.parse(undone.json()).track!.counts.in).toBe(0);
    const after = await comments(draft.id);
    expect(after.filter((x) => x.text === 'After the batch' || x.text === 'Reply after the batch')).toHaveLength(2);
    // Deciding the commented change keeps its comment (as a point comment).
    const decided = await call('POST', `/api/documents/${draft.id}/revisions/apply`, { rejected_change_ids: [revisions[1]!.change_id] });
    expect(decided.statusCode).toBe(200);
    expect((await comments(draft.id)).some((x) => x.id === c.commentId)).toBe(true);
  });

  it('downloads the draft as it stands and a clean copy, with comments kept or removed', async () => {
    const draft = await newDraft();
    await call('POST', `/api/documents/${draft.id}/comments`, { anchor: { find: 'Customer' }, text: 'Keep me' });
    const get = (query: string) => call('GET', `/api/documents/${draft.id}/download${query}`);
    const redline = await get('');
    expect(redline.statusCode).toBe(200);
    expect(redline.headers['content-disposition']).toContain('MSA.docx');
    const asIs = openDocx(new Uint8Array(redline.rawPayload));
    expect(asIs.revisionCount).toBeGreaterThan(10);
    expect(asIs.comments().some((c) => c.text === 'Keep me')).toBe(true);

    const clean = await get('?variant=clean&comments=keep');
    expect(clean.headers['content-disposition']).toContain(encodeURIComponent('MSA (clean).docx'));
    const kept = openDocx(new Uint8Array(clean.rawPayload));
    expect(kept.revisionCount).toBe(0);
    expect(kept.comments().some((c) => c.text === 'Keep me')).toBe(true);

    const bare = openDocx(new Uint8Array((await get('?variant=clean&comments=remove')).rawPayload));
    expect([bare.revisionCount, bare.comments().length]).toEqual([0, 0]);
    const redlineBare = openDocx(new Uint8Array((await get('?comments=remove')).rawPayload));
    expect(redlineBare.revisionCount).toBe(asIs.revisionCount);
    expect(redlineBare.comments()).toEqual([]);

    const bad = await get('?variant=final');
    expect([bad.statusCode, bad.json().code]).toEqual([400, 'invalid_request']);
    // The stored draft is untouched by downloads.
    expect(openDocx(await stored(draft.id)).revisionCount).toBe(asIs.revisionCount);
  });
});
