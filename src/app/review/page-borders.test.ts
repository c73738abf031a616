import { describe, expect, it } from 'vitest';
import { pageBorderStyle } from './page-borders';

describe('page borders', () => {
  it("draws a section's w:pgBorders as an outline inset by its distance from the page edge", () => {
    const border = { type: 'single', color: '1F4E79', size: '1.5pt', offset: '24pt' };
    expect(pageBorderStyle({ pageBorders: { top: border, left: border, bottom: border, right: border } })).toEqual({ outline: '1.5pt solid #1F4E79', outlineOffset: 'calc(-1 * 24pt - 1.5pt)' });
    expect(pageBorderStyle({ pageBorders: { left: { type: 'double', color: 'auto', size: '3pt', offset: '4pt' } } })).toEqual({ outline: '3pt double #000', outlineOffset: 'calc(-1 * 4pt - 3pt)' });
  });

  it('draws nothing for a section without one, or with borders set to none', () => {
    expect(pageBorderStyle({})).toBeNull();
    expect(pageBorderStyle(undefined)).toBeNull();
    expect(pageBorderStyle({ pageBorders: { top: { type: 'none' } } })).toBeNull();
  });
});
