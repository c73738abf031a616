/**
 * An answer proportional to the batch (issue 36.1): a batch sent with `Prefer: return=minimal`
 * and `If-Match` (the listing's ETag) is answered with what it changed in the listing; that
 * delta applied to the listing the client held equals the listing a review read then answers,
 * over random batches on generated drafts (implied decisions, entries, moves, tables). A batch
 * on a listing the draft has moved on from is refused (412) and changes nothing.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import { applyListingDelta, isReviewDelta, ReviewDelta } from '../../contract/listing-delta';
import { ReviewMinimalResponse } from '../../contract/review';
import { buildDemoContract } from '../../docx/fixture';
import { Prng } from '../../docx/fixture/prng';
import { generateFixture } from '../../../test/conformance/decision-fixtures';
import { generateLabProtocol } from '../../../test/conformance/entry-fixtures';
import { multipartBody, startTestService, type TestService } from '../../../test/support/test-service';

describe('the minimal answer as a delta of the listing', () => {
  let t: TestService;
  let lawyer: SessionGrant;
  beforeAll(async () => {
    t = await startTestService();
    lawyer = await t.signUpAndSignIn('delta@firm.example');
  });
  afterAll(async () => t.destroy());

  const call = (method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, headers: { ...t.headers(lawyer), ...headers }, ...(payload ? { payload } : {}) });

  async function newDraft(bytes: Uint8Array): Promise<string> {
    const body = multipartBody({ purpose: 'source_doc' }, { name: 'Draft.docx', bytes });
    const created = await t.app.inject({ method: 'POST', url: '/api/uploads', payload: body.payload, headers: { ...body.headers, ...t.headers(lawyer) } });
    expect(created.statusCode).toBe(201);
    const draft = await call('POST', `/api/uploads/${(created.json() as { id: string }).id}/working-draft`);
    expect(draft.statusCode).toBe(201);
    return (draft.json() as { id: string }).id;
  }
  /** The listing a review read answers now, and its ETag. */
  async function listing(id: string): Promise<{ listing: ReviewMinimalResponse; etag: string }> {
    const res = await call('GET', `/api/documents/${id}/review`, undefined, { prefer: 'return=minimal' });
    expect(res.statusCode).toBe(200);
    return { listing: ReviewMinimalResponse.parse(res.json()), etag: String(res.headers.etag) };
  }
  const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

  /** Random batches until nothing is open, each answered as a delta that must bring the held listing to the read one. */
  async function playBatches(bytes: Uint8Array, planSeed: number): Promise<void> {
    const id = await newDraft(bytes);
    const rng = new Prng(planSeed);
    let { listing: held, etag } = await listing(id);
    for (let batch = 0; batch < 6; batch++) {
      const open = held.revisions.map((r) => r.change_id);
      if (open.length === 0) break;
      const named = open.filter(() => rng.next() < 0.35);
      const ids = named.length ? named : [open[Math.floor(rng.next() * open.length)]!];
      const accept = ids.filter(() => rng.next() < 0.5);
      const reject = ids.filter((x) => !accept.includes(x));
      const res = await call('POST', `/api/documents/${id}/revisions/apply`, { accepted_change_ids: accept, rejected_change_ids: reject },
        { prefer: 'return=minimal', 'if-match': etag });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as object;
      expect(isReviewDelta(body)).toBe(true);
      const delta = ReviewDelta.parse(body);
      expect(delta.base).toBe(JSON.parse(etag));
      expect(res.headers.etag).toBe(`"${delta.version}"`);
      const after = await listing(id);
      expect(after.etag).toBe(res.headers.etag);
      expect(asJson(applyListingDelta(held, delta))).toEqual(asJson(after.listing));
      // The delta names only what the batch touched: no unchanged item travels.
      const heldItems = new Map(held.track!.items.map((i) => [i.id, JSON.stringify(i)]));
      for (const item of delta.track.items.changed) expect(JSON.stringify(item)).not.toBe(heldItems.get(item.id));
      held = after.listing;
      etag = after.etag;
    }
  }

  it('brings the held listing to the read one, over random batches on generated drafts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.nat(), fc.boolean(), async (fixtureSeed, planSeed, lab) => {
        await playBatches(lab ? generateLabProtocol(fixtureSeed) : generateFixture(fixtureSeed).bytes, planSeed);
      }),
      { seed: 36, numRuns: 10 },
    );
  }, 300_000);

  it('on the demo contract too, and refuses a batch on a listing the draft moved on from (412, nothing applied)', async () => {
    await playBatches(buildDemoContract(), 7);
    const id = await newDraft(buildDemoContract());
    const { listing: held, etag } = await listing(id);
    const [first, second] = held.revisions.map((r) => r.change_id);
    expect((await call('POST', `/api/documents/${id}/revisions/apply`, { accepted_change_ids: [first] }, { 'if-match': etag })).statusCode).toBe(200);
    const stale = await call('POST', `/api/documents/${id}/revisions/apply`, { accepted_change_ids: [second] }, { prefer: 'return=minimal', 'if-match': etag });
    expect(stale.statusCode).toBe(412);
    expect((stale.json() as { code: string }).code).toBe('listing_changed');
    const now = await listing(id);
    expect(now.listing.revisions.map((r) => r.change_id)).toContain(second);
    // Without If-Match the minimal answer is the whole listing, as before.
    const whole = await call('POST', `/api/documents/${id}/revisions/apply`, { accepted_change_ids: [second] }, { prefer: 'return=minimal' });
    expect(Object.keys(whole.json() as object).sort()).toEqual(['document', 'revisions', 'track']);
    expect(whole.headers.etag).toMatch(/^".+"$/);
    const bad = await call('POST', `/api/documents/${id}/revisions/apply`, { accepted_change_ids: [] }, { 'if-match': 'no-quotes' });
    expect(bad.statusCode).toBe(400);
  }, 120_000);
});

