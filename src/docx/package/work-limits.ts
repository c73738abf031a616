import { DocxError } from '../errors';
import type { ZipArchive } from '../zip/read';

/**
 * Caps on how much work a package may ask of the engine, beyond what the zip-bomb caps allow:
 * a .docx of 123 KB can hold 30 MB of ordinary paragraphs (deflate's 250:1 on repeated text is
 * no bomb), which takes seconds and half a gigabyte to parse. Both are checked before any XML is
 * parsed: the size from the zip directory (inflating enforces it), the paragraphs by counting
 * their start tags in the inflated bytes.
 */
export interface WorkLimits {
  /** Uncompressed size of the story parts together: the main part and its headers, footers, notes, comments, styles, numbering. */
  maxStoryBytes?: number;
  /** Paragraphs (`w:p` elements) in those parts together. */
  maxParagraphs?: number;
}

/** Refuses (too_large, naming the limit) a package whose story parts exceed the caps. */
export function checkWorkLimits(zip: ZipArchive, storyParts: readonly string[], limits: WorkLimits): void {
  const { maxStoryBytes, maxParagraphs } = limits;
  if (maxStoryBytes !== undefined) {
    const declared = storyParts.reduce((sum, name) => sum + (zip.entry(name)?.size ?? 0), 0);
    if (declared > maxStoryBytes) {
      throw new DocxError('too_large', `The document's text parts hold ${mb(declared)} of XML; the limit is ${mb(maxStoryBytes)}.`, 'story_bytes');
    }
  }
  if (maxParagraphs !== undefined) {
    let paragraphs = 0;
    for (const name of storyParts) paragraphs += countParagraphTags(zip.read(name) ?? new Uint8Array(0));
    if (paragraphs > maxParagraphs) {
      throw new DocxError('too_large', `The document has ${paragraphs.toLocaleString('en')} paragraphs; the limit is ${maxParagraphs.toLocaleString('en')}.`, 'paragraphs');
    }
  }
}

const LT = 0x3c, W = 0x77, COLON = 0x3a, P = 0x70;

/**
 * Start tags `<w:p` followed by `>`, `/` or white space (not `<w:pPr`), in UTF-8 bytes. The
 * engine reads story parts only when they bind `w` to WordprocessingML, so the prefix is `w`;
 * a `<w:p` inside a comment or CDATA section is counted too, which only errs on the safe side.
 */
export function countParagraphTags(xml: Uint8Array): number {
  let count = 0;
  for (let i = xml.indexOf(LT); i >= 0 && i + 4 < xml.length; i = xml.indexOf(LT, i + 1)) {
    if (xml[i + 1] !== W || xml[i + 2] !== COLON || xml[i + 3] !== P) continue;
    const next = xml[i + 4]!;
    if (next === 0x3e || next === 0x2f || next === 0x20 || next === 0x09 || next === 0x0a || next === 0x0d) count++;
  }
  return count;
}

function mb(n: number): string {
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
