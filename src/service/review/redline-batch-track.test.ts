/**
 * The answer to a heavy batch of redline edits (written on an engine thread) reads its track on
 * what that thread sent: the service's thread neither parses the new content (for the track's
 * decision facts and entries) nor unzips it (for the upload caps), each a second of a long
 * draft's time on the thread answering every request (issue 31 item 2). The track it answers is
 * the one a fresh read makes: another service with nothing cached, the stored projection gone.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import type { DocumentRow } from '../../contract/document';
import { DocumentText } from '../../contract/reading';
import { ReviewMinimalResponse, ReviewResponse } from '../../contract/review';
import { buildBenchmarkContract } from '../../docx/fixture';
import { plainBodyParagraphs, spreadReplaceEdits } from '../../../test/support/redline-batches';
import { multipartBody, startTestService, type TestService, signedInCaller } from '../../../test/support/test-service';
import { nativeZipCodec } from '../engine/native-zip-codec';
import { ReviewService } from './review-service';

describe('the answer to a heavy redline batch', () => {
  let t: TestService;
  let lawyer: SessionGrant;
  let call: ReturnType<typeof signedInCaller>;
  beforeAll(async () => {
    t = await startTestService();
    lawyer = await t.signUpAndSignIn('batch-track@firm.example', 'Batch Track LLP');
    call = signedInCaller(t, lawyer);
  });
  afterAll(async () => t.destroy());

  /** The review as a fresh service reads it: no draft open, nothing cached, the track rebuilt from the log. */
  async function freshRead(draftId: string): Promise<ReviewResponse> {
    await t.ctx.review.settle();
    await t.ctx.db.query('DELETE FROM track_projection WHERE upload_id = $1', [draftId]);
    const fresh = new ReviewService(t.ctx.db, t.ctx.content, { codec: nativeZipCodec }, { warn: () => {} });
    return fresh.review({ orgId: lawyer.orgId, userId: lawyer.user.id }, draftId);
  }

  it('parses and unzips nothing on the service thread, and lists the track a fresh read lists, after decisions and batches in turn', async () => {
    // 900 paragraphs with tracked changes of every kind: the batch's changes join a track of others, some decided.
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'Framework.docx', bytes: buildBenchmarkContract({ pages: 20, revisions: 80 }) });
    const created = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(lawyer) } });
    expect(created.statusCode, created.body).toBe(201);
    const draft = (await call('POST', `/api/uploads/${created.json().id}/working-draft`)).json() as DocumentRow;
    const read = ReviewResponse.parse((await call('GET', `/api/documents/${draft.id}/review`)).json());
    expect(read.revisions.length).toBeGreaterThan(20);
    // The review service's parsed-draft reader (draft-reads.ts): every parse and caps check on this thread goes through it.
    const reads = (t.ctx.review as unknown as { parts: { reads: { open: (bytes: Uint8Array) => unknown; checkCaps: (bytes: Uint8Array) => void } } }).parts.reads;
    const open = vi.spyOn(reads, 'open');
    const caps = vi.spyOn(reads, 'checkCaps');

    const ids = read.revisions.map((r) => r.change_id);
    const decided = await call('POST', `/api/documents/${draft.id}/revisions/apply`, { accepted_change_ids: ids.slice(0, 3), rejected_change_ids: ids.slice(3, 5) });
    expect(decided.statusCode, decided.body).toBe(200);
    for (const [round, prefer] of [[1, {}], [2, { prefer: 'return=minimal' }]] as const) {
      const text = DocumentText.parse((await call('GET', `/api/uploads/${draft.id}/text?limit=1000`)).json());
      const edits = spreadReplaceEdits(plainBodyParagraphs(text.blocks).slice(round * 5), 60);
      open.mockClear();
      caps.mockClear();
      const written = await call('POST', `/api/documents/${draft.id}/redlines`, { edits }, prefer);
      expect(written.statusCode, written.body).toBe(200);
      expect(written.headers['server-timing'], 'written on an engine thread').toContain('engine;dur=');
      // Before: the track opened the new content here (its facts and entries), and the caps unzipped it.
      expect(open, `round ${round}: drafts parsed on the service thread`).not.toHaveBeenCalled();
      expect(caps, `round ${round}: contents unzipped for the caps on the service thread`).not.toHaveBeenCalled();
      const answer = round === 1 ? ReviewResponse.parse(written.json()) : ReviewMinimalResponse.parse(written.json());
      expect(answer.track?.entries?.length).toBeGreaterThan(60);
      const fresh = await freshRead(draft.id);
      expect(answer.track).toEqual(fresh.track);
      expect(answer.revisions).toEqual(fresh.revisions);
      // Decisions on the batch's changes and the older ones, between the batches.
      const newIds = answer.revisions.filter((r) => r.text_preview === 'the amended words').map((r) => r.change_id);
      const older = answer.revisions.filter((r) => r.text_preview !== 'the amended words').map((r) => r.change_id);
      const next = await call('POST', `/api/documents/${draft.id}/revisions/apply`, { accepted_change_ids: [newIds[0]!, older[0]!], rejected_change_ids: [newIds[1]!] });
      expect(next.statusCode, next.body).toBe(200);
      expect(ReviewResponse.parse(next.json()).track).toEqual((await freshRead(draft.id)).track);
    }
  }, 120_000);
});
