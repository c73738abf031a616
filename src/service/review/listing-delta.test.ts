/**
 * An answer proportional to the batch (issue 36.1): a batch sent with `Prefer: return=minimal`
 * and `If-Match` (the listing's ETag) is answered with what it changed in the listing; that
 * delta applied to the listing the client held equals the listing a review read then answers,
 * over random batches on generated drafts (implied decisions, entries, moves, tables). Undo and
 * redline edits answer the same way (issue 36.4), and a client that missed changes catches up
 * from a version it holds (GET review?since=). A change on a listing the draft has moved on from
 * is refused (412) and changes nothing. A batch's listing is stepped from the held one
 * (listing-step.ts); every stepped listing equals the one projected from the whole log.
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
import type { ReviewFaults } from './review-parts';
import { newWorkingDraft, startTestService, type TestService, signedInCaller } from '../../../test/support/test-service';

describe('the minimal answer as a delta of the listing', () => {
  let t: TestService;
  let lawyer: SessionGrant;
  let call: ReturnType<typeof signedInCaller>;
  /** Batches whose listing was stepped from the held one (listing-step.ts); each also projected from the whole log, and the two must be equal. */
  let stepped = 0;
  const stepMismatches: string[] = [];
  const faults: ReviewFaults = {
    stepped(listing, rebuilt) {
      stepped++;
      const json = (value: unknown) => JSON.stringify(value, (_, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v));
      if (json(listing) !== json(rebuilt)) stepMismatches.push(`stepped ${json(listing.track)}\nrebuilt ${json(rebuilt.track)}`);
    },
  };
  beforeAll(async () => {
    t = await startTestService({}, { faults });
    lawyer = await t.signUpAndSignIn('delta@firm.example');
    call = signedInCaller(t, lawyer);
  });
  afterAll(async () => t.destroy());

  const newDraft = async (bytes: Uint8Array): Promise<string> => (await newWorkingDraft(t, lawyer, bytes)).id;
  /** The listing a review read answers now, and its ETag. */
  async function listing(id: string): Promise<{ listing: ReviewMinimalResponse; etag: string }> {
    const res = await call('GET', `/api/documents/${id}/review`, undefined, { prefer: 'return=minimal' });
    expect(res.statusCode).toBe(200);
    return { listing: ReviewMinimalResponse.parse(res.json()), etag: String(res.headers.etag) };
  }
  const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

  /** A change's minimal answer named with If-Match: a delta from the held listing that brings it to what a read now answers; the read's listing and ETag. */
  async function expectDelta(id: string, held: ReviewMinimalResponse, etag: string, res: { statusCode: number; body: string; headers: Record<string, unknown>; json(): unknown }) {
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as object;
    expect(isReviewDelta(body)).toBe(true);
    const delta = ReviewDelta.parse(body);
    expect(delta.base).toBe(JSON.parse(etag));
    expect(res.headers.etag).toBe(`"${delta.version}"`);
    const after = await listing(id);
    expect(after.etag).toBe(res.headers.etag);
    expect(asJson(applyListingDelta(held, delta))).toEqual(asJson(after.listing));
    return { delta, after };
  }

  /**
   * What a client holding `held` at `etag` gets from GET review?since=: applied to it, the listing
   * a read answers now; a delta when `delta` (a version among the last 8 answered), else either.
   */
  async function expectCatchUp(id: string, held: ReviewMinimalResponse, etag: string, delta = true) {
    const res = await call('GET', `/api/documents/${id}/review?since=${encodeURIComponent(JSON.parse(etag) as string)}`, undefined, { prefer: 'return=minimal' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as object;
    if (delta) expect(isReviewDelta(body)).toBe(true);
    const now = await listing(id);
    expect(res.headers.etag).toBe(now.etag);
    expect(asJson(isReviewDelta(body) ? applyListingDelta(held, ReviewDelta.parse(body)) : ReviewMinimalResponse.parse(body))).toEqual(asJson(now.listing));
  }

  /** Random batches until nothing is open, each answered as a delta that must bring the held listing to the read one. */
  async function playBatches(bytes: Uint8Array, planSeed: number): Promise<void> {
    const id = await newDraft(bytes);
    const rng = new Prng(planSeed);
    let { listing: held, etag } = await listing(id);
    const seen = [{ listing: held, etag }];
    for (let batch = 0; batch < 6; batch++) {
      const open = held.revisions.map((r) => r.change_id);
      if (open.length === 0) break;
      const named = open.filter(() => rng.next() < 0.35);
      const ids = named.length ? named : [open[Math.floor(rng.next() * open.length)]!];
      const accept = ids.filter(() => rng.next() < 0.5);
      const reject = ids.filter((x) => !accept.includes(x));
      const res = await call('POST', `/api/documents/${id}/revisions/apply`, { accepted_change_ids: accept, rejected_change_ids: reject },
        { prefer: 'return=minimal', 'if-match': etag });
      const { delta, after } = await expectDelta(id, held, etag, res);
      // The delta names only what the batch touched: no unchanged item travels.
      const heldItems = new Map(held.track!.items.map((i) => [i.id, JSON.stringify(i)]));
      for (const item of delta.track.items.changed) expect(JSON.stringify(item)).not.toBe(heldItems.get(item.id));
      held = after.listing;
      etag = after.etag;
      if (rng.next() < 0.3) {
        // Undone at once, answered as the delta too (issue 36.4).
        const undone = await expectDelta(id, held, etag, await call('POST', `/api/documents/${id}/revisions/undo`, undefined, { prefer: 'return=minimal', 'if-match': etag }));
        held = undone.after.listing;
        etag = undone.after.etag;
        seen.push({ listing: held, etag });
      }
      seen.push({ listing: held, etag });
    }
    // A client that missed the last changes catches up with one delta; from the first listing, with a delta or whole (it may be past the 8 held).
    const missed = seen[Math.max(0, seen.length - 4)]!;
    await expectCatchUp(id, missed.listing, missed.etag);
    await expectCatchUp(id, seen[0]!.listing, seen[0]!.etag, seen.length <= 8);
  }

  it('brings the held listing to the read one, over random batches on generated drafts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.nat(), fc.boolean(), async (fixtureSeed, planSeed, lab) => {
        await playBatches(lab ? generateLabProtocol(fixtureSeed) : generateFixture(fixtureSeed).bytes, planSeed);
      }),
      { seed: 36, numRuns: 10 },
    );
    // The batches were stepped from the held listing (not all projected again), and each stepped listing is the one the whole log projects.
    expect(stepped).toBeGreaterThan(10);
    expect(stepMismatches.slice(0, 1)).toEqual([]);
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

  it('answers redline edits and undo as deltas, refuses them on a stale listing (412), and catches a client up from a version it holds, or whole from one it does not', async () => {
    const id = await newDraft(buildDemoContract());
    const start = await listing(id);
    const edit = { edits: [{ op: 'insert', find: 'Agreement', text: ' (restated)', justification: 'Restated.' }] };
    const proposed = await expectDelta(id, start.listing, start.etag, await call('POST', `/api/documents/${id}/redlines`, edit, { prefer: 'return=minimal', 'if-match': start.etag }));
    expect(proposed.delta.revisions.added.length).toBeGreaterThan(0);
    // The listing before the edits is stale now: neither edits nor undo are made on it.
    for (const [url, payload] of [[`/api/documents/${id}/redlines`, edit], [`/api/documents/${id}/revisions/undo`, undefined]] as const) {
      const stale = await call('POST', url, payload, { prefer: 'return=minimal', 'if-match': start.etag });
      expect(stale.statusCode, stale.body).toBe(412);
      expect((stale.json() as { code: string }).code).toBe('listing_changed');
    }
    expect((await listing(id)).etag).toBe(proposed.after.etag);
    const [change] = proposed.after.listing.revisions.map((r) => r.change_id);
    const decided = await expectDelta(id, proposed.after.listing, proposed.after.etag,
      await call('POST', `/api/documents/${id}/revisions/apply`, { rejected_change_ids: [change] }, { prefer: 'return=minimal', 'if-match': proposed.after.etag }));
    const undone = await expectDelta(id, decided.after.listing, decided.after.etag,
      await call('POST', `/api/documents/${id}/revisions/undo`, undefined, { prefer: 'return=minimal', 'if-match': decided.after.etag }));
    expect(undone.after.listing.revisions.map((r) => r.change_id)).toContain(change);
    // A client that missed all of it catches up from the first listing with one delta.
    await expectCatchUp(id, start.listing, start.etag);
    // A version the service never answered: the whole listing, with its ETag.
    const unknown = await call('GET', `/api/documents/${id}/review?since=${'0'.repeat(64)}.0`, undefined, { prefer: 'return=minimal' });
    expect(unknown.statusCode).toBe(200);
    expect(Object.keys(unknown.json() as object).sort()).toEqual(['document', 'revisions', 'track']);
    expect(unknown.headers.etag).toBe((await listing(id)).etag);
  }, 120_000);
});

