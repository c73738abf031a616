import { describe, expect, it } from 'vitest';
import { comparedSentence, shortComparedSentence } from './compared-sentence';

describe('what the comparison banner says', () => {
  it('counts in entries and names the author', () => {
    expect(comparedSentence(2, 1, { entries: 2, author: 'Comparison' })).toBe('Comparison: what changed in v2 since v1, as 2 changes by “Comparison”.');
    expect(comparedSentence(3, null, { entries: 1, author: null })).toBe('Comparison: what changed in v3 since the older version, as 1 tracked change.');
  });

  it("gives a phone one line with the versions, the changes and the pending changes kept", () => {
    expect(shortComparedSentence(2, 1, 2, 1)).toBe('v1 → v2: 2 changes, 1 pending kept');
    expect(shortComparedSentence(2, 1, 1, 0)).toBe('v1 → v2: 1 change');
    expect(shortComparedSentence(4, null, 0, 3)).toBe('Older → v4: no differences');
  });
});
