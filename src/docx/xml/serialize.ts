import { escapeText } from './escape';
import type { XmlOverlay } from './overlay';
import type { XmlDocument, XmlElement, XmlNode } from './tree';

/**
 * Writes a tree back to text. Clean elements and texts are copied from the source; only the
 * elements on the path to a change (or to an overlay's addition) are rebuilt from name,
 * attribute text and children.
 */
export function serializeXml(doc: XmlDocument, overlay?: XmlOverlay, memo?: BlockMemo): string {
  return pieces(doc, overlay, memo)?.join('') ?? doc.src;
}

/**
 * `serializeXml` as UTF-8, as a package writes it: the pieces are encoded a stretch at a time
 * into one buffer, never joined into one string as long as the part (twice its bytes once it
 * holds a character past Latin-1), which would be alive beside the bytes at the peak of a write.
 */
export function serializeXmlUtf8(doc: XmlDocument, overlay?: XmlOverlay, memo?: BlockMemo): Uint8Array {
  const out = pieces(doc, overlay, memo);
  if (!out) return UTF8.encode(doc.src);
  let chars = 0;
  for (const piece of out) chars += piece.length;
  // Most parts are nearly all ASCII: a byte a character and an eighth more; grown if need be.
  let bytes = new Uint8Array(chars + (chars >> 3) + 16);
  let at = 0;
  let from = 0;
  let length = 0;
  for (let i = 0; i < out.length; i++) {
    const piece = out[i]!;
    length += piece.length;
    const last = piece.charCodeAt(piece.length - 1);
    // A stretch never ends inside a surrogate pair (encoded apart, its halves would not make one character).
    if (i + 1 < out.length && (length < STRETCH_CHARS || (last >= 0xd800 && last <= 0xdbff))) continue;
    let text = from === i ? piece : out.slice(from, i + 1).join('');
    for (;;) {
      const { read, written } = UTF8.encodeInto(text, bytes.subarray(at));
      at += written;
      if (read === text.length) break;
      text = text.slice(read);
      const grown = new Uint8Array(Math.max(bytes.length * 2, at + text.length * 3));
      grown.set(bytes.subarray(0, at));
      bytes = grown;
    }
    from = i + 1;
    length = 0;
  }
  return bytes.subarray(0, at);
}
const UTF8 = new TextEncoder();
/** Stretches small enough to be ordinary young objects: a larger string is allocated on its own pages, which count until collected. */
const STRETCH_CHARS = 1 << 13;

/** The written text as pieces in order; null when the source text still holds. */
function pieces(doc: XmlDocument, overlay?: XmlOverlay, memo?: BlockMemo): string[] | null {
  const laid = overlay?.touches(doc) ? overlay : undefined;
  if (!doc.root.dirty && !laid) return null;
  const out: string[] = [];
  for (const n of doc.nodes) write(n, out, laid, laid ? memo : undefined);
  return out;
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
