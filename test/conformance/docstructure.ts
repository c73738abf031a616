import { unzipSync } from 'fflate';
import { parseXml } from '../../src/docx/xml/parse';
import { walk, type XmlElement } from '../../src/docx/xml/tree';
import { within } from './doctext';

/**
 * Test oracle helper for the stricter comparison (issue 17): the main document body as a list of
 * lines, empty paragraphs included, tables as rows and cells, block-level content controls and
 * custom XML as wrappers, inline controls as [[...]], and every field's code with its paragraph, so that a vanished or
 * extra empty paragraph, a lost table, a stray field-code fragment or an unwrapped control shows.
 * Also the revision markup left anywhere in the package's XML parts: after accept-all or
 * reject-all nothing may be left to decide. Reads the zip with fflate, independently of the engine.
 */
export function documentStructure(bytes: Uint8Array): string[] {
  const files = unzipSync(bytes, { filter: (f) => /^word\/document\d*\.xml$/.test(f.name) });
  const name = files['word/document.xml'] ? 'word/document.xml' : Object.keys(files)[0]!;
  const root = parseXml(new TextDecoder().decode(files[name]!)).root;
  const body = root.first('w:body');
  const out: string[] = [];
  if (body) blocks(body, out, '');
  return out;
}

function blocks(container: XmlElement, out: string[], indent: string): void {
  for (const e of container.elements()) {
    if (e.name === 'w:p') out.push(`${indent}p: ${paraText(e)}`);
    else if (e.name === 'w:tbl') {
      out.push(`${indent}table`);
      for (const tr of within(e, 'w:tr')) {
        out.push(`${indent} row`);
        for (const tc of within(tr, 'w:tc')) {
          out.push(`${indent}  cell`);
          blocks(tc, out, `${indent}   `);
        }
      }
    } else if (e.name === 'w:sdt') {
      out.push(`${indent}control`);
      const c = e.first('w:sdtContent');
      if (c) blocks(c, out, `${indent} `);
    } else if (['w:customXml', 'w:ins', 'w:del', 'w:moveTo', 'w:moveFrom', 'w:smartTag'].includes(e.name)) blocks(e, out, indent);
  }
}

/** The paragraph's visible text; a field code shows as {code}, so a fragment left outside its field shows too. */
function paraText(p: XmlElement): string {
  let s = '';
  const visit = (e: XmlElement): void => {
    if (e.name === 'mc:Fallback' || e.name === 'w:pPr' || e.name === 'w:rPr') return;
    if (e.name === 'w:t') {
      for (const c of e.children) if (c.kind === 2) s += c.text;
      return;
    }
    if (e.name === 'w:instrText') {
      let code = '';
      for (const c of e.children) if (c.kind === 2) code += c.text;
      s += `{${code.trim()}}`;
      return;
    }
    if (e.name === 'w:delText' || e.name === 'w:delInstrText') return;
    if (e.name === 'w:sdt') {
      // An inline content control shows as [[...]], so a control lost or left behind shows.
      s += '[[';
      for (const c of e.first('w:sdtContent')?.elements() ?? []) visit(c);
      s += ']]';
      return;
    }
    for (const c of e.elements()) visit(c);
  };
  for (const c of p.elements()) visit(c);
  return s.replace(/\}\{/g, ' ');
}

/** Elements that record a revision still to be decided. */
const REVISION_MARKUP = new Set([
  'w:ins', 'w:del', 'w:moveFrom', 'w:moveTo', 'w:moveFromRangeStart', 'w:moveFromRangeEnd', 'w:moveToRangeStart', 'w:moveToRangeEnd',
  'w:rPrChange', 'w:pPrChange', 'w:tblPrChange', 'w:tblGridChange', 'w:tblPrExChange', 'w:trPrChange', 'w:tcPrChange',
  'w:sectPrChange', 'w:numberingChange', 'w:cellIns', 'w:cellDel', 'w:cellMerge', 'w:delText', 'w:delInstrText',
  'w:customXmlInsRangeStart', 'w:customXmlInsRangeEnd', 'w:customXmlDelRangeStart', 'w:customXmlDelRangeEnd',
  'w:customXmlMoveFromRangeStart', 'w:customXmlMoveFromRangeEnd', 'w:customXmlMoveToRangeStart', 'w:customXmlMoveToRangeEnd',
]);

/** Revision markup left in the package's word/ XML parts, as `part: element` with a count. */
export function remainingRevisionMarkup(bytes: Uint8Array): string[] {
  const files = unzipSync(bytes, { filter: (f) => /^word\/[^/]+\.xml$/.test(f.name) });
  const counts = new Map<string, number>();
  for (const [name, data] of Object.entries(files)) {
    const root = parseXml(new TextDecoder().decode(data)).root;
    walk(root, (el) => {
      // w:ins/w:del inside old properties (w:rPrChange's w:rPr) describe the past, not a pending revision.
      if (REVISION_MARKUP.has(el.name)) {
        const key = `${name}: ${el.name}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
        return false;
      }
      return true;
    });
  }
  return [...counts].map(([k, n]) => `${k} x${n}`).sort();
}
