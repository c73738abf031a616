import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPARE_SETTINGS, loadCompareSettings, optionsSentence, parseCompareSettings, saveCompareSettings } from './compare-settings';

/** A Storage of one Map (the test runs without a browser). */
function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> {
  const items = new Map<string, string>();
  return { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v) };
}

describe('the compare dialog\'s remembered choices', () => {
  it('are remembered per user', () => {
    const storage = memoryStorage();
    const options = { ...DEFAULT_COMPARE_SETTINGS.options, ignoreCase: true, stories: { ...DEFAULT_COMPARE_SETTINGS.options.stories, notes: false } };
    saveCompareSettings('alice', { view: 'accepted', options }, storage);
    expect(loadCompareSettings('alice', storage)).toEqual({ view: 'accepted', options });
    expect(loadCompareSettings('bob', storage)).toEqual(DEFAULT_COMPARE_SETTINGS);
  });

  it('fall back to the defaults for anything unreadable', () => {
    for (const text of [null, '', 'not json', '[]', '{"view":"sideways"}', '{"options":{"granularity":"sentence"}}']) expect(parseCompareSettings(text)).toEqual(DEFAULT_COMPARE_SETTINGS);
  });

  it('name the options that differ from the defaults, and none for the defaults', () => {
    expect(optionsSentence(DEFAULT_COMPARE_SETTINGS.options)).toBe('');
    expect(optionsSentence({ granularity: 'character', ignoreCase: true, ignoreWhitespace: true, ignoreFormatting: true, moves: false, stories: { headersFooters: false, notes: true, textBoxes: false } }))
      .toBe('changes shown at character level; case ignored; white space ignored; formatting ignored; moves shown as deletions and insertions; headers and footers, text boxes not compared');
  });
});
