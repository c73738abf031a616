import { unzipSync } from 'fflate';
import { sortBySchema } from '../../src/docx/ooxml/schema-order';
import { parseXml } from '../../src/docx/xml/parse';
import { walk, type XmlElement } from '../../src/docx/xml/tree';

/**
 * Test oracle helper: structural rules Word enforces that LibreOffice forgives, checked on every
 * XML part under word/: property children in schema order, no empty revision wrapper, every cell
 * and the body end with a paragraph, no range marker without its partner. Returns the problems.
 */
const PROPERTY_HOLDERS = ['w:rPr', 'w:pPr', 'w:tblPr', 'w:tblPrEx', 'w:trPr', 'w:tcPr', 'w:sectPr', 'w:numPr'];
const PAIRS: [string, string][] = [
  ['w:bookmarkStart', 'w:bookmarkEnd'],
  ['w:moveFromRangeStart', 'w:moveFromRangeEnd'],
  ['w:moveToRangeStart', 'w:moveToRangeEnd'],
];

export function structuralProblems(docx: Uint8Array): string[] {
  const problems: string[] = [];
  const files = unzipSync(docx, { filter: (f) => /^word\/[^/]+\.xml$/.test(f.name) });
  for (const [name, data] of Object.entries(files)) {
    const root = parseXml(new TextDecoder().decode(data)).root;
    const seen = new Map<string, string[]>();
    walk(root, (el: XmlElement) => {
      if (PROPERTY_HOLDERS.includes(el.name) && el.parent?.name !== 'w:rPrChange') {
        const kids = el.elements().map((k) => k.name);
        const sorted = (sortBySchema(el.name, el.elements()) as XmlElement[]).map((k) => k.name);
        if (kids.join() !== sorted.join()) problems.push(`${name}: ${el.name} children out of order: ${kids.join(' ')}`);
      }
      if (['w:ins', 'w:del', 'w:moveFrom', 'w:moveTo'].includes(el.name) && !['w:rPr', 'w:trPr', 'w:numPr'].includes(el.parent?.name ?? '') && el.elements().length === 0) {
        problems.push(`${name}: empty ${el.name}`);
      }
      if (el.name === 'w:tc') {
        const blocks = el.elements().filter((k) => k.name !== 'w:tcPr' && !k.name.endsWith('End') && !k.name.endsWith('Start'));
        const last = blocks[blocks.length - 1];
        if (!last || !['w:p', 'w:sdt', 'w:customXml'].includes(last.name)) problems.push(`${name}: a cell does not end with a paragraph`);
      }
      if (el.name === 'w:body') {
        const blocks = el.elements().filter((k) => k.name !== 'w:sectPr' && !k.name.endsWith('End') && !k.name.endsWith('Start'));
        const last = blocks[blocks.length - 1];
        if (last && !['w:p', 'w:sdt', 'w:customXml'].includes(last.name)) problems.push(`${name}: the body does not end with a paragraph`);
      }
      for (const [s, e] of PAIRS) {
        if (el.name === s || el.name === e) {
          const key = `${el.name}:${el.attr('w:id')}`;
          seen.set(key, [...(seen.get(key) ?? []), el.name]);
        }
      }
      return true;
    });
    for (const [s, e] of PAIRS) {
      for (const key of seen.keys()) {
        const cut = key.lastIndexOf(':');
        const n = key.slice(0, cut);
        const id = key.slice(cut + 1);
        if (n === s && !seen.has(`${e}:${id}`)) problems.push(`${name}: ${s} ${id} without its end`);
        if (n === e && !seen.has(`${s}:${id}`)) problems.push(`${name}: ${e} ${id} without its start`);
      }
    }
  }
  return problems;
}
