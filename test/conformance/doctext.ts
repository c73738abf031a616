import { unzipSync } from 'fflate';
import { parseXml } from '../../src/docx/xml/parse';
import type { XmlElement } from '../../src/docx/xml/tree';

/**
 * Test oracle helper: a port of /work/shared/tools/doctext.py's "current" view, the paragraph
 * text of the main document body (w:t only, mc:Fallback skipped, tables flattened cell by cell, row- and cell-level
 * content controls entered,
 * block-level content controls and wrappers entered), with empty paragraphs dropped as its
 * --cmp mode does. Used to compare our accept/reject outputs with the corpus baselines.
 * It reads the zip with fflate directly, independently of the engine's reader.
 */
export function documentParagraphs(bytes: Uint8Array): string[] {
  const files = unzipSync(bytes, { filter: (f) => /^word\/document\d*\.xml$/.test(f.name) });
  const name = files['word/document.xml'] ? 'word/document.xml' : Object.keys(files)[0]!;
  const root = parseXml(new TextDecoder().decode(files[name]!)).root;
  const body = root.first('w:body');
  const out: string[] = [];
  if (body) paragraphs(body, out);
  return out.filter((p) => p.trim() !== '');
}

function paragraphs(container: XmlElement, out: string[]): void {
  for (const e of container.elements()) {
    if (e.name === 'w:p') out.push(paraText(e));
    else if (e.name === 'w:tbl') {
      for (const tr of within(e, 'w:tr')) for (const tc of within(tr, 'w:tc')) paragraphs(tc, out);
    } else if (e.name === 'w:sdt') {
      const c = e.first('w:sdtContent');
      if (c) paragraphs(c, out);
    } else if (['w:customXml', 'w:ins', 'w:del', 'w:moveTo', 'w:moveFrom'].includes(e.name)) paragraphs(e, out);
  }
}

/**
 * Rows of a table or cells of a row, also when wrapped in a row- or cell-level content control
 * (doctext.py misses those; LibreOffice unwraps them, so the port must see through them).
 */
export function within(e: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of e.elements()) {
    if (c.name === name) out.push(c);
    else if (c.name === 'w:sdt') out.push(...within(c.first('w:sdtContent') ?? c, name));
    else if (c.name === 'w:customXml') out.push(...within(c, name));
  }
  return out;
}

function paraText(p: XmlElement): string {
  let s = '';
  const walk = (e: XmlElement): void => {
    if (e.name === 'mc:Fallback' || e.name === 'w:pPr' || e.name === 'w:rPr') return;
    if (e.name === 'w:t') {
      for (const c of e.children) if (c.kind === 2) s += c.text;
      return;
    }
    if (e.name === 'w:delText') return;
    for (const c of e.elements()) walk(c);
  };
  for (const c of p.elements()) walk(c);
  return s;
}
