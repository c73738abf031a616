import { strFromU8, unzipSync } from 'fflate';

/**
 * Where Word started each page when it last saved a document: the text after each
 * w:lastRenderedPageBreak of the main part (Word writes one where each page it laid out began),
 * as a key of its first characters: lower case, without white space, so that a layout's page is
 * recognised by the text it opens with (bench/pages.ts).
 */
export const START_KEY_CHARS = 16;

/** A text's key: its first START_KEY_CHARS characters that are not white space, lower case. */
export function startKey(text: string): string {
  return text.replace(/\s+/g, '').slice(0, START_KEY_CHARS).toLowerCase();
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescapeXml = (s: string) => s.replace(/&(amp|lt|gt|quot|apos|#x[0-9a-fA-F]+|#\d+);/g, (_, e: string) => XML_ENTITIES[e] ?? String.fromCodePoint(e.startsWith('#x') ? parseInt(e.slice(2), 16) : Number(e.slice(1))));

/**
 * The keys of Word's page starts in a document part's XML, in order (a page whose start has no
 * text before the next page start, or none at all, is left out: it cannot be recognised).
 * Deleted text (w:delText) is not counted: the working draft shows the document as changed.
 */
export function wordPageStarts(documentXml: string): string[] {
  const starts: string[] = [];
  let open: string | null = null;
  const token = /<w:lastRenderedPageBreak\b[^>]*>|<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<w:tab\b[^>]*\/>|<\/w:p>/g;
  for (let m = token.exec(documentXml); m; m = token.exec(documentXml)) {
    if (m[0].startsWith('<w:lastRenderedPageBreak')) {
      if (open) starts.push(startKey(open));
      open = '';
      continue;
    }
    if (open === null) continue;
    if (m[1] !== undefined) open += unescapeXml(m[1]);
    if (startKey(open).length >= START_KEY_CHARS) {
      starts.push(startKey(open));
      open = null;
    }
  }
  if (open) starts.push(startKey(open));
  return starts;
}

/** Word's page starts of a .docx package (main part); an empty list when it records none. */
export function wordPageStartsOf(bytes: Uint8Array): { breaks: number; starts: string[] } {
  const files = unzipSync(bytes, { filter: (f) => f.name === 'word/document.xml' });
  const xml = files['word/document.xml'];
  if (!xml) return { breaks: 0, starts: [] };
  const text = strFromU8(xml);
  return { breaks: text.split('<w:lastRenderedPageBreak').length - 1, starts: wordPageStarts(text) };
}

/** How many of Word's page starts open one of a layout's pages (keys of the text each page opens with). */
export function startsMatched(word: readonly string[], pages: readonly string[]): number {
  const opened = new Set(pages.filter(Boolean));
  let n = 0;
  for (const key of word) {
    if (opened.has(key) || [...opened].some((p) => key.length < START_KEY_CHARS && p.startsWith(key))) n++;
  }
  return n;
}
