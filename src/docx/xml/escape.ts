import { replaceForbiddenEncodableCharacters } from '../../contract/xml-characters';

/**
 * XML character references. The reader keeps text and attribute values encoded in the source and
 * decodes only what the engine reads; the writer escapes only what the engine writes.
 */

const REF = /&(lt|gt|amp|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Decodes the five predefined entities and numeric character references. */
export function decodeXml(raw: string): string {
  if (raw.indexOf('&') === -1) return raw;
  return raw.replace(REF, (_m, ref: string) => {
    if (ref.charCodeAt(0) !== 35 /* # */) return NAMED[ref] ?? '';
    const code = ref.charCodeAt(1) === 120 /* x */ ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return String.fromCodePoint(code);
  });
}

/** A reference to one of the predefined entities or a character, anchored where it is tried. */
const KNOWN_REFERENCE = /&(?:lt|gt|amp|quot|apos|#([0-9]+)|#x([0-9a-fA-F]+));/y;

/** XML 1.0's Char: what a character reference may name (a reference to anything else is not well-formed). */
function isXmlChar(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

/**
 * What is wrong with the text's references, or null: one to anything but the predefined entities
 * (only a DTD could define it), or a character reference to a character XML cannot hold (`&#1;`,
 * `&#xFFFE;`, `&#xD800;`, past U+10FFFF), which decoded would be written back raw.
 * Jumps from one "&" to the next: a part without any is one indexOf, where a regex over the
 * whole 7.5 MB part took 8 ms.
 */
export function referenceProblem(text: string): string | null {
  for (let at = text.indexOf('&'); at !== -1; at = text.indexOf('&', at + 1)) {
    KNOWN_REFERENCE.lastIndex = at;
    const found = KNOWN_REFERENCE.exec(text);
    if (!found) return 'reference to an undefined entity';
    const code = found[1] !== undefined ? Number(found[1]) : found[2] !== undefined ? parseInt(found[2], 16) : null;
    if (code !== null && !isXmlChar(code)) return `reference to a character XML cannot hold (${found[0]})`;
  }
  return null;
}

/** Whether a text needs more than copying: a character to escape, or one XML cannot hold. */
// eslint-disable-next-line no-control-regex
const TEXT_NEEDS_WORK = /[&<>\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
// eslint-disable-next-line no-control-regex
const ATTR_NEEDS_WORK = /[&<>"\t\n\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

/**
 * Text content as XML. A character XML cannot hold (a C0 control, U+FFFE, U+FFFF) is written as
 * U+FFFD, so the writer cannot make a part that no longer parses, whatever text reaches it (the
 * service refuses such text at the wire; a file's own `&#1;` decoded on reading still could). A
 * lone surrogate is left to the UTF-8 encoding of the part, which writes it as U+FFFD: replaced
 * here, the halves of a pair written from two texts side by side would be lost.
 */
export function escapeText(text: string): string {
  if (!TEXT_NEEDS_WORK.test(text)) return text;
  return replaceForbiddenEncodableCharacters(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attribute value as XML, quoted with `"`; white space as references, so it reads back as written. Characters XML cannot hold as in `escapeText`. */
export function escapeAttr(value: string): string {
  if (!ATTR_NEEDS_WORK.test(value)) return value;
  return replaceForbiddenEncodableCharacters(value)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}
