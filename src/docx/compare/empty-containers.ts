import { XmlElement, walk } from '../xml/tree';
import type { DocxPackage } from '../package/package';

/**
 * Notes and table cells without a paragraph, which the schema forbids (a note or a cell holds at
 * least one block, its last a paragraph) but some producers write (`<w:footnote w:id="1"/>`), get
 * one empty paragraph, as Word gives them when it opens such a file. Without it an empty note
 * compared with a note that has text has nowhere to carry the text's paragraph mark: deleting the
 * older note's text would leave an empty paragraph after accept-all that newer does not have
 * (and the output would be as invalid as the input). Applied to both inputs, so both read alike.
 */
export function repairEmptyContainers(pkg: DocxPackage): void {
  for (const { part, doc } of pkg.stories()) {
    const notes = part.role === 'footnotes' || part.role === 'endnotes';
    if (!notes && !MAY_HOLD_EMPTY_CELL.test(doc.src)) continue;
    walk(doc.root, (e) => {
      if (e.name === 'w:tc' || (notes && (e.name === 'w:footnote' || e.name === 'w:endnote') && isContentNote(e))) {
        if (!e.children.some((c) => c.kind === 1 && BLOCKS.has(c.name))) e.append(XmlElement.create('w:p'));
      }
      return true;
    });
  }
}

const BLOCKS = new Set(['w:p', 'w:tbl', 'w:sdt', 'w:customXml', 'w:ins', 'w:del', 'w:moveFrom', 'w:moveTo']);
/** A cell that ends right after its properties, or has nothing at all. */
const MAY_HOLD_EMPTY_CELL = /<\/w:tcPr>\s*<\/w:tc>|<w:tc(?:\s[^>]*)?\/>|<w:tc(?:\s[^>]*)?>\s*<\/w:tc>/;

function isContentNote(note: XmlElement): boolean {
  const type = note.attr('w:type');
  return !type || type === 'normal';
}
