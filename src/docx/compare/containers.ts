import { XmlElement, walk } from '../xml/tree';
import type { DocxPackage } from '../package/package';

/**
 * Containers put into the shape Word gives them when it opens a file, before either input is
 * read: a note or a table cell without a paragraph (which the schema forbids, but some producers
 * write: `<w:footnote w:id="1"/>`) gets one empty paragraph, and a body, cell, note, header or
 * footer whose last block is a table gets an empty paragraph after it (Word always ends a story
 * and a cell with a paragraph, and the engine's accept and reject do too).
 *
 * Without it an empty note compared with a note that has text has nowhere to carry the text's
 * paragraph mark, and a document ending with a table differs from its own rejected view (the
 * engine's reject-all adds that paragraph) by a paragraph the untracked check would report.
 * Applied to both inputs, so both read alike.
 */
export function normaliseContainers(pkg: DocxPackage): void {
  for (const { part, doc } of pkg.stories()) {
    const notes = part.role === 'footnotes' || part.role === 'endnotes';
    if (!notes && !MAY_NEED_A_PARAGRAPH.test(doc.src)) continue;
    walk(doc.root, (e) => {
      if (e.name === 'w:tc' || e.name === 'w:hdr' || e.name === 'w:ftr' || (notes && (e.name === 'w:footnote' || e.name === 'w:endnote') && isContentNote(e))) {
        endWithParagraph(e, null);
      } else if (e.name === 'w:body') endWithParagraph(e, e.first('w:sectPr'));
      return true;
    });
  }
}

function endWithParagraph(container: XmlElement, tail: XmlElement | null): void {
  let last: XmlElement | null = null;
  for (const c of container.children) if (c.kind === 1 && c !== tail && BLOCKS.has(c.name)) last = c;
  if (last && last.name !== 'w:tbl') return;
  const p = XmlElement.create('w:p');
  if (tail) container.insertBefore(p, tail);
  else container.append(p);
}

const BLOCKS = new Set(['w:p', 'w:tbl', 'w:sdt', 'w:customXml', 'w:ins', 'w:del', 'w:moveFrom', 'w:moveTo', 'mc:AlternateContent']);
/**
 * A cell that ends right after its properties or has nothing, or a table that ends a container:
 * three patterns, each led by its own literal (one alternation led by "<" scans a 300-page
 * document character by character).
 */
const NEEDS_A_PARAGRAPH = [
  /<\/w:tbl>\s*(?:<w:bookmarkEnd[^>]*>\s*)*(?:<w:sectPr|<\/w:(?:body|tc|hdr|ftr)>)/,
  /<\/w:tcPr>\s*<\/w:tc>/,
  /<w:tc(?:\s[^>]*)?(?:\/>|>\s*<\/w:tc>)/,
];
const MAY_NEED_A_PARAGRAPH = { test: (src: string): boolean => NEEDS_A_PARAGRAPH.some((re) => re.test(src)) };

/** A note with content (not a separator). */
export function isContentNote(note: XmlElement): boolean {
  const type = note.attr('w:type');
  return !type || type === 'normal';
}
