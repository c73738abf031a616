import { unzipSync } from 'fflate';
import { parseXml } from '../../src/docx/xml/parse';
import type { XmlElement } from '../../src/docx/xml/tree';
import { within } from './doctext';

/**
 * Test oracle for the reading model: the body's paragraph texts straight from document.xml (read
 * with fflate, not the engine's package reader), in reading order: a table cell by cell, content
 * controls and block-level revision wrappers entered, a text box's paragraphs after the
 * paragraph that anchors it. A paragraph's text is its w:t (and, with `deleted`, w:delText) and
 * m:t, tabs, breaks, symbols and no-break hyphens, outside field codes and mc:Fallback.
 */
export function bodyParagraphTexts(bytes: Uint8Array, opts: { deleted: boolean }): string[] {
  const files = unzipSync(bytes, { filter: (f) => f.name === 'word/document.xml' });
  const root = parseXml(new TextDecoder().decode(files['word/document.xml']!)).root;
  const out: string[] = [];
  const body = root.first('w:body');
  if (body) blocks(body, out, opts.deleted);
  return out;
}

function blocks(container: XmlElement, out: string[], deleted: boolean): void {
  for (const e of container.elements()) {
    if (e.name === 'w:p') {
      const boxes: XmlElement[] = [];
      const fields: boolean[] = [];
      out.push(text(e, deleted, boxes, fields));
      for (const box of boxes) blocks(box, out, deleted);
    } else if (e.name === 'w:tbl') {
      for (const tr of within(e, 'w:tr')) for (const tc of within(tr, 'w:tc')) blocks(tc, out, deleted);
    } else if (e.name === 'w:sdt') {
      const c = e.first('w:sdtContent');
      if (c) blocks(c, out, deleted);
    } else if (['w:customXml', 'w:ins', 'w:del', 'w:moveTo', 'w:moveFrom'].includes(e.name)) blocks(e, out, deleted);
  }
}

function text(p: XmlElement, deleted: boolean, boxes: XmlElement[], fields: boolean[]): string {
  let s = '';
  const inCode = () => fields.some((f) => f);
  const visit = (e: XmlElement): void => {
    switch (e.name) {
      case 'mc:Fallback': case 'w:pPr': case 'w:rPr': case 'w:instrText': case 'w:delInstrText':
        return;
      case 'w:txbxContent':
        boxes.push(e);
        return;
      case 'w:fldChar': {
        const type = e.attr('w:fldCharType');
        if (type === 'begin') fields.push(true);
        else if (type === 'separate' && fields.length) fields[fields.length - 1] = false;
        else if (type === 'end') fields.pop();
        return;
      }
      case 'w:t': case 'm:t': case 'w:delText':
        if ((e.name !== 'w:delText' || deleted) && !inCode()) for (const c of e.children) if (c.kind === 2) s += c.text;
        return;
      case 'w:tab': case 'w:ptab':
        if (e.parent?.name === 'w:r' && !inCode()) s += '\t';
        return;
      case 'w:br': case 'w:cr':
        if (!inCode()) s += '\n';
        return;
      case 'w:noBreakHyphen':
        if (!inCode()) s += '-';
        return;
      case 'w:sym': {
        const code = parseInt(e.attr('w:char') ?? '', 16);
        if (Number.isFinite(code) && !inCode()) s += String.fromCharCode(code >= 0xf000 && code <= 0xf0ff ? code - 0xf000 : code);
        return;
      }
      default:
        for (const c of e.elements()) visit(c);
    }
  };
  for (const c of p.elements()) visit(c);
  return s;
}
