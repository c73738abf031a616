import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import type { DocumentRow } from '../../contract/document';
import { DraftLogEvent, PresenceEvent } from '../../contract/events';
import { ReviewResponse } from '../../contract/review';
import { buildDemoContract } from '../../docx/fixture';
import { EventStreamReader } from '../../../test/support/event-stream';
import { multipartBody, startTestService, type TestService } from '../../../test/support/test-service';
import { createService, type Service } from '../app';
import { addMember, createUser } from '../auth/directory';
import Fastify from 'fastify';
import { ReviewEvents } from './review-events';

/**
 * GET /documents/{id}/events over real HTTP: authentication and tenant isolation, every
 * kind of log entry in order with id = seq (from this instance and another one on the same
 * database), resume after Last-Event-ID, presence, and closing every stream for shutdown.
 */
describe('review event stream', () => {
  let t: TestService;
  let other: Service;
  let base: string;
  let otherBase: string;
  let lawyer: SessionGrant;
  let partner: SessionGrant;
  let outsider: SessionGrant;
  const readers: EventStreamReader[] = [];

  beforeAll(async () => {
    t = await startTestService();
    lawyer = await t.signUpAndSignIn('lawyer@live.example', 'Live LLP');
    await t.ctx.db.transaction(async (tx) => {
      const user = await createUser(tx, 'priya@live.example', 'Priya');
      await addMember(tx, lawyer.orgId, user.id, 'member');
    });
    partner = await t.signIn('priya@live.example');
    outsider = await t.signUpAndSignIn('outsider@elsewhere.example', 'Elsewhere');
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    other = await createService(t.config, { db: t.ctx.db, logger: false });
    otherBase = await other.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await Promise.all(readers.map((r) => r.close()));
    await other?.close();
    await t.destroy();
  });

  const follow = (id: string, grant: SessionGrant, options: { lastEventId?: string; at?: string; reconnect?: boolean } = {}) => {
    const reader = new EventStreamReader(`${options.at ?? base}/api/documents/${id}/events`, t.headers(grant), options);
    readers.push(reader);
    return reader;
  };
  const post = (service: Service, grant: SessionGrant, url: string, payload?: object, headers: Record<string, string> = {}) =>
    service.app.inject({ method: 'POST', url, headers: { ...t.headers(grant), ...headers }, ...(payload ? { payload } : {}) });
  const entries = (r: EventStreamReader) => r.named('entry').map((e) => ({ id: e.id, entry: DraftLogEvent.parse(JSON.parse(e.data)) }));

  async function newDraft(grant = lawyer): Promise<{ draft: DocumentRow; ids: string[]; originalId: string }> {
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'MSA.docx', bytes: buildDemoContract() });
    const created = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(grant) } });
    const draft = (await post(t, grant, `/api/uploads/${created.json().id}/working-draft`)).json() as DocumentRow;
    const review = ReviewResponse.parse((await t.app.inject({ method: 'GET', url: `/api/documents/${draft.id}/review`, headers: t.headers(grant) })).json());
    return { draft, ids: review.revisions.map((r) => r.change_id), originalId: created.json().id };
  }

  it('is authenticated like every document route, and another organisation gets 404', async () => {
    const { draft, originalId } = await newDraft();
    const anonymous = await fetch(`${base}/api/documents/${draft.id}/events`);
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).code).toBe('unauthenticated');
    expect(await follow(draft.id, outsider).status()).toBe(404);
    const wrongOrg = await fetch(`${base}/api/documents/${draft.id}/events`, { headers: t.headers(outsider, lawyer.orgId) });
    expect(wrongOrg.status).toBe(403);
    await wrongOrg.arrayBuffer();
    expect(await follow(originalId, lawyer).status()).toBe(409);
    const badResume = await fetch(`${base}/api/documents/${draft.id}/events`, { headers: { ...t.headers(lawyer), 'last-event-id': 'abc' } });
    expect(badResume.status).toBe(400);
    expect((await badResume.json()).code).toBe('invalid_request');
    const open = follow(draft.id, lawyer);
    expect(await open.status()).toBe(200);
  });

  it('streams every log entry as it commits, in order, id = seq, from this instance and another', async () => {
    const { draft, ids } = await newDraft();
    const stream = follow(draft.id, lawyer);
    const unrelated = await newDraft();
    const bystander = follow(unrelated.draft.id, lawyer);
    await stream.until(() => stream.named('ready').length === 1);
    expect(stream.named('ready')[0]!.id).toBe('0');

    const key = randomUUID();
    expect((await post(t, partner, `/api/documents/${draft.id}/revisions/apply`, { accepted_change_ids: [ids[0]], rejected_change_ids: [ids[1]] }, { 'idempotency-key': key })).statusCode).toBe(200);
    // Through the other instance: this instance's poll of the log finds it.
    expect((await post(other, lawyer, `/api/documents/${draft.id}/revisions/apply`, { rejected_change_ids: [ids[2]] })).statusCode).toBe(200);
    expect((await post(other, lawyer, `/api/documents/${draft.id}/revisions/undo`)).statusCode).toBe(200);
    const redline = await post(t, lawyer, `/api/documents/${draft.id}/redlines`, { edits: [{ op: 'insert', find: 'Agreement', text: ' (as amended)', justification: 'Clarity.' }] });
    const proposed = ReviewResponse.parse(redline.json()).revisions.map((r) => r.change_id).filter((id) => !ids.includes(id));
    expect(proposed.length).toBeGreaterThan(0);
    expect((await post(t, lawyer, `/api/documents/${draft.id}/revisions/apply`, { rejected_change_ids: proposed, recordDecision: false })).statusCode).toBe(200);

    await stream.until(() => entries(stream).length === 5);
    const got = entries(stream);
    expect(got.map((g) => g.id)).toEqual(['1', '2', '3', '4', '5']);
    expect(got.map((g) => g.entry.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(got.map((g) => g.entry.kind)).toEqual(['decide', 'decide', 'undo', 'redline', 'decide']);
    expect(got[0]!.entry).toMatchObject({
      userId: partner.user.id, userName: 'Priya', batchKey: key,
      decided: { [ids[0]!]: { state: 'in', decidedByUserId: partner.user.id }, [ids[1]!]: { state: 'back' } },
    });
    expect(got[1]!.entry).toMatchObject({ userName: 'lawyer', batchKey: null, decided: { [ids[2]!]: { state: 'back' } } });
    expect(got[2]!.entry).toMatchObject({ undoesSeq: 2, reopened: [ids[2]] });
    expect(got[3]!.entry.proposed.sort()).toEqual([...proposed].sort());
    expect(got[4]!.entry).toMatchObject({ decided: {}, withdrawn: expect.arrayContaining(proposed) });
    // Nothing of this draft reached the stream of another.
    await new Promise((r) => setTimeout(r, 300));
    expect(bystander.named('entry')).toEqual([]);
  });

  it('resumes after Last-Event-ID with every entry after it, then follows', async () => {
    const { draft, ids } = await newDraft();
    for (const id of ids.slice(0, 3)) expect((await post(t, lawyer, `/api/documents/${draft.id}/revisions/apply`, { accepted_change_ids: [id] })).statusCode).toBe(200);
    const resumed = follow(draft.id, lawyer, { lastEventId: '1' });
    await resumed.until(() => resumed.named('ready').length === 1);
    expect(entries(resumed).map((g) => g.entry.seq)).toEqual([2, 3]);
    expect(resumed.named('ready')[0]!.id).toBe('3');
    expect((await post(other, lawyer, `/api/documents/${draft.id}/revisions/apply`, { accepted_change_ids: [ids[3]] })).statusCode).toBe(200);
    await resumed.until(() => entries(resumed).length === 3);
    expect(entries(resumed).map((g) => g.entry.seq)).toEqual([2, 3, 4]);
  });

  it('tells each viewer who else has the draft open, on any instance, and when they leave', async () => {
    const { draft } = await newDraft();
    const viewersIn = (r: EventStreamReader) => {
      const last = r.named('presence').at(-1);
      return last ? PresenceEvent.parse(JSON.parse(last.data)).viewers.map((v) => `${v.name}:${v.connections}`) : [];
    };
    const mine = follow(draft.id, lawyer);
    await mine.until(() => viewersIn(mine).join() === 'lawyer:1');
    const priyas = follow(draft.id, partner, { at: otherBase });
    await mine.until(() => viewersIn(mine).join() === 'lawyer:1,Priya:1');
    await priyas.until(() => viewersIn(priyas).join() === 'lawyer:1,Priya:1');
    await priyas.close();
    await mine.until(() => viewersIn(mine).join() === 'lawyer:1');
  });

  it('closes every open stream on closeStreams(), so the server can shut down', async () => {
    const { draft } = await newDraft();
    const spare = await createService(t.config, { db: t.ctx.db, logger: false });
    const spareBase = await spare.app.listen({ port: 0, host: '127.0.0.1' });
    const a = follow(draft.id, lawyer, { at: spareBase });
    const b = follow(draft.id, partner, { at: spareBase });
    await a.until(() => a.named('ready').length === 1);
    await b.until(() => b.named('ready').length === 1);
    expect(spare.events.openStreams).toBe(2);
    await spare.closeStreams();
    expect(spare.events.openStreams).toBe(0);
    const started = Date.now();
    await spare.close();
    expect(Date.now() - started).toBeLessThan(3_000);
    const left = await t.ctx.db.query('SELECT 1 FROM review_presence WHERE upload_id = $1', [draft.id]);
    expect(left).toEqual([]);
  });

  it('ends a stream whose session has ended, at a heartbeat', async () => {
    const { draft } = await newDraft();
    let allowed = true;
    const events = new ReviewEvents(t.ctx.db, { warn: () => {} }, { heartbeatMs: 40 });
    const app = Fastify();
    app.get('/stream', async (_request, reply) => {
      await events.open(reply, draft.id, lawyer.user.id, null, async () => allowed);
      return reply;
    });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const reader = new EventStreamReader(`${url}/stream`, {});
      readers.push(reader);
      await reader.until(() => reader.named('ready').length === 1);
      await new Promise((r) => setTimeout(r, 400));
      expect(events.openStreams).toBe(1);
      expect(reader.events.length).toBeGreaterThan(1);
      allowed = false;
      // The stream leaves the open set at once; its presence row is deleted right after (a query
      // of its own), so wait for both rather than read the table the moment the count drops.
      const present = async () => (await t.ctx.db.query('SELECT 1 FROM review_presence WHERE upload_id = $1', [draft.id])).length;
      const deadline = Date.now() + 3_000;
      while ((events.openStreams > 0 || (await present()) > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(events.openStreams).toBe(0);
      expect(await present()).toBe(0);
    } finally {
      await events.closeAll();
      await app.close();
    }
  });
});
