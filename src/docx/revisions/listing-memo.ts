import { changeClock, lastChanged, type XmlElement } from '../xml/tree';
import type { Site } from './sites';

/** What was read once, from which sites, and when. */
interface Entry {
  els: XmlElement[];
  types: string[];
  tag: string;
  /** The blocks holding everything the value was read from; none may have changed since `at`. */
  blocks: XmlElement[];
  /** Other elements the value was read from (whole parts' roots); the same ones, unchanged since `at`. */
  also: readonly XmlElement[];
  at: number;
  value: string | null;
}

/**
 * Words the revisions' listing reads from a change's own markup (a preview, a group's summary),
 * remembered for the next listing of the same open document while nothing they were read from
 * has changed. A batch changes a few dozen blocks; the listing after it reads those again and
 * takes the rest over, instead of reading every change's text on every listing.
 *
 * A remembered value is used only for the same sites (elements and types, in order) under the
 * same `tag`, and only while no block holding them has changed since it was read. A site's
 * block is the top-level block (a grandchild of the part's root: a body paragraph or table, a
 * style) around the site's parent, so it covers the site's content, the properties element a
 * formatting change sits in and the row of a row change; a control boundary's block also covers
 * the control it bounds. `markDirty` stamps every ancestor of what changed, and moving an
 * element out of a block stamps that block, so an unchanged stamp means an unchanged subtree.
 */
export class ListingMemo {
  private entries = new Map<XmlElement, Entry>();
  private used: Map<XmlElement, Entry> | null = null;

  /**
   * Runs one listing: entries it did not use are dropped afterwards, so the memo holds at most
   * what the document lists now.
   */
  listing<T>(list: () => T): T {
    this.used = new Map();
    try {
      return list();
    } finally {
      this.entries = this.used;
      this.used = null;
    }
  }

  /** The words `read` gives for these sites (and `also`, when it reads more than their blocks), read now or remembered. */
  read<T extends string | null>(sites: readonly Site[], tag: string, read: () => T, also: readonly XmlElement[] = []): T {
    const lead = sites[0]!.el;
    const known = this.entries.get(lead);
    let entry: Entry;
    if (known && known.tag === tag && sameSites(known, sites) && sameElements(known.also, also)
      && known.blocks.every((b) => lastChanged(b) <= known.at) && also.every((e) => lastChanged(e) <= known.at)) entry = known;
    else {
      const at = changeClock();
      entry = { els: sites.map((s) => s.el), types: sites.map((s) => s.type), tag, blocks: blocksOf(sites), also, at, value: read() };
    }
    this.used?.set(lead, entry);
    return entry.value as T;
  }
}

function sameElements(a: readonly XmlElement[], b: readonly XmlElement[]): boolean {
  return a.length === b.length && a.every((e, i) => e === b[i]);
}

function sameSites(entry: Entry, sites: readonly Site[]): boolean {
  if (entry.els.length !== sites.length) return false;
  for (let i = 0; i < sites.length; i++) if (entry.els[i] !== sites[i]!.el || entry.types[i] !== sites[i]!.type) return false;
  return true;
}

function blocksOf(sites: readonly Site[]): XmlElement[] {
  const blocks = new Set<XmlElement>();
  for (const s of sites) {
    blocks.add(blockOf(s.el.parent ?? s.el));
    const target = s.boundary?.target;
    if (target) blocks.add(blockOf(target));
  }
  return [...blocks];
}

/** The top-level block around `el` (a grandchild of its root), or the root when `el` lies above that depth. */
function blockOf(el: XmlElement): XmlElement {
  let block = el;
  while (block.parent?.parent?.parent) block = block.parent;
  // `block` is now at depth 2 when `el` was at least that deep; above it the root stands for all.
  if (!block.parent?.parent) while (block.parent) block = block.parent;
  return block;
}
