import type { XmlOverlay } from '../xml/overlay';
import { serializeNode, type BlockMemo } from '../xml/serialize';
import { changeClock, lastChanged, type XmlElement, type XmlNode } from '../xml/tree';

/**
 * The render variant's body, block by block, from the last time it was written, so the next
 * variant of a draft kept open between batches writes only the blocks a batch touched (issue
 * 22.4): on the 300-page draft a 50-change batch touches a few dozen of thousands.
 *
 * A block is copied when nothing in it changed since (the tree's change clock) and the overlay
 * lays the same additions and renames in it (its signature: each addition's place and text).
 * What a block's text depends on is exactly its subtree and those, so the result is the text a
 * full write gives, byte for byte (variant-memo.test.ts compares both on generated and real
 * drafts). Additions beside a block, between blocks, are written each time.
 */
export class VariantMemo {
  private blocks = new Map<XmlElement, Kept>();

  /** A memo for one write through `overlay` of the blocks of `container` (a w:body); `done` then keeps what it wrote. */
  begin(container: XmlElement, overlay: XmlOverlay): BlockMemo & { done(): void } {
    const signatures = signaturesOf(container, overlay);
    const at = changeClock();
    const previous = this.blocks;
    const next = new Map<XmlElement, Kept>();
    return {
      container,
      text: (block) => {
        const kept = previous.get(block);
        if (!kept || lastChanged(block) > kept.at || kept.signature !== (signatures.get(block) ?? '')) return undefined;
        next.set(block, kept);
        return kept.text;
      },
      keep: (block, text) => {
        next.set(block, { at, signature: signatures.get(block) ?? '', text });
      },
      done: () => {
        this.blocks = next;
      },
    };
  }
}

interface Kept {
  /** The change clock when it was written: a block changed since (lastChanged) is written again. */
  at: number;
  signature: string;
  text: string;
}

/** A number per node, the same for the node's whole life: what a signature names places by. */
const nodeIds = new WeakMap<XmlNode, number>();
let nextNodeId = 1;
function nodeId(node: XmlNode): number {
  let id = nodeIds.get(node);
  if (id === undefined) {
    id = nextNodeId++;
    nodeIds.set(node, id);
  }
  return id;
}

/** The block of `container` that holds `node` (itself a block, or inside one), if any. */
function blockOf(node: XmlNode, container: XmlElement): XmlElement | null {
  let at: XmlNode | null = node;
  while (at && at.parent !== container) at = at.parent;
  return at as XmlElement | null;
}

/** What the overlay lays inside each block of `container`: each addition or rename, where, and its text. */
function signaturesOf(container: XmlElement, overlay: XmlOverlay): Map<XmlElement, string> {
  const out = new Map<XmlElement, string>();
  const add = (key: XmlNode, inside: boolean, what: string) => {
    const block = blockOf(key, container);
    // Beside a block (between blocks) is not in it: written each time.
    if (!block || (!inside && block === key)) return;
    out.set(block, `${out.get(block) ?? ''}${what}|${nodeId(key)}\n`);
  };
  const text = (nodes: readonly XmlNode[]) => nodes.map(serializeNode).join('');
  for (const [key, nodes] of overlay.before) add(key, false, `b${text(nodes)}`);
  for (const [key, nodes] of overlay.after) add(key, false, `a${text(nodes)}`);
  for (const [key, nodes] of overlay.atStart) add(key, true, `s${text(nodes)}`);
  for (const [key, nodes] of overlay.atEnd) add(key, true, `e${text(nodes)}`);
  for (const [key, name] of overlay.names) add(key, true, `n${name}`);
  for (const [key, nodes] of overlay.replaced) add(key, true, `r${text(nodes)}`);
  return out;
}
