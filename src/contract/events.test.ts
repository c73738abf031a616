import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventStreamParser, formatStreamEvent } from './events';

describe('the event-stream parser', () => {
  it('reads what formatStreamEvent writes, however the bytes are split into chunks, skipping comments', () => {
    const event = fc.record({
      name: fc.constantFrom('entry', 'presence', 'ready'),
      id: fc.option(fc.nat({ max: 1_000_000 }), { nil: null }),
      data: fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string({ maxLength: 20 }), fc.integer())),
    });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 8 }), fc.array(fc.nat({ max: 40 }), { maxLength: 30 }), fc.constantFrom('\n', '\r\n'), (events, cuts, eol) => {
        const text = ('retry: 2000\n\n' + events.map((e) => `: heartbeat\n\n${formatStreamEvent(e.name, e.id, e.data)}`).join('')).replace(/\n/g, eol);
        const parser = new EventStreamParser();
        const got = [];
        let at = 0;
        for (const cut of cuts) {
          got.push(...parser.push(text.slice(at, at + cut)));
          at += cut;
        }
        got.push(...parser.push(text.slice(at)));
        let lastId: string | null = null;
        const expected = events.map((e) => {
          if (e.id !== null) lastId = String(e.id);
          return { id: lastId, event: e.name, data: JSON.stringify(e.data) };
        });
        expect(got).toEqual(expected);
      }),
      { seed: 16, numRuns: 300 },
    );
  });
});
