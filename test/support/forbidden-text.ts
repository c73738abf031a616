import fc from 'fast-check';

/** One of each kind XML 1.0 cannot hold: C0 controls (not tab, LF, CR), U+FFFE, U+FFFF, lone surrogates of either half. */
export const XML_FORBIDDEN_SAMPLES = ['\u0000', '\u0001', '\u0008', '\u000B', '\u000C', '\u000E', '\u001F', '\uFFFE', '\uFFFF', '\uD800', '\uDBFF', '\uDC00', '\uDFFF'];

/** A piece of hostile text: a forbidden character, a markup character, any code points (lone surrogates too), or ordinary text. */
const piece = fc.oneof(
  fc.constantFrom(...XML_FORBIDDEN_SAMPLES),
  fc.constantFrom('&', '<', '>', '"', "'", ']]>', '\t', '\n', '\r', '&#1;', '\uD83D\uDE00', ' '),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 8 }),
  fc.string({ maxLength: 8 }),
);

/** Any mix of such pieces. */
export const hostileText = (maxPieces = 6) => fc.array(piece, { maxLength: maxPieces }).map((a) => a.join(''));
/** The same, starting with a visible letter (fields that refuse empty or blank text). */
export const hostileFieldText = (maxPieces = 6) => fc.array(piece, { minLength: 1, maxLength: maxPieces }).map((a) => `x${a.join('')}`);
