/**
 * A batch writes what it changed in the stored track (issue 36.2): the track projection is stored
 * a row per member of its lists (track_projection_items), and a change writes the rows of the
 * members that differ from the stored track, no others (a batch stepped from the listing names
 * them; an answer projected whole, in full or after undo, is compared in place), counted by the
 * rows the storing transaction wrote (Postgres' xmin: the transaction that wrote each row
 * version). Over random batches on generated drafts, with the projection stored after every
 * batch or once after a burst of them, the stored track reads back as the listing answered,
 * and as the projection rebuilt from the whole log.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionGrant } from '../../contract/auth';
import { applyListingDelta, ReviewDelta } from '../../contract/listing-delta';
import { ReviewMinimalResponse, ReviewResponse } from '../../contract/review';
import type { Track } from '../../contract/track';
import { buildDemoContract } from '../../docx/fixture';
import { Prng } from '../../docx/fixture/prng';
import { generateFixture } from '../../../test/conformance/decision-fixtures';
import { withoutContent } from './review-answers';
import { newWorkingDraft, startTestService, type TestService, signedInCaller } from '../../../test/support/test-service';

describe('the stored track, written member by member', () => {
  let t: TestService;
  let lawyer: SessionGrant;
  let call: ReturnType<typeof signedInCaller>;
  beforeAll(async () => {
    t = await startTestService();
    lawyer = await t.signUpAndSignIn('rows@firm.example');
    call = signedInCaller(t, lawyer);
  });
  afterAll(async () => t.destroy());

  const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

  const newDraft = async (bytes: Uint8Array): Promise<string> => (await newWorkingDraft(t, lawyer, bytes)).id;

  /** The listing a review read answers (from the stored projection once nothing waits to be stored), and its ETag. */
  async function read(id: string): Promise<{ listing: ReviewMinimalResponse; etag: string }> {
    const res = await call('GET', `/api/documents/${id}/review`, undefined, { prefer: 'return=minimal' });
    expect(res.statusCode).toBe(200);
    return { listing: ReviewMinimalResponse.parse(res.json()), etag: String(res.headers.etag) };
  }

  /** The stored projection's rows: all of them, and those the transaction that last wrote its head wrote. */
  async function storedRows(id: string): Promise<{ all: number; written: number }> {
    const [row] = await t.ctx.db.query<{ all: number; written: number }>(
      `SELECT count(*)::int AS all, count(*) FILTER (WHERE i.xmin::text = p.xmin::text)::int AS written
       FROM track_projection p JOIN track_projection_items i ON i.upload_id = p.upload_id WHERE p.upload_id = $1`, [id]);
    return row!;
  }

  /** Positions whose member differs between two tracks' lists, counted over both lists; every member when a list's length differs. */
  function differing(before: Track, after: Track): number {
    const lists = (track: Track) => [track.items, track.entries ?? []] as const;
    const [a, b] = [lists(before), lists(after)];
    const all = b[0].length + b[1].length;
    if (a[0].length !== b[0].length || a[1].length !== b[1].length) return all;
    return b.reduce((n, list, l) => n + list.filter((member, i) => canonical(member) !== canonical(a[l]![i])).length, 0);
  }
  const canonical = (value: unknown) => JSON.stringify(value, (_, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => x.localeCompare(y))) : v));

  /**
   * Random small batches, answered as deltas (minimal, with If-Match) or in full, some undone;
   * the projection stored after each (or after each `burst` of them): the rows written are
   * those of the members that differ from the track stored before, and the stored track reads
   * as the listing answered.
   */
  async function play(bytes: Uint8Array, planSeed: number, burst: number): Promise<{ stores: number; written: number; all: number }> {
    const id = await newDraft(bytes);
    const rng = new Prng(planSeed);
    let { listing: held, etag } = await read(id);
    await t.ctx.review.settle();
    let stored = held.track!;
    const totals = { stores: 0, written: 0, all: 0 };
    for (let batch = 0; batch < 8; batch++) {
      const open = held.revisions.map((r) => r.change_id);
      if (open.length === 0) break;
      const ids = [...new Set(Array.from({ length: 1 + Math.floor(rng.next() * 3) }, () => open[Math.floor(rng.next() * open.length)]!))];
      const accept = ids.filter(() => rng.next() < 0.5);
      const reject = ids.filter((x) => !accept.includes(x));
      const minimal = rng.next() < 0.6;
      const res = await call('POST', `/api/documents/${id}/revisions/apply`, { accepted_change_ids: accept, rejected_change_ids: reject },
        minimal ? { prefer: 'return=minimal', 'if-match': etag } : {});
      expect(res.statusCode, res.body).toBe(200);
      held = minimal ? applyListingDelta(held, ReviewDelta.parse(res.json())) : withoutContent(ReviewResponse.parse(res.json()));
      etag = String(res.headers.etag);
      if (rng.next() < 0.2) {
        const undone = await call('POST', `/api/documents/${id}/revisions/undo`, undefined, { prefer: 'return=minimal', 'if-match': etag });
        expect(undone.statusCode, undone.body).toBe(200);
        held = applyListingDelta(held, ReviewDelta.parse(undone.json()));
        etag = String(undone.headers.etag);
      }
      if ((batch + 1) % burst !== 0) continue;
      await t.ctx.review.settle();
      const rows = await storedRows(id);
      expect(rows.all).toBe(held.track!.items.length + (held.track!.entries?.length ?? 0));
      expect(rows.written).toBe(differing(stored, held.track!));
      totals.stores++;
      totals.written += rows.written;
      totals.all += rows.all;
      const read_ = await read(id);
      expect(read_.etag).toBe(etag);
      expect(asJson(read_.listing)).toEqual(asJson(held));
      stored = held.track!;
    }
    // The stored track is the one the whole log projects.
    await t.ctx.review.settle();
    const last = (await read(id)).listing;
    await t.ctx.db.query('DELETE FROM track_projection WHERE upload_id = $1', [id]);
    expect((await t.ctx.db.query('SELECT 1 FROM track_projection_items WHERE upload_id = $1', [id])).length).toBe(0);
    expect(asJson((await read(id)).listing)).toEqual(asJson(last));
    return totals;
  }

  it('writes the members a batch changed, and reads back the listing answered and the one the log projects, on generated drafts', async () => {
    const totals = { stores: 0, written: 0, all: 0 };
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.nat(), fc.constantFrom(1, 1, 3), async (fixtureSeed, planSeed, burst) => {
        const played = await play(generateFixture(fixtureSeed).bytes, planSeed, burst);
        totals.stores += played.stores;
        totals.written += played.written;
        totals.all += played.all;
      }),
      { seed: 362, numRuns: 8 },
    );
    expect(totals.stores).toBeGreaterThan(10);
    // Not the whole track again: far fewer rows than the tracks hold.
    expect(totals.written).toBeLessThan(totals.all / 3);
  }, 300_000);

  it('on the demo contract, a decision writes a few rows of the whole track', async () => {
    const played = await play(buildDemoContract(), 5, 1);
    expect(played.stores).toBeGreaterThan(3);
    expect(played.written).toBeLessThan(played.all / 4);
  }, 120_000);
});
