import { escapeText } from './escape';
import type { XmlOverlay } from './overlay';
import type { XmlDocument, XmlElement, XmlNode } from './tree';

/**
 * Writes a tree back to text. Clean elements and texts are copied from the source; only the
 * elements on the path to a change (or to an overlay's addition) are rebuilt from name,
 * attribute text and children.
 */
export function serializeXml(doc: XmlDocument, overlay?: XmlOverlay): string {
  const laid = overlay?.touches(doc) ? overlay : undefined;
  if (!doc.root.dirty && !laid) return doc.src;
  const out: string[] = [];
  for (const n of doc.nodes) {
    if (laid) writeLaid(n, laid, out);
    else write(n, out);
  }
  return out.join('');
}

export function serializeNode(node: XmlNode): string {
  const out: string[] = [];
  write(node, out);
  return out.join('');
}

function write(node: XmlNode, out: string[]): void {
  if (node.kind === 2) {
    out.push(node.clean ? node.src.slice(node.start, node.end) : escapeText(node.text));
    return;
  }
  if (node.kind === 3) {
    out.push(node.raw);
    return;
  }
  if (!node.dirty) {
    out.push(node.src.slice(node.start, node.end));
    return;
  }
  const head = `<${node.name}${node.attrText()}`;
  if (node.children.length === 0) {
    out.push(`${head}/>`);
    return;
  }
  out.push(`${head}>`);
  writeChildren(node.children, out);
  out.push(`</${node.name}>`);
}

/**
 * Children of a rebuilt element. Clean neighbours that were neighbours in the source are copied
 * as one slice: a dirty w:body of 30,000 paragraphs, a few of them changed, is a handful of
 * slices instead of 30,000. Through an overlay, a child it touches or adds beside is written
 * on its own.
 */
function writeChildren(children: readonly XmlNode[], out: string[], overlay?: XmlOverlay): void {
  let src = '';
  let start = -1;
  let end = -1;
  for (const c of children) {
    const before = overlay?.before.get(c);
    const after = overlay?.after.get(c);
    const laid = before !== undefined || after !== undefined || (c.kind === 1 && overlay?.touched.has(c) === true);
    const slice = laid ? null : c.kind === 1 ? (c.dirty ? null : c) : c.kind === 2 && c.clean ? c : null;
    if (slice) {
      if (slice.src === src && slice.start === end) {
        end = slice.end;
        continue;
      }
      if (start >= 0) out.push(src.slice(start, end));
      src = slice.src;
      start = slice.start;
      end = slice.end;
      continue;
    }
    if (start >= 0) out.push(src.slice(start, end));
    start = -1;
    end = -1;
    if (before) for (const n of before) write(n, out);
    if (overlay) writeLaid(c, overlay, out);
    else write(c, out);
    if (after) for (const n of after) write(n, out);
  }
  if (start >= 0) out.push(src.slice(start, end));
}

/** `write` through an overlay: touched elements are rebuilt with the overlay's additions and names. */
function writeLaid(node: XmlNode, overlay: XmlOverlay, out: string[]): void {
  if (node.kind !== 1 || !overlay.touched.has(node)) {
    write(node, out);
    return;
  }
  const el: XmlElement = node;
  const name = overlay.names.get(el) ?? el.name;
  const first = overlay.atStart.get(el);
  const last = overlay.atEnd.get(el);
  const head = `<${name}${el.attrText()}`;
  if (el.children.length === 0 && !first && !last) {
    out.push(`${head}/>`);
    return;
  }
  out.push(`${head}>`);
  if (first) for (const n of first) write(n, out);
  writeChildren(el.children, out, overlay);
  if (last) for (const n of last) write(n, out);
  out.push(`</${name}>`);
}
