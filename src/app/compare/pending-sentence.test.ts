import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pendingSentence } from './pending-sentence';

describe('what a comparison says it did with pending tracked changes', () => {
  it('kept: each version\'s count, the newer\'s kept under their authors, the older\'s still pending and no longer', () => {
    expect(pendingSentence({ treatment: 'kept', older: 1, newer: 1, kept: 1, olderStillPending: 1, olderResolved: 0 }, 'v1', 'v2', 'Comparison'))
      .toBe('Pending tracked changes: v1 held 1, v2 held 1. v2\'s stays tracked under its own author. 1 of v1\'s is still pending in v2.');
    expect(pendingSentence({ treatment: 'kept', older: 3, newer: 2, kept: 2, olderStillPending: 1, olderResolved: 2 }, 'v1', 'v2', 'Comparison'))
      .toBe('Pending tracked changes: v1 held 3, v2 held 2. v2\'s 2 stay tracked under their own authors. 1 of v1\'s is still pending in v2. 2 of v1\'s are no longer pending in v2: each is shown as a change by “Comparison”.');
    expect(pendingSentence({ treatment: 'kept', older: 0, newer: 0, kept: 0, olderStillPending: 0, olderResolved: 0 }, 'v1', 'v2', 'Comparison'))
      .toBe('Neither version held pending tracked changes.');
  });

  it('as Word compares: says both were read as if accepted and that none is shown', () => {
    expect(pendingSentence({ treatment: 'accepted', older: 1, newer: 2, kept: 0, olderStillPending: 0, olderResolved: 0 }, 'v1', 'v2', 'Comparison'))
      .toBe('Compared as if every tracked change were accepted (as Word compares). Pending tracked changes: v1 held 1, v2 held 2; none of them is shown as pending.');
  });

  it('names every count it is given', () => {
    fc.assert(fc.property(fc.nat(50), fc.nat(50), fc.nat(50), (older, newer, still) => {
      const s = Math.min(still, older);
      const text = pendingSentence({ treatment: 'kept', older, newer, kept: newer, olderStillPending: s, olderResolved: older - s }, 'v1', 'v2', 'Comparison');
      if (older + newer === 0) return;
      expect(text).toContain(`v1 held ${older}, v2 held ${newer}.`);
      if (s > 0) expect(text).toContain(`${s} of v1's ${s === 1 ? 'is' : 'are'} still pending`);
      if (older - s > 0) expect(text).toContain(`${older - s} of v1's ${older - s === 1 ? 'is' : 'are'} no longer pending`);
    }));
  });
});
