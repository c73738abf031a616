import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import type { DocumentRow } from '../../contract/document';
import { ReviewResponse } from '../../contract/review';
import { buildDemoContract } from '../../docx/fixture';
import { addMember, createUser } from '../auth/directory';
import { createMcpServer } from '../connector/mcp-tools';
import { multipartBody, startTestService, type TestService } from '../../../test/support/test-service';

/** Issue 14, the lawyer's answer: decision notes, withdrawing one's own proposals, counter-proposals placed before a text. */
describe('decision notes and own proposals', () => {
  let t: TestService;
  let lawyer: SessionGrant;
  let colleague: SessionGrant;

  beforeAll(async () => {
    t = await startTestService();
    lawyer = await t.signUpAndSignIn('notes@firm.example', 'Notes LLP');
    await t.ctx.db.transaction(async (tx) => addMember(tx, lawyer.orgId, (await createUser(tx, 'colleague@firm.example', 'Colleague')).id, 'member'));
    colleague = await t.signIn('colleague@firm.example');
  });
  afterAll(async () => t.destroy());

  const call = (grant: SessionGrant, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: t.headers(grant, lawyer.orgId), ...(payload ? { payload } : {}) });
  async function newDraft(): Promise<DocumentRow> {
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'MSA.docx', bytes: buildDemoContract() });
    const created = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(lawyer) } });
    return (await call(lawyer, 'POST', `/api/uploads/${created.json().id}/working-draft`)).json() as DocumentRow;
  }
  const review = async (id: string): Promise<ReviewResponse> => ReviewResponse.parse((await call(lawyer, 'GET', `/api/documents/${id}/review`)).json());
  const logRows = (id: string) => t.ctx.db.query<{ seq: number; kind: string; notes: Record<string, string> }>(
    'SELECT seq, kind, notes FROM decision_batches WHERE upload_id = $1 ORDER BY seq', [id]);

  it('records notes with their decisions in the log and shows them on the decided track items', async () => {
    const draft = await newDraft();
    const [a, b, c] = (await review(draft.id)).revisions.map((r) => r.change_id);
    const res = await call(lawyer, 'POST', `/api/documents/${draft.id}/revisions/apply`, {
      accepted_change_ids: [a], rejected_change_ids: [b, c], notes: { [b!]: '  Too broad: the cap must stay at 12 months.  ', [c!]: '' },
    });
    expect(res.statusCode).toBe(200);
    const items = ReviewResponse.parse(res.json()).track!.items;
    expect(items.find((i) => i.id === b)).toMatchObject({ state: 'back', note: 'Too broad: the cap must stay at 12 months.' });
    expect(items.find((i) => i.id === a)).toMatchObject({ state: 'in', note: null });
    expect(items.find((i) => i.id === c)).toMatchObject({ state: 'back', note: null });
    expect(await logRows(draft.id)).toEqual([{ seq: 1, kind: 'decide', notes: { [b!]: 'Too broad: the cap must stay at 12 months.' } }]);
    // A fresh read (projection rebuilt from the log) says the same.
    expect((await review(draft.id)).track!.items.find((i) => i.id === b)!.note).toBe('Too broad: the cap must stay at 12 months.');
  });

  it('refuses notes for changes the batch does not decide, notes over 10,000 characters, and notes on a withdrawal, changing nothing', async () => {
    const draft = await newDraft();
    const before = await review(draft.id);
    const [a, b] = before.revisions.map((r) => r.change_id);
    const cases: [object, number, string][] = [
      [{ accepted_change_ids: [a], notes: { [b!]: 'not in this batch' } }, 422, 'note_without_decision'],
      [{ accepted_change_ids: [a], notes: { c999999: 'unknown' } }, 422, 'note_without_decision'],
      [{ accepted_change_ids: [a], notes: { [a!]: 'x'.repeat(10_001) } }, 422, 'note_too_long'],
      [{ rejected_change_ids: [a], recordDecision: false, notes: { [a!]: 'withdrawn' } }, 422, 'note_without_decision'],
      [{ accepted_change_ids: [a], notes: { [a!]: 42 } }, 400, 'invalid_request'],
    ];
    for (const [body, status, code] of cases) {
      const res = await call(lawyer, 'POST', `/api/documents/${draft.id}/revisions/apply`, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(res.json().code).toBe(code);
    }
    const after = await review(draft.id);
    expect(after.document.contentSha256).toBe(before.document.contentSha256);
    expect(after.track!.counts).toEqual(before.track!.counts);
    expect(await logRows(draft.id)).toEqual([]);
    // Exactly 10,000 characters is fine.
    const ok = await call(lawyer, 'POST', `/api/documents/${draft.id}/revisions/apply`, { accepted_change_ids: [a], notes: { [a!]: 'y'.repeat(10_000) } });
    expect(ok.statusCode).toBe(200);
  });

  it('notes a decision made earlier (the app\'s n), replaces and removes it; an undo takes the note away with its batch', async () => {
    const draft = await newDraft();
    const [a, b] = (await review(draft.id)).revisions.map((r) => r.change_id);
    expect((await call(lawyer, 'POST', `/api/documents/${draft.id}/revisions/apply`, { rejected_change_ids: [a] })).statusCode).toBe(200);
    const noteUrl = (id: string) => `/api/documents/${draft.id}/decisions/${id}/note`;

    const open = await call(lawyer, 'PUT', noteUrl(b!), { note: 'not decided yet' });
    expect(open.statusCode).toBe(422);
    expect(open.json()).toMatchObject({ code: 'note_without_decision', ids: [b] });
    const long = await call(lawyer, 'PUT', noteUrl(a!), { note: 'z'.repeat(10_001) });
    expect(long.statusCode).toBe(422);
    expect(long.json().code).toBe('note_too_long');

    const noted = await call(lawyer, 'PUT', noteUrl(a!), { note: 'Their wording shifts the risk to us.' });
    expect(noted.statusCode).toBe(200);
    expect(ReviewResponse.parse(noted.json()).track!.items.find((i) => i.id === a)).toMatchObject({ state: 'back', note: 'Their wording shifts the risk to us.' });
    const replaced = await call(colleague, 'PUT', noteUrl(a!), { note: 'Agreed with the client on 3 May.' });
    expect(ReviewResponse.parse(replaced.json()).track!.items.find((i) => i.id === a)!.note).toBe('Agreed with the client on 3 May.');
    expect((await review(draft.id)).track!.items.find((i) => i.id === a)!.note).toBe('Agreed with the client on 3 May.');
    const removed = await call(lawyer, 'PUT', noteUrl(a!), { note: '' });
    expect(ReviewResponse.parse(removed.json()).track!.items.find((i) => i.id === a)!.note).toBeNull();
    expect((await logRows(draft.id)).map((r) => r.kind)).toEqual(['decide', 'note', 'note', 'note']);

    // Notes leave the content alone, so the batch can still be undone; its note goes with it.
    await call(lawyer, 'PUT', noteUrl(a!), { note: 'Back again.' });
    const undone = await call(lawyer, 'POST', `/api/documents/${draft.id}/revisions/undo`);
    expect(undone.statusCode).toBe(200);
    const reopened = ReviewResponse.parse(undone.json()).track!.items.find((i) => i.id === a)!;
    expect(reopened.state).toBe('open');
    expect(reopened.note).toBeUndefined();
    expect((await call(lawyer, 'PUT', noteUrl(a!), { note: 'gone' })).statusCode).toBe(422);
  });

  it('lets a user withdraw their own proposal (no decision recorded) and refuses anyone else\'s with not_own_proposal', async () => {
    const draft = await newDraft();
    const proposed = await call(lawyer, 'POST', `/api/documents/${draft.id}/redlines`, {
      edits: [{ op: 'insert', position: 'before', find: 'Agreement', text: 'Master ', justification: 'The defined term is "Master Agreement".' }],
    });
    expect(proposed.statusCode).toBe(200);
    const mine = ReviewResponse.parse(proposed.json()).track!.items.filter((i) => i.proposedByUserId === lawyer.user.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ state: 'open', kind: 'insert', textPreview: 'Master', author: 'notes', justification: 'The defined term is "Master Agreement".' });
    const theirs = ReviewResponse.parse(proposed.json()).track!.items.find((i) => i.state === 'open' && i.proposedByUserId === undefined)!;

    const refusedOther = await call(colleague, 'POST', `/api/documents/${draft.id}/revisions/apply`, { rejected_change_ids: [mine[0]!.id], recordDecision: false });
    expect(refusedOther.statusCode).toBe(403);
    expect(refusedOther.json()).toMatchObject({ code: 'not_own_proposal', ids: [mine[0]!.id] });
    const refusedTheirs = await call(lawyer, 'POST', `/api/documents/${draft.id}/revisions/apply`, { rejected_change_ids: [theirs.id], recordDecision: false });
    expect(refusedTheirs.statusCode).toBe(403);

    const withdrawn = await call(lawyer, 'POST', `/api/documents/${draft.id}/revisions/apply`, { rejected_change_ids: [mine[0]!.id], recordDecision: false });
    expect(withdrawn.statusCode).toBe(200);
    const after = ReviewResponse.parse(withdrawn.json());
    expect(after.track!.items.map((i) => i.id)).not.toContain(mine[0]!.id);
    expect(after.track!.counts).toMatchObject({ in: 0, back: 0 });
    expect(after.revisions.map((r) => r.change_id)).not.toContain(mine[0]!.id);
  });

  it('gives the assistant the notes through get_review, and takes its own notes through apply_decisions', async () => {
    const draft = await newDraft();
    const [a, b] = (await review(draft.id)).revisions.map((r) => r.change_id);
    await call(lawyer, 'POST', `/api/documents/${draft.id}/revisions/apply`, { rejected_change_ids: [a], notes: { [a!]: 'Rejected: keep the 30-day notice period.' } });

    const server = createMcpServer({ userId: lawyer.user.id, orgId: lawyer.orgId }, t.ctx);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'test-assistant', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const got = await client.callTool({ name: 'get_review', arguments: { documentId: draft.id } });
      const track = (got.structuredContent as { track: ReviewResponse['track'] }).track!;
      expect(track.items.find((i) => i.id === a)).toMatchObject({ state: 'back', note: 'Rejected: keep the 30-day notice period.' });
      const applied = await client.callTool({ name: 'apply_decisions', arguments: { documentId: draft.id, accept: [b], notes: { [b!]: 'Fine as drafted.' } } });
      expect(applied.isError).toBeFalsy();
      expect((applied.structuredContent as { track: ReviewResponse['track'] }).track!.items.find((i) => i.id === b)!.note).toBe('Fine as drafted.');
      const stray = await client.callTool({ name: 'apply_decisions', arguments: { documentId: draft.id, accept: [], notes: { [a!]: 'late' } } });
      expect(stray.isError).toBe(true);
      expect((stray.structuredContent as { problem: { code: string } }).problem.code).toBe('note_without_decision');
    } finally {
      await client.close();
    }
  });
});
