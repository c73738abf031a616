import { escapeText } from './escape';
import type { XmlDocument, XmlNode } from './tree';

/**
 * Writes a tree back to text. Clean elements and texts are copied from the source; only the
 * elements on the path to a change are rebuilt from name, attribute text and children.
 */
export function serializeXml(doc: XmlDocument): string {
  if (!doc.root.dirty) return doc.src;
  const out: string[] = [];
  for (const n of doc.nodes) write(n, out);
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
