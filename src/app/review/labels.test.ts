import { describe, expect, it } from 'vitest';
import { placeLabel, placeTitle } from './labels';

describe('page citations', () => {
  it('cite the number the page prints, with the page of the file in the tooltip when it differs', () => {
    expect(placeLabel({ label: 'ii', physical: 2 }, '7.3(a)')).toBe('p. ii · 7.3(a)');
    expect(placeLabel(null, '7.3(a)')).toBe('7.3(a)');
    expect(placeTitle({ label: 'ii', physical: 2 })).toBe('Page ii as printed; page 2 of the file');
    expect(placeTitle({ label: '4', physical: 4 })).toBe('Page 4');
    expect(placeTitle(null)).toBeUndefined();
  });
});
