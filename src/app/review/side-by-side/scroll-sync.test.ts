import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anchorPairs, offsetOf, positionAt } from './scroll-sync';

describe('side by side: scrolling together', () => {
  it('anchors are the first redline paragraph of each older one, inserted ones left out', () => {
    expect(anchorPairs([0, null, 1, 1, 2, null, 4])).toEqual([
      { redline: 0, older: 0 }, { redline: 2, older: 1 }, { redline: 4, older: 2 }, { redline: 6, older: 4 },
    ]);
  });

  it('a position read on one side and placed on the other lands on the same anchor, in proportion between anchors', () => {
    const tops = fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 30 }).map((gaps) => {
      let y = 0;
      return gaps.map((g) => (y += g));
    });
    fc.assert(
      fc.property(tops, tops, fc.nat(), (a, b, pick) => {
        const n = Math.min(a.length, b.length);
        const left = a.slice(0, n);
        const right = b.slice(0, n);
        const endLeft = left[n - 1]! + 500;
        const endRight = right[n - 1]! + 300;
        // Each anchor maps onto its pair on the other side.
        const k = pick % n;
        expect(offsetOf(positionAt(right[k]!, right, endRight), left, endLeft)).toBeCloseTo(left[k]!);
        // Round trip: the same side gives the same offset back, anywhere in the content.
        const y = pick % endRight;
        expect(offsetOf(positionAt(y, right, endRight), right, endRight)).toBeCloseTo(y);
      }),
      { seed: 345 },
    );
  });

  it('a side that shows no anchor of a pair passes over it', () => {
    const position = positionAt(150, [0, 100, 200], 300);
    expect(position).toEqual({ pair: 1, fraction: 0.5 });
    expect(offsetOf(position, [0, null, 400], 500)).toBeCloseTo(200);
  });
});
