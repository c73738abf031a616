import { escapeText } from './escape';
import type { XmlOverlay } from './overlay';
import type { XmlDocument, XmlNode } from './tree';

/**
 * Writes a tree back to text. Clean elements and texts are copied from the source; only the
 * elements on the path to a change (or to an overlay's addition) are rebuilt from name,
 * attribute text and children.
 */
export function serializeXml(doc: XmlDocument, overlay?: XmlOverlay): string {
  const laid = overlay?.touches(doc) ? overlay : undefined;
  if (!doc.root.dirty && !laid) return doc.src;
  const out: string[] = [];
  for (const n of doc.nodes) write(n, out, laid);
  return out.join('');
}

export function serializeNode(node: XmlNode): string {
  const out: string[] = [];
  write(node, out);
  return out.join('');
}

/** One node; through an overlay, the elements it touches are rebuilt with its additions and names. */
function write(node: XmlNode, out: string[], overlay?: XmlOverlay): void {
  if (node.kind === 2) {
    out.push(node.clean ? node.src.slice(node.start, node.end) : escapeText(node.text));
    return;
  }
  if (node.kind === 3) {
    out.push(node.raw);
    return;
  }
  const laid = overlay?.touched.has(node) === true;
  if (!node.dirty && !laid) {
    out.push(node.src.slice(node.start, node.end));
    return;
  }
  const name = (laid && overlay!.names.get(node)) || node.name;
  const first = laid ? overlay!.atStart.get(node) : undefined;
  const last = laid ? overlay!.atEnd.get(node) : undefined;
  const head = `<${name}${node.attrText()}`;
  if (node.children.length === 0 && !first && !last) {
    out.push(`${head}/>`);
    return;
  }
  out.push(`${head}>`);
  if (first) for (const n of first) write(n, out);
  writeChildren(node.children, out, laid ? overlay : undefined);
  if (last) for (const n of last) write(n, out);
  out.push(`</${name}>`);
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
    write(c, out, overlay);
    if (after) for (const n of after) write(n, out);
  }
  if (start >= 0) out.push(src.slice(start, end));
}
