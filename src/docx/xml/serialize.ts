import { escapeText } from './escape';
import type { XmlOverlay } from './overlay';
import type { XmlDocument, XmlElement, XmlNode } from './tree';

/**
 * Writes a tree back to text. Clean elements and texts are copied from the source; only the
 * elements on the path to a change (or to an overlay's addition) are rebuilt from name,
 * attribute text and children.
 */
export function serializeXml(doc: XmlDocument, overlay?: XmlOverlay, memo?: BlockMemo): string {
  const laid = overlay?.touches(doc) ? overlay : undefined;
  if (!doc.root.dirty && !laid) return doc.src;
  const out: string[] = [];
  for (const n of doc.nodes) write(n, out, laid, laid ? memo : undefined);
  return out.join('');
}

/**
 * The written text of the blocks of one container (a w:body) through an overlay, kept from an
 * earlier write (render/variant-memo.ts): a block it still holds is copied from it, any other
 * is written and offered to it.
 */
export interface BlockMemo {
  readonly container: XmlElement;
  text(block: XmlElement): string | undefined;
  keep(block: XmlElement, text: string): void;
}

export function serializeNode(node: XmlNode): string {
  const out: string[] = [];
  write(node, out);
  return out.join('');
}

/** One node; through an overlay, the elements it touches are rebuilt with its additions and names. */
function write(node: XmlNode, out: string[], overlay?: XmlOverlay, memo?: BlockMemo): void {
  if (node.kind === 2) {
    out.push(node.clean ? node.src.slice(node.start, node.end) : escapeText(node.text));
    return;
  }
  if (node.kind === 3) {
    out.push(node.raw);
    return;
  }
  const laid = overlay?.touched.has(node) === true;
  const replacement = laid ? overlay!.replaced.get(node) : undefined;
  if (replacement) {
    for (const n of replacement) write(n, out);
    return;
  }
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
  writeChildren(node.children, out, laid ? overlay : undefined, laid ? memo : undefined, node === memo?.container);
  if (last) for (const n of last) write(n, out);
  out.push(`</${name}>`);
}

/**
 * Children of a rebuilt element. Clean neighbours that were neighbours in the source are copied
 * as one slice: a dirty w:body of 30,000 paragraphs, a few of them changed, is a handful of
 * slices instead of 30,000. Through an overlay, a child it touches or adds beside is written
 * on its own.
 */
function writeChildren(children: readonly XmlNode[], out: string[], overlay?: XmlOverlay, memo?: BlockMemo, blocks = false): void {
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
    if (blocks && c.kind === 1) writeBlock(c, out, overlay, memo!);
    else write(c, out, overlay, memo);
    if (after) for (const n of after) write(n, out);
  }
  if (start >= 0) out.push(src.slice(start, end));
}

/** A block of the memo's container: copied from the memo, else written and kept there. */
function writeBlock(block: XmlElement, out: string[], overlay: XmlOverlay | undefined, memo: BlockMemo): void {
  const kept = memo.text(block);
  if (kept !== undefined) {
    out.push(kept);
    return;
  }
  const from = out.length;
  write(block, out, overlay);
  memo.keep(block, out.slice(from).join(''));
}
