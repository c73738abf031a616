import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { uncheckedStrings } from '../../test/support/client-strings';
import { clientString, xmlText } from './client-text';
import { ROUTES, type RouteSpec } from './routes';

/** Issue 31 item 4: no route takes a string from a client without the forbidden-character check. */
describe('client text', () => {
  it('every string of every route body, form and query string carries xmlText', () => {
    const unchecked = Object.entries(ROUTES as Record<string, RouteSpec>).flatMap(([name, spec]) => [
      ...(spec.body ? uncheckedStrings(spec.body, xmlText, `${name} body`) : []),
      ...(spec.query ? uncheckedStrings(spec.query, xmlText, `${name} query`) : []),
    ]);
    expect(unchecked).toEqual([]);
  });

  it('the walker finds a string without it (a record key, a union member, a pipe, an array element)', () => {
    const schema = z.object({ ok: clientString(), notes: z.record(z.string(), clientString()), either: z.union([clientString(), z.string()]), list: z.array(z.string().trim().pipe(z.email())) });
    expect(uncheckedStrings(schema, xmlText)).toEqual(['(root).notes{key}', '(root).either', '(root).list[]']);
  });

  it('names the first character XML cannot hold and where it is', () => {
    const result = clientString().safeParse('ok\uFFFEno');
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]).toMatchObject({ message: 'holds U+FFFE at offset 2, a character a Word document cannot hold', params: { reason: 'forbidden_character', codePoint: 'U+FFFE', index: 2 } });
    for (const bad of ['\u0000', 'a\u0008', '\u000B', '\u000C', '\u001F', '\uFFFF', 'x\uD800', '\uDFFF', '\uDC00\uD800']) expect(clientString().safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    for (const good of ['tab\there', 'line\nbreak\r\n', '\uD83D\uDE00', '\u007F\u0085', '\uFFFD', '\u{10FFFF}', '\u{1FFFE}']) expect(clientString().safeParse(good).success, JSON.stringify(good)).toBe(true);
  });
});
