import { describe, expect, it } from 'vitest';
import { ByteBudgetLru } from './byte-budget-lru';

describe('byte-budget LRU', () => {
  it('lets the least recently used go past the budget; a get counts as a use, a take hands the entry over', () => {
    const lru = new ByteBudgetLru<string>(10);
    lru.set('a', 'A', 4);
    lru.set('b', 'B', 4);
    expect(lru.get('a')).toBe('A');
    lru.set('c', 'C', 4);
    expect(lru.get('b')).toBeUndefined();
    expect([lru.get('a'), lru.get('c')]).toEqual(['A', 'C']);
    expect(lru.take('a')).toBe('A');
    expect(lru.take('a')).toBeUndefined();
    lru.set('d', 'D', 6);
    expect(lru.size).toBe(2);
    lru.set('huge', 'H', 11);
    expect(lru.get('huge')).toBeUndefined();
    expect(lru.size).toBe(2);
  });
});
