import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPARE_SETTINGS, loadCompareSettings, parseCompareSettings, saveCompareSettings } from './compare-settings';

/** A Storage of one Map (the test runs without a browser). */
function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> {
  const items = new Map<string, string>();
  return { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v) };
}

describe('the compare dialog\'s remembered choices', () => {
  it('are remembered per user', () => {
    const storage = memoryStorage();
    saveCompareSettings('alice', { ...DEFAULT_COMPARE_SETTINGS, view: 'accepted' }, storage);
    expect(loadCompareSettings('alice', storage).view).toBe('accepted');
    expect(loadCompareSettings('bob', storage)).toEqual(DEFAULT_COMPARE_SETTINGS);
  });

  it('fall back to the defaults for anything unreadable', () => {
    for (const text of [null, '', 'not json', '[]', '{"view":"sideways"}']) expect(parseCompareSettings(text)).toEqual(DEFAULT_COMPARE_SETTINGS);
  });
});
