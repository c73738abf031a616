import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringifyInSlices } from './json-in-slices';

/** Values JSON.stringify treats specially: toJSON (with the key it is given), left-out members, boxed primitives, dates. */
const awkward: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue(),
    fc.constantFrom(undefined, () => 1, Symbol('s'), NaN, Infinity, -0, new Date(0), new Number(3), new String('b"\u2028'), new Boolean(false)),
    fc.string({ unit: 'binary' }),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.string({ unit: 'binary' }), tie('value'), { maxKeys: 5 }),
    tie('value').map((inner) => ({ toJSON: (key: string) => ({ key, inner }) })),
    tie('value').map((inner) => ({ toJSON: () => inner })),
  ),
})).value;

describe('stringifyInSlices', () => {
  it('writes what JSON.stringify writes for any JSON value', async () => {
    await fc.assert(fc.asyncProperty(fc.jsonValue(), async (value) => {
      expect(await stringifyInSlices(value)).toBe(JSON.stringify(value));
    }), { numRuns: 500 });
  });

  it('writes what JSON.stringify writes for toJSON, left-out members, boxed primitives and lone surrogates', async () => {
    await fc.assert(fc.asyncProperty(awkward, async (value) => {
      expect(await stringifyInSlices(value)).toBe(JSON.stringify(value));
    }), { numRuns: 1000 });
  });

  it('throws where JSON.stringify throws', async () => {
    const cycle: Record<string, unknown> = { a: [1] };
    (cycle.a as unknown[]).push(cycle);
    await expect(stringifyInSlices(cycle)).rejects.toThrow(TypeError);
    await expect(stringifyInSlices({ n: 1n })).rejects.toThrow(TypeError);
    // The same object twice, but not inside itself, is no cycle.
    const shared = { x: 1 };
    expect(await stringifyInSlices([shared, { shared }])).toBe(JSON.stringify([shared, { shared }]));
  });

  it('lets the event loop run while it writes a large answer', async () => {
    // Long runs of plain members, broken by members whose toJSON is given their index, by left-out members and by a long string.
    const large = {
      items: Array.from({ length: 50_000 }, (_, i) => (i % 997 === 0 ? { toJSON: (key: string) => `at ${key}` }
        : i % 1001 === 0 ? undefined : i === 5000 ? 'x'.repeat(100_000)
          : { id: `c${i}`, state: 'open', label: `Change ${i + 1}`, textPreview: 'the amended "words"\n', note: i % 3 ? undefined : null })),
    };
    let turns = 0;
    let counting = true;
    const count = (): void => { turns++; if (counting) setImmediate(count); };
    setImmediate(count);
    const text = await stringifyInSlices(large);
    counting = false;
    expect(text).toBe(JSON.stringify(large));
    expect(turns).toBeGreaterThan(5);
  });
});
