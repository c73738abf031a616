/**
 * The characters XML 1.0 cannot hold (its Char production): C0 controls but tab, line feed and
 * carriage return; U+FFFE and U+FFFF; and a UTF-16 surrogate that is not half of a pair (a lone
 * surrogate, which no encoding can write). One written into a part makes the whole package
 * unreadable, so the wire refuses them (client-text.ts) and the engine's writer replaces any that
 * still reach it (docx/xml/escape.ts; the UTF-8 encoder replaces lone surrogates). Kept free of zod: the engine imports it.
 */
// eslint-disable-next-line no-control-regex
export const XML_FORBIDDEN_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const XML_FORBIDDEN_CHARACTERS = new RegExp(XML_FORBIDDEN_CHARACTER.source, 'g');
/**
 * Those of them UTF-8 can encode: all but the lone surrogates, which no encoder can write and
 * TextEncoder writes as U+FFFD. A writer that ends in UTF-8 need replace only these, and must
 * leave surrogates be: a pair's halves may sit in two pieces of text that are written side by side.
 */
// eslint-disable-next-line no-control-regex
const XML_FORBIDDEN_ENCODABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** The first character XML cannot hold, as `U+0001`, with its offset (UTF-16 code units); null when there is none. */
export function firstForbiddenCharacter(text: string): { index: number; codePoint: string } | null {
  const found = XML_FORBIDDEN_CHARACTER.exec(text);
  if (!found) return null;
  return { index: found.index, codePoint: `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` };
}

/**
 * The text with each character XML cannot hold replaced by U+FFFD (the replacement character):
 * one code unit for one, so offsets into the text still hold, and the loss stays visible.
 */
export function replaceForbiddenCharacters(text: string): string {
  return text.replace(XML_FORBIDDEN_CHARACTERS, '\uFFFD');
}

/** `replaceForbiddenCharacters` for text that is then encoded as UTF-8: lone surrogates are left to the encoder (see XML_FORBIDDEN_ENCODABLE). */
export function replaceForbiddenEncodableCharacters(text: string): string {
  return text.replace(XML_FORBIDDEN_ENCODABLE, '\uFFFD');
}
