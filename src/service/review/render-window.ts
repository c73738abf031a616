import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { changeBookmarkName } from '../../contract/bookmark';

/** A render variant opened for cutting: its main part's XML and where each body block lies. */
export interface BodyLayout {
  mainPath: string;
  xml: string;
  /** Offset just after `<w:body ...>`. */
  bodyStart: number;
  /** Offset of `</w:body>`. */
  bodyEnd: number;
  /** [start, end) of each top-level block (paragraph, table, content control, custom XML), in order. */
  blocks: [number, number][];
  /** Every other part, as stored (written back unchanged). */
  parts: Record<string, Uint8Array>;
}

export interface RenderWindow {
  bytes: Uint8Array;
  /** Index of the window's first block, and the body's block count. */
  first: number;
  total: number;
}

/** The start and end tags of the elements that make up body blocks (and nest inside them). */
const BLOCK_TAG = /<(\/?)w:(p|tbl|sdt|customXml)(?=[\s>/])[^>]*?(\/?)>/g;

/**
 * Opens a render variant for cutting. Only the block-level elements' tags are scanned (a
 * paragraph inside a table or a text box nests, so depth tracking over those names alone
 * finds the body's own children), which is a few tens of milliseconds on a 300-page draft.
 */
export function layoutOf(docx: Uint8Array): BodyLayout {
  const files = unzipSync(docx);
  const rels = files['_rels/.rels'] ? strFromU8(files['_rels/.rels']) : '';
  const target = /<Relationship\b[^>]*Type="[^"]*\/officeDocument"[^>]*>/.exec(rels)?.[0];
  const mainPath = (target && /Target="\/?([^"]+)"/.exec(target)?.[1]) ?? 'word/document.xml';
  const main = files[mainPath];
  if (!main) throw new Error(`the package has no main part at ${mainPath}`);
  const xml = strFromU8(main);
  const open = /<w:body\b[^>]*>/.exec(xml);
  const bodyEnd = xml.lastIndexOf('</w:body>');
  if (!open || bodyEnd < 0) throw new Error('the main part has no body');
  const bodyStart = open.index + open[0].length;
  const blocks: [number, number][] = [];
  let depth = 0;
  let start = 0;
  BLOCK_TAG.lastIndex = bodyStart;
  for (let m = BLOCK_TAG.exec(xml); m && m.index < bodyEnd; m = BLOCK_TAG.exec(xml)) {
    const closing = m[1] === '/';
    const selfClosing = m[3] === '/';
    if (closing) {
      depth--;
      if (depth === 0) blocks.push([start, m.index + m[0].length]);
    } else if (selfClosing) {
      if (depth === 0) blocks.push([m.index, m.index + m[0].length]);
    } else {
      if (depth === 0) start = m.index;
      depth++;
    }
  }
  const parts = { ...files };
  delete parts[mainPath];
  return { mainPath, xml, bodyStart, bodyEnd, blocks, parts };
}

/**
 * The variant cut to `blocks` body blocks on each side of the block holding the change's
 * bookmark (or the first blocks when `changeId` is absent). What lies before the body and
 * after its last block (the final section's page size and margins) is kept, so the pages look
 * like the draft's. Null when the change has no bookmark in the body.
 */
export function cutWindow(layout: BodyLayout, changeId: string | undefined, blocks: number): RenderWindow | null {
  const { xml, blocks: all } = layout;
  let index = 0;
  if (changeId !== undefined) {
    const at = xml.indexOf(`w:name="${changeBookmarkName(changeId)}"`, layout.bodyStart);
    if (at < 0 || at > layout.bodyEnd) return null;
    index = blockAt(all, at);
    if (index < 0) return null;
  }
  const first = Math.max(0, index - (changeId === undefined ? 0 : blocks));
  const last = Math.min(all.length - 1, index + (changeId === undefined ? 2 * blocks : blocks));
  const tail = all.length > 0 ? all[all.length - 1]![1] : layout.bodyStart;
  const body = all.length === 0 ? '' : xml.slice(all[first]![0], all[last]![1]);
  const cut = xml.slice(0, layout.bodyStart) + body + xml.slice(tail, layout.bodyEnd) + xml.slice(layout.bodyEnd);
  const files: Zippable = {};
  for (const [name, data] of Object.entries(layout.parts)) files[name] = [data, { level: 0 }];
  files[layout.mainPath] = [strToU8(cut), { level: 1 }];
  return { bytes: zipSync(files), first, total: all.length };
}

/** The block whose range holds `offset` (binary search), or -1. */
function blockAt(blocks: readonly [number, number][], offset: number): number {
  let lo = 0;
  let hi = blocks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [start, end] = blocks[mid]!;
    if (offset < start) hi = mid - 1;
    else if (offset >= end) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/** Layouts of the last few variants cut, by content hash: jumping about a draft cuts the same one. */
export class RenderWindowCache {
  private readonly entries = new Map<string, BodyLayout>();
  constructor(private readonly size = 2) {}

  layout(sha256: string, bytes: () => Uint8Array): BodyLayout {
    let layout = this.entries.get(sha256);
    if (layout) this.entries.delete(sha256);
    else layout = layoutOf(bytes());
    this.entries.set(sha256, layout);
    while (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!);
    return layout;
  }
}
