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
  for (const c of node.children) write(c, out);
  out.push(`</${node.name}>`);
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
  for (const c of el.children) {
    const before = overlay.before.get(c);
    if (before) for (const n of before) write(n, out);
    writeLaid(c, overlay, out);
    const after = overlay.after.get(c);
    if (after) for (const n of after) write(n, out);
  }
  if (last) for (const n of last) write(n, out);
  out.push(`</${name}>`);
}
