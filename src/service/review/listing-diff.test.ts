/**
 * The listing delta on any two lists (issue 36.1): whatever was removed, changed, added (a
 * redline's new changes between old ones) or even reordered, the delta applied to the old
 * listing gives the new one; unchanged items never travel, nor revisions whose ordinal (their
 * position) alone moved.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyListingDelta, type ReviewListing } from '../../contract/listing-delta';
import type { ReviewMinimalResponse } from '../../contract/review';
import { listingDelta } from './listing-delta';

const item = (id: string, text: string) => ({ id, state: 'open' as const, label: text });
const revision = (id: string, text: string, ordinal: number) => ({ ordinal, change_id: id, text }) as unknown as ReviewListing['revisions'][number];
const document = { id: 'd' } as unknown as ReviewMinimalResponse['document'];

/** A listing of these ids, each with its text. */
function listingOf(pairs: readonly (readonly [string, string])[]): ReviewMinimalResponse {
  const items = pairs.map(([id, text]) => item(id, text));
  return {
    document,
    revisions: pairs.map(([id, text], i) => revision(id, text, i + 1)),
    track: { items, entries: items.map((i) => ({ id: i.id, members: [i.id], state: i.state, summary: i.label })), hereId: items[0]?.id ?? null, counts: { open: items.length, in: 0, back: 0 } },
  };
}

const ids = fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 25 }).map((xs) => xs.map((x) => `c${x}`));
const texts = fc.array(fc.constantFrom('a', 'b'), { minLength: 25, maxLength: 25 });

describe('listing delta', () => {
  it('applied to the old listing gives the new one, and carries no unchanged item', () => {
    fc.assert(fc.property(ids, texts, ids, texts, fc.boolean(), (before, t1, after, t2, shuffle) => {
      const next = shuffle ? [...after].reverse() : after;
      const previous = listingOf(before.map((id, i) => [id, t1[i]!] as const));
      const current = listingOf(next.map((id, i) => [id, t2[i]!] as const));
      const delta = listingDelta('v1', previous, 'v2', current)!;
      expect(applyListingDelta(previous, delta)).toEqual(current);
      const old = new Map(previous.track!.items.map((i) => [i.id, i.label]));
      for (const changed of delta.track.items.changed) expect(changed.label).not.toBe(old.get(changed.id));
      // A revision whose position alone moved (its ordinal) does not travel either.
      const oldText = new Map(previous.revisions.map((r) => [r.change_id, (r as unknown as { text: string }).text]));
      for (const changed of delta.revisions.changed) expect((changed as unknown as { text: string }).text).not.toBe(oldText.get(changed.change_id));
    }), { seed: 36, numRuns: 500 });
  });
});
