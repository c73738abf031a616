import { edgeTable } from '../revisions/joins';
import type { XmlElement } from '../xml/tree';
import type { Block } from './model';

/**
 * The block-level content controls (w:sdt) around the blocks of a story, as the comparison sees
 * them: the reader sees through them (model.ts), so a block's controls are known only by the
 * places of the controls around it; and where a block of older the comparison deletes goes among
 * newer's controls, so that rejecting gives it back in the controls older had it in, no deeper.
 */

/** Where deleted blocks go in newer's container: before or after a block, or at a container's end. */
export type Anchor = { before: XmlElement } | { after: XmlElement } | { end: XmlElement };

/** The content controls (w:sdt) around a block, innermost first, up to its container. */
export function controlsAround(el: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (let e = el.parent; e && e.name !== 'w:body' && e.name !== 'w:tc' && e.name !== 'w:txbxContent'; e = e.parent) if (e.name === 'w:sdt') out.push(e);
  return out;
}

/** The element of the story's own tree a block stands for (a paragraph: the part keeping its mark). */
export function blockElement(block: Block): XmlElement {
  return block.kind === 'p' ? block.parts[block.parts.length - 1]! : block.el;
}

/** The places of the content controls around a block, outermost last ('' outside any). */
export function controlPath(block: Block): string {
  return controlsAround(blockElement(block)).map(placeOf).join('/');
}

/** A content control's place among the content controls of its parent (all of a parent's at once: a document may wrap every block in one). */
function placeOf(control: XmlElement): number {
  let place = PLACES.get(control);
  if (place === undefined) {
    control.parent!.elements().filter((e) => e.name === 'w:sdt').forEach((e, k) => PLACES.set(e, k));
    place = PLACES.get(control)!;
  }
  return place;
}
const PLACES = new WeakMap<XmlElement, number>();

/** Before newer's block `index` of a container's blocks; after its last one past the end; the container's end when it has none. */
export function anchorAt(blocks: readonly Block[], index: number, container: XmlElement): Anchor {
  const b = blocks[index];
  if (b) return { before: b.kind === 'p' ? b.parts[0]! : b.el };
  const last = blocks[blocks.length - 1];
  if (last) return { after: blockElement(last) };
  return { end: container };
}

/** The element deleted blocks at an anchor go into. */
export function anchorContainer(a: Anchor): XmlElement {
  if ('end' in a) return a.end;
  const el = 'before' in a ? a.before : a.after;
  return el.parent!;
}

/**
 * Where a deleted block of older (`older`, in older's tree) goes, given the newer block it stands
 * before or after: among the content controls older had around it, no more and no fewer. The
 * comparison's anchors are newer's blocks, which may stand inside controls the deleted block was
 * not in (a paragraph deleted just before a control is anchored before the control's first
 * paragraph) or outside one it was in (a paragraph deleted at a control's end is anchored before
 * the block after the control). Placed there, rejecting would give it back inside the control, or
 * outside it. So the anchor is lifted out of the controls the block was not in (before or after
 * the control itself), then taken down into those it was in that are newer's neighbours: the one
 * that ends just before the anchor (the block goes at its end) or starts just after it (the block
 * goes at its start). Controls are known by their places (`placeOf`), as the diff pairs blocks.
 * A control older had around the block that newer has nowhere near stays unfound: the block then
 * goes at the deepest level found.
 */
export function amongControls(anchor: Anchor, older: XmlElement): Anchor {
  return liftedAndLowered(anchor, older, false)!;
}

/** amongControls; with `atEdgeOnly`, null where the anchor would be lifted out of a control it does not start (before) or end (after). */
function liftedAndLowered(anchor: Anchor, older: XmlElement, atEdgeOnly: boolean): Anchor | null {
  if ('end' in anchor) return anchor;
  const places = controlsAround(older).reverse().map(placeOf);
  const around = controlsAround('before' in anchor ? anchor.before : anchor.after).reverse();
  let shared = 0;
  while (shared < places.length && shared < around.length && placeOf(around[shared]!) === places[shared]) shared++;
  let at: Anchor = anchor;
  if (shared < around.length) {
    const control = around[shared]!;
    // Beside a control that starts (ends) with a table, with a table just before (after) it, a
    // deleted paragraph could never be taken away on accept (joins.ts: that would leave two tables
    // together, counted through controls' edges), so it stays inside the control, where it can.
    if (betweenTables(control, 'before' in anchor ? 'before' : 'after')) return anchor;
    if (atEdgeOnly && !atEdge('before' in anchor ? anchor.before : anchor.after, control, 'before' in anchor ? 'first' : 'last')) return null;
    at = 'before' in anchor ? { before: control } : { after: control };
  }
  return intoControls(at, places.slice(shared));
}

/**
 * Of anchors that stand between the same neighbours (before and after a block that replaces the
 * deleted one, say), the first where the deleted block goes back into as many controls as older
 * had around it (amongControls can only go into a control on the anchor's side); else the first.
 */
export function fittingAnchor(anchors: readonly Anchor[], older: XmlElement): Anchor {
  const depth = controlsAround(older).length;
  const fits = (at: Anchor | null): boolean => {
    if (!at) return false;
    // A block at a content's end stands in the controls around that content (none at a container's end).
    if ('end' in at) return (at.end.name === 'w:sdtContent' ? controlsAround(at.end).length : 0) === depth;
    return controlsAround('before' in at ? at.before : at.after).length === depth;
  };
  // Lifted out of a control only at its edge, the block keeps its order with what the control holds.
  return anchors.find((a) => fits(liftedAndLowered(a, older, true))) ?? anchors.find((a) => fits(amongControls(a, older))) ?? anchors[0]!;
}

/** Whether `el` is the first (last) block of `control`'s content, through the controls between them. */
function atEdge(el: XmlElement, control: XmlElement, edge: 'first' | 'last'): boolean {
  for (let e = el; e !== control && e.parent; e = e.parent) {
    if (!isBlock(e)) continue;
    const blocks = e.parent.elements().filter(isBlock);
    if ((edge === 'first' ? blocks[0] : blocks[blocks.length - 1]) !== e) return false;
  }
  return true;
}

function isBlock(e: XmlElement): boolean {
  return e.name === 'w:p' || e.name === 'w:tbl' || e.name === 'w:sdt' || e.name === 'w:customXml';
}

/** Whether the block on `side` of a control and the control's own edge facing it are both tables (through controls). */
function betweenTables(control: XmlElement, side: 'before' | 'after'): boolean {
  const kids = control.parent!.elements();
  const at = kids.indexOf(control);
  const beside = side === 'before' ? kids.slice(0, at).reverse() : kids.slice(at + 1);
  const neighbour = beside.find(isBlock);
  return !!neighbour && edgeTable(neighbour, side === 'before' ? 'last' : 'first') && edgeTable(control, side === 'before' ? 'first' : 'last');
}

/**
 * An anchor taken down into the controls at `places` (see amongControls): before a block, into the
 * control standing before it, at that control's end, and on into the controls its content holds;
 * after a block, into the control right after it, at its start, and on into the control that
 * content starts with.
 */
function intoControls(anchor: Anchor, places: readonly number[]): Anchor {
  if ('end' in anchor || !places.length) return anchor;
  const atEnd = 'before' in anchor;
  const ref = atEnd ? anchor.before : anchor.after;
  const kids = ref.parent!.elements();
  const first = kids.find((e) => e.name === 'w:sdt' && placeOf(e) === places[0]);
  if (!first || kids.indexOf(first) < kids.indexOf(ref) !== atEnd) return anchor;
  let control = first;
  let at: Anchor = anchor;
  for (let k = 0; ; k++) {
    const content = control.first('w:sdtContent');
    if (!content) return at;
    const blocks = content.elements().filter(isBlock);
    const edge = atEnd ? blocks[blocks.length - 1] : blocks[0];
    at = atEnd || !edge ? { end: content } : { before: edge };
    if (k + 1 >= places.length) return at;
    // The next control in, if it is the edge this content stands at (else the block goes at this level).
    if (edge?.name !== 'w:sdt' || placeOf(edge) !== places[k + 1]) return at;
    control = edge;
  }
}
