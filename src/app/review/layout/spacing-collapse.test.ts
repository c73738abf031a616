import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { collapsedBefore } from './spacing-collapse';

describe('space between two paragraphs', () => {
  it('is the larger of the space after above and the space before below, never their sum', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 200, noNaN: true }), fc.double({ min: 0, max: 200, noNaN: true }), (before, after) => {
        const kept = collapsedBefore(before, after);
        expect(kept).toBeGreaterThanOrEqual(0);
        expect(kept).toBeLessThanOrEqual(before);
        expect(after + kept).toBeCloseTo(Math.max(before, after), 9);
      }),
    );
  });

  it('keeps 4 pt of a 24 pt heading space below 20 pt after (the docx4j sample)', () => {
    expect(collapsedBefore(32, 26.67)).toBeCloseTo(5.33, 2);
    expect(collapsedBefore(10, 20)).toBe(0);
  });
});
