import { z } from 'zod';
import { firstForbiddenCharacter } from './xml-characters';

/** The `params.reason` of the issue `xmlText` raises, which the service answers as 422 forbidden_character. */
export const FORBIDDEN_CHARACTER_REASON = 'forbidden_character';

/**
 * The check every string a client sends carries (request bodies, query strings, form fields, the
 * assistant's tool arguments): a character XML cannot hold (xml-characters.ts) is refused, naming
 * the character and where it is, whatever the field. Text reaches the draft's XML by many ways
 * (redline text, authors, justifications, comments, notes, file names), and a field that does not
 * today may tomorrow; a test walks every route's and tool's schemas for strings without it.
 */
export const xmlText = z.superRefine<string>((value, ctx) => {
  const found = firstForbiddenCharacter(value);
  if (!found) return;
  ctx.addIssue({
    code: 'custom',
    message: `holds ${found.codePoint} at offset ${found.index}, a character a Word document cannot hold`,
    params: { reason: FORBIDDEN_CHARACTER_REASON, codePoint: found.codePoint, index: found.index },
  });
});

/** A string from a client: `z.string()` with the `xmlText` check; chain length and format checks after it. */
export function clientString(): z.ZodString {
  return z.string().check(xmlText);
}
