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
const KNOWN_REFERENCE = /&(?:lt|gt|amp|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/y;

/**
 * Whether the text refers to anything but the predefined entities (only a DTD could define it).
 * Jumps from one "&" to the next: a part without any is one indexOf, where a regex over the
 * whole 7.5 MB part took 8 ms.
 */
export function hasUndefinedEntity(text: string): boolean {
  for (let at = text.indexOf('&'); at !== -1; at = text.indexOf('&', at + 1)) {
    KNOWN_REFERENCE.lastIndex = at;
    if (!KNOWN_REFERENCE.test(text)) return true;
  }
  return false;
}

export function escapeText(text: string): string {
  if (!/[&<>]/.test(text)) return text;
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeAttr(value: string): string {
  if (!/[&<>"\t\n\r]/.test(value)) return value;
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}
