import { insertProperty } from '../ooxml/schema-order';
import { XmlElement, isWithin, remove, replaceWith, type XmlNode } from '../xml/tree';
import { CONTROL_RANGE, boundedBy, proposedId } from './sites';

/**
 * Paragraph joins: a paragraph whose mark went (a deleted mark accepted, an inserted one
 * rejected) joins its neighbour once the batch's rows, cells and content are gone.
 *
 * Where it joins depends on what follows it, and a later batch can still change that: a table
 * whose every row is a tracked insertion or deletion may lose them all, a content control with a
 * tracked boundary may be unwrapped (or a proposed one removed), an undecided w:ins/w:del around
 * whole paragraphs goes one way or the other, tracked content may still all go from a first
 * paragraph that would then vanish. Joining now, against what is there now, would make the
 * document depend on the order of the decisions (a mark decided before its table's rows joins
 * backward, in one batch with them forward). So such a paragraph waits: it keeps its content and
 * properties, and a hidden bookmark (`_RedlineJoin_<part>_<n>`, which Word keeps and does not
 * show) records that its mark went. Every later batch on the part looks at
 * the waiting paragraphs again, and joins each whose neighbour is settled, against that final
 * neighbour, as one batch deciding everything would have. The document so depends only on which
 * changes were decided.
 */
const WAIT_NAME = '_RedlineJoin_';

/**
 * Joins (or lets wait) the paragraphs whose mark this batch took away (`gone`, last to first),
 * and those waiting from earlier batches, first to last. `ranges` are the part's range markers (PartScan.ranges),
 * which hold the waiting bookmarks; `part` names the part in their names. Returns whether
 * anything was looked at.
 */
export function joinParagraphs(root: XmlElement, gone: readonly XmlElement[], ranges: readonly XmlElement[], part: string): boolean {
  const waitingBefore = ranges.filter((el) => el.name === 'w:bookmarkStart' && el.attr('w:name')?.startsWith(WAIT_NAME) && el.parent?.name === 'w:p');
  if (!gone.length && !waitingBefore.length) return false;
  // `gone` comes last to first (apply.ts decides in reverse document order); only paragraphs
  // waiting from earlier batches need placing among them.
  const live = [...new Set([...gone].reverse())].filter((p) => isWithin(p, root));
  const all = waitingBefore.length ? [...new Set([...live, ...waitingBefore.map((el) => el.parent!)])].filter((p) => isWithin(p, root)).sort(documentOrder) : live;
  const still: XmlElement[] = [];
  for (const p of all) {
    if (!isWithin(p, root)) continue;
    if (joinUnsettled(p)) {
      still.push(p);
      continue;
    }
    const marker = waitMarkerOf(p);
    if (marker) removeWaitMarker(p, marker);
    joinWithNext(p);
  }
  // Named by their order in the part, so the names (and ids) are the same whichever batches
  // made them wait: a paragraph may wait for one mark in one order, another in another.
  const tag = part.replace(/^.*\//, '').replace(/\.xml$/, '');
  still.forEach((p, k) => {
    const name = `${WAIT_NAME}${tag}_${k + 1}`;
    const marker = waitMarkerOf(p);
    if (marker?.attr('w:name') === name) return;
    if (marker) removeWaitMarker(p, marker);
    addWaitMarker(p, name);
  });
  return true;
}

function waitMarkerOf(p: XmlElement): XmlElement | null {
  return p.elements().find((c) => c.name === 'w:bookmarkStart' && (c.attr('w:name') ?? '').startsWith(WAIT_NAME)) ?? null;
}

/**
 * Bookmark ids are their own space in Word's files; the waiting ones sit far above Word's, and
 * follow from the name (the same whichever batch wrote it).
 */
function waitBookmarkId(name: string): string {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) % 1_000_000_000;
  return String(1_000_000_000 + h);
}

function addWaitMarker(p: XmlElement, name: string): void {
  const id = waitBookmarkId(name);
  p.append(XmlElement.create('w:bookmarkStart', { 'w:id': id, 'w:name': name }));
  p.append(XmlElement.create('w:bookmarkEnd', { 'w:id': id }));
}

function removeWaitMarker(p: XmlElement, start: XmlElement): void {
  const id = start.attr('w:id');
  const end = p.elements().find((c) => c.name === 'w:bookmarkEnd' && c.attr('w:id') === id);
  remove(start);
  if (end) remove(end);
}

/** Document order of two elements of one tree. */
function documentOrder(a: XmlElement, b: XmlElement): number {
  const path = (e: XmlElement): XmlElement[] => {
    const out: XmlElement[] = [];
    for (let x: XmlElement | null = e; x; x = x.parent) out.unshift(x);
    return out;
  };
  const pa = path(a);
  const pb = path(b);
  let i = 0;
  while (i < pa.length && i < pb.length && pa[i] === pb[i]) i++;
  if (i === pa.length || i === pb.length) return pa.length - pb.length;
  const parent = pa[i - 1]!;
  return parent.children.indexOf(pa[i]!) - parent.children.indexOf(pb[i]!);
}

/**
 * Whether how a paragraph joins can still change through decisions not taken yet: the block
 * after it is a table that may still lose every row, or a content control that may still be
 * unwrapped or removed, or it ends such a control; or, joining backward (a settled table after
 * it, or its container's end), the block before it is such a table or control, or (first in its
 * container, before a table) it holds only tracked content that may yet all go, which decides
 * whether it vanishes.
 */
function joinUnsettled(p: XmlElement): boolean {
  const next = blockAfter(p);
  if (next?.name === 'w:p') return false;
  if (followerMayChange(p, next)) return true;
  const kids = p.parent!.children;
  let previous: XmlElement | null = null;
  for (let i = kids.indexOf(p) - 1; i >= 0 && !previous; i--) {
    const k = kids[i]!;
    if (isBlock(k)) previous = k;
  }
  if (previous && previous.name !== 'w:p' && blockMayChange(previous)) return true;
  // Alone where it stands (no paragraph before or after it), it goes whole once empty: its
  // content, all of it tracked, may still all go; or the paragraphs before it may still join it,
  // emptied, leaving it alone.
  if (!emptied(p) && !mayEmpty(p)) return false;
  return mayEmpty(p) ? standsAlone(p, true) !== null : standsAlone(p) === null && standsAlone(p, true) !== null;
}

/** The block after `block` in its container (range markers and emptied tables passed over), if any. */
export function blockAfter(block: XmlElement): XmlElement | null {
  const kids = block.parent!.children;
  for (let i = kids.indexOf(block) + 1; i < kids.length; i++) {
    const k = kids[i]!;
    if (k.kind === 1 && !isRowlessTable(k) && !BETWEEN.has(k.name) && !CONTROL_RANGE.test(k.name)) return k;
  }
  return null;
}

/** Whether what follows `block` (`next`, or its container's end) may still be removed or unwrapped. */
function followerMayChange(block: XmlElement, next: XmlElement | null): boolean {
  if (next) return blockMayChange(next);
  const enclosing = enclosingBlock(block.parent!);
  return !!enclosing && mayUnwrap(enclosing);
}

/** The control or revision around paragraphs whose content `container` is (an sdt's w:sdtContent, a w:customXml, a w:ins/w:del around blocks), if any. */
function enclosingBlock(container: XmlElement): XmlElement | null {
  if (container.name === 'w:sdtContent') return container.parent;
  return container.name === 'w:customXml' || MARK_REVISIONS.has(container.name) ? container : null;
}

/** A block of a container: an element other than range markers and the container's own properties. */
function isBlock(k: XmlNode): k is XmlElement {
  return k.kind === 1 && !BETWEEN.has(k.name) && !CONTROL_RANGE.test(k.name) && !k.name.endsWith('Pr');
}

/**
 * A table that may lose every row, a control that may be unwrapped or removed, or an undecided
 * revision around whole paragraphs (apply.ts, isBlockWrapper), which goes one way or the other.
 */
function blockMayChange(block: XmlElement): boolean {
  if (block.name === 'w:tbl') return tableMayGo(block);
  if (block.name === 'w:sdt' || block.name === 'w:customXml') return controlMayChange(block);
  return MARK_REVISIONS.has(block.name);
}

/**
 * Which ways a paragraph (or a revision around paragraphs) whose mark goes may join, now or once
 * what follows it is settled (containment.ts: what its decision may take): forward into the
 * paragraph after it (its own properties go), backward (the paragraph before it joins it and
 * loses its properties: before a table or at its container's end).
 */
export function joinDirections(block: XmlElement): Directions {
  const next = blockAfter(block);
  if (next !== null) return directionsFrom(next, 0);
  // At its container's end: backward; forward too once a control or revision it ends is unwrapped.
  const control = enclosingBlock(block.parent!);
  const forward = control && mayUnwrap(control) ? through(control, 'unwrap', directionsFrom(blockAfterOrEnd(control), 1)).forward : [];
  return { forward, backward: [[]] };
}

/**
 * Each way a join may go, as the ways it can get there: each a list of the controls and
 * revisions around paragraphs that must be unwrapped or removed first (none: it goes so now).
 * No way: it never goes so.
 */
export interface Directions {
  forward: Step[][];
  backward: Step[][];
}

/** A control or revision around paragraphs a join's way needs unwrapped (its content stays) or removed (with its content). */
export interface Step {
  block: XmlElement;
  how: 'unwrap' | 'remove';
}

const NEITHER: Directions = { forward: [], backward: [] };
const either = (a: Directions, b: Directions): Directions => ({ forward: [...a.forward, ...b.forward], backward: [...a.backward, ...b.backward] });
/** The ways of `d`, reached once `block` is unwrapped or removed (`how`). */
const through = (block: XmlElement, how: Step['how'], d: Directions): Directions => ({
  forward: d.forward.map((way) => [{ block, how }, ...way]),
  backward: d.backward.map((way) => [{ block, how }, ...way]),
});

/**
 * Which ways a paragraph whose mark went may join when `next` is the block after it, whatever
 * is decided later: a paragraph takes it forward; a table that stays, or the story's end, sends it
 * backward, and one that may lose every row may also hand it on to what follows; a control that
 * may be unwrapped hands it to its first block, and one that stays stops it (it does not join); a
 * revision around paragraphs hands it to its first paragraph (accepted) or to what follows it
 * (rejected: its paragraphs join on).
 */
function directionsFrom(next: XmlElement | null, depth: number): Directions {
  if (depth > 16) return { forward: [[]], backward: [[]] };
  if (next === null) return { forward: [], backward: [[]] };
  switch (next.name) {
    case 'w:p':
      return { forward: [[]], backward: [] };
    case 'w:sectPr':
      return { forward: [], backward: [[]] };
    case 'w:tbl':
      return tableMayGo(next) ? either({ forward: [], backward: [[]] }, directionsFrom(blockAfterOrEnd(next), depth + 1)) : { forward: [], backward: [[]] };
    case 'w:sdt':
    case 'w:customXml': {
      if (!controlMayChange(next)) return NEITHER;
      const inner = next.name === 'w:sdt' ? next.first('w:sdtContent') : next;
      const unwrapped = inner ? directionsFrom(firstBlockIn(inner) ?? blockAfterOrEnd(next), depth + 1) : NEITHER;
      const removed = controlMayGo(next) ? directionsFrom(blockAfterOrEnd(next), depth + 1) : NEITHER;
      return either(through(next, 'unwrap', unwrapped), through(next, 'remove', removed));
    }
    default:
      if (!MARK_REVISIONS.has(next.name)) return NEITHER;
      // Removed, its paragraphs stay, emptied, their marks gone (apply.ts, removeParagraphs): the
      // join goes forward into the first, whatever follows them; only tables in it, they go whole.
      return either(
        through(next, 'unwrap', directionsFrom(firstBlockIn(next) ?? blockAfterOrEnd(next), depth + 1)),
        through(next, 'remove', next.elements().some((c) => c.name === 'w:p') ? { forward: [[]], backward: [] } : directionsFrom(blockAfterOrEnd(next), depth + 1)),
      );
  }
}

/** The block after `block` in its container, as blockAfter; at the container's end, what follows a control it ends (unwrapped), else null. */
function blockAfterOrEnd(block: XmlElement): XmlElement | null {
  const after = blockAfter(block);
  if (after) return after;
  const control = enclosingBlock(block.parent!);
  return control && control.parent ? blockAfterOrEnd(control) : null;
}

/** The first block of a container (range markers passed over). */
function firstBlockIn(container: XmlElement): XmlElement | null {
  return container.children.find(isBlock) ?? null;
}

/**
 * The paragraphs a paragraph (or a revision around paragraphs) that joins backward may join,
 * whatever is decided later (containment.ts: whose properties its mark may take): the paragraph
 * before it; across a content control that may be unwrapped or removed, or a revision around
 * paragraphs that goes one way or the other, that block's last paragraph and what stands before
 * it; across a table that may lose every row, what stands before it; at the start of such a
 * control or revision, what stands before it. A paragraph before it whose own mark is tracked
 * joins on with it when that mark goes too, so the one before that is reached `through` it.
 */
export function paragraphsMaybeBefore(block: XmlElement): ParagraphBefore[] {
  const out: ParagraphBefore[] = [];
  const path: JoinWay = { through: [], across: [] };
  let at = block;
  for (let depth = 0; depth < 32; depth++) {
    const container = at.parent;
    if (!container) return out;
    const kids = container.children;
    if (!scanBackward(kids, kids.indexOf(at) - 1, path, out)) return out;
    const holder = enclosingBlock(container);
    if (!holder || !mayUnwrap(holder)) return out;
    // Ending the block it leaves: unwrapped, what follows the block decides, and a paragraph there takes the join forward.
    if (blockAfter(at) === null && directionsFrom(blockAfterOrEnd(holder), 1).backward.length === 0) return out;
    path.across.push({ block: holder, how: 'unwrap' });
    at = holder;
  }
  return out;
}

/**
 * How a backward join reaches a paragraph: `through` the paragraphs between whose marks go too,
 * and `across` the controls and revisions around paragraphs that must be unwrapped or removed first.
 */
export interface JoinWay {
  through: XmlElement[];
  across: Step[];
}

export interface ParagraphBefore extends JoinWay {
  p: XmlElement;
}

/**
 * Collects paragraphs from kids[from] backward (see paragraphsMaybeBefore), adding to the way the
 * paragraphs with a tracked mark and the blocks that must settle it passes; true when the
 * container's start was reached with nothing settled in the way.
 */
function scanBackward(kids: readonly XmlNode[], from: number, path: JoinWay, out: ParagraphBefore[]): boolean {
  for (let i = from; i >= 0; i--) {
    const k = kids[i]!;
    if (!isBlock(k)) continue;
    if (k.name === 'w:p') {
      out.push({ p: k, through: [...path.through], across: [...path.across] });
      if (!markTracked(k)) return false;
      path.through.push(k);
      continue;
    }
    if (mayUnwrap(k)) {
      // Unwrapped, its last paragraph comes before; removed, what stands before it.
      const inner = k.name === 'w:sdt' ? k.first('w:sdtContent') : k;
      if (inner) scanBackward(inner.children, inner.children.length - 1, { through: [...path.through], across: [...path.across, { block: k, how: 'unwrap' }] }, out);
      path.across.push({ block: k, how: 'remove' });
      continue;
    }
    if (k.name === 'w:tbl' && tableMayGo(k)) continue;
    return false;
  }
  return true;
}

/** Whether a paragraph's mark carries a tracked insertion, deletion or move (a decision may take it away). */
function markTracked(p: XmlElement): boolean {
  return p.first('w:pPr')?.first('w:rPr')?.elements().some((c) => MARK_REVISIONS.has(c.name)) ?? false;
}

/** A control or revision around blocks that a later decision may unwrap or remove. */
function mayUnwrap(el: XmlElement): boolean {
  if (MARK_REVISIONS.has(el.name)) return true;
  return (el.name === 'w:sdt' || el.name === 'w:customXml') && controlMayChange(el);
}

/**
 * A paragraph first in its container, or that may become first (only blocks a later decision may
 * remove stand before it), with a block after it, or one standing alone between blocks that are
 * not paragraphs (standsAlone), whose content is empty or may all go: joining backward with
 * nothing before it, it disappears, its properties with it (joinBackward).
 */
export function mayVanish(p: XmlElement): boolean {
  if (p.name !== 'w:p' || p.first('w:pPr')?.first('w:sectPr')) return false;
  const empty = mayEmpty(p) || emptied(p);
  if (empty && standsAlone(p, true)) return true;
  if (!mayBecomeFirst(p)) return false;
  // Last in its story or cell, it keeps its mark (joinBackward): only a block after it lets it go.
  const next = blockAfter(p);
  if (!next || next.name === 'w:sectPr') return false;
  return empty;
}

/** Whether only range markers, and blocks a later decision may remove, stand before `p` in its container. */
function mayBecomeFirst(p: XmlElement): boolean {
  const kids = p.parent!.children;
  for (let i = kids.indexOf(p) - 1; i >= 0; i--) {
    const k = kids[i]!;
    if (isBlock(k) && !mayUnwrap(k) && !(k.name === 'w:tbl' && tableMayGo(k))) return false;
  }
  return true;
}

/** Content left, all of it tracked insertions or deletions whose decisions may yet remove it. */
function mayEmpty(p: XmlElement): boolean {
  const content = p.elements().filter((c) => c.name !== 'w:pPr' && !BETWEEN.has(c.name));
  return content.length > 0 && content.every((c) => MARK_REVISIONS.has(c.name));
}

/** Every row of the table still carries a tracked insertion or deletion (of itself or of all its cells). */
function tableMayGo(tbl: XmlElement): boolean {
  const rows = within(tbl, 'w:tr');
  return rows.length > 0 && rows.every((tr) => {
    const trPr = tr.first('w:trPr');
    if (trPr?.first('w:ins') || trPr?.first('w:del')) return true;
    const cells = within(tr, 'w:tc');
    return cells.length > 0 && cells.every((tc) => {
      const tcPr = tc.first('w:tcPr');
      return !!(tcPr?.first('w:cellIns') || tcPr?.first('w:cellDel'));
    });
  });
}

/** Rows of a table or cells of a row, also inside row- or cell-level controls and custom XML. */
function within(e: XmlElement, name: string): XmlElement[] {
  const inner = (c: XmlElement) => (c.name === 'w:sdt' ? (c.first('w:sdtContent') ?? c) : c);
  return e.elements().flatMap((c) => (c.name === name ? [c] : c.name === 'w:sdt' || c.name === 'w:customXml' ? within(inner(c), name) : []));
}

/** A proposed control (rejected, it goes) or one whose boundary was moved (its source goes): a decision may remove it whole. */
function controlMayGo(control: XmlElement): boolean {
  if (control.name === 'w:sdt' && proposedId(control) !== null) return true;
  return boundaryStarts(control).some((c) => c.name.includes('Move'));
}

/** A proposed control still open, or a control with a tracked boundary still open (its range start names it). */
function controlMayChange(control: XmlElement): boolean {
  if (control.name === 'w:sdt' && proposedId(control) !== null) return true;
  return boundaryStarts(control).length > 0;
}

/** The tracked boundary range starts that bound a control (inside it, or right before it). */
function boundaryStarts(control: XmlElement): XmlElement[] {
  const inner = control.name === 'w:sdt' ? control.first('w:sdtContent') : control;
  const candidates: XmlElement[] = [...(inner?.elements() ?? [])];
  const siblings = control.parent?.children ?? [];
  for (let i = siblings.indexOf(control) - 1; i >= 0; i--) {
    const k = siblings[i]!;
    if (k.kind !== 1) continue;
    if (!CONTROL_RANGE.test(k.name)) break;
    candidates.push(k);
  }
  return candidates.filter((c) => CONTROL_RANGE.test(c.name) && c.name.endsWith('Start') && boundedBy(c) === control);
}

/** Block-level markup that may stand between two paragraphs and travels into the joined one. */
const BETWEEN: ReadonlySet<string> = new Set([
  'w:bookmarkStart', 'w:bookmarkEnd', 'w:commentRangeStart', 'w:commentRangeEnd', 'w:moveFromRangeStart',
  'w:moveFromRangeEnd', 'w:moveToRangeStart', 'w:moveToRangeEnd', 'w:permStart', 'w:permEnd', 'w:proofErr',
]);

/**
 * Joins a paragraph whose mark went away with the next paragraph, which keeps its own properties.
 * A table that lost all its rows is passed over (it goes in the structural repair). Without a next
 * paragraph (before a table, or last in its story or cell) see joinBackward.
 */
function joinWithNext(p: XmlElement | null): void {
  const container = p?.parent;
  if (!p || !container) return;
  const kids = container.children;
  const between: XmlNode[] = [];
  let next: XmlElement | null = null;
  let stop: XmlElement | null = null;
  for (let i = kids.indexOf(p) + 1; i < kids.length; i++) {
    const k = kids[i]!;
    if (k.kind !== 1) continue;
    if (k.name === 'w:p') {
      next = k;
      break;
    }
    if (isRowlessTable(k)) continue;
    if (!BETWEEN.has(k.name)) {
      stop = k;
      break;
    }
    between.push(k);
  }
  if (!next) {
    joinBackward(p, stop);
    return;
  }
  const moved = [...p.children.filter((c) => !(c.kind === 1 && c.name === 'w:pPr')), ...between];
  const nextPPr = next.first('w:pPr');
  const at = nextPPr ? next.children.indexOf(nextPPr) + 1 : 0;
  const merged = [...next.children.slice(0, at), ...moved, ...next.children.slice(at)];
  next.setChildren(merged);
  remove(p);
}

/** A table whose rows were all removed: the structural repair removes it after the batch. */
function isRowlessTable(el: XmlElement): boolean {
  return el.name === 'w:tbl' && !el.elements().some((c) => c.name === 'w:tr' || c.name === 'w:sdt' || c.name === 'w:customXml');
}

/**
 * A paragraph whose mark went away with nothing to join forward (issue 17.1): directly before a
 * table, or last in its story. Word keeps a mark there (a story ends with one), so it is the mark
 * before that goes: the previous paragraph's content joins this one at its start, and this one
 * keeps its properties. An emptied paragraph so disappears into its predecessor, as Word's
 * results show. The previous paragraph's own tracked mark, if any, moves here with its content
 * (it is still to be decided, and deciding it joins onward the same way), so the document does
 * not depend on the order in which marks and content are decided.
 *
 * First in its story or cell, an empty paragraph directly before a table disappears (RP049's
 * baseline; range markers stay at block level, where they are allowed); any other stays: after a
 * table (two tables with nothing between would merge into one), or ending its story. A paragraph
 * carrying section properties stays (its w:sectPr ends a section).
 */
function joinBackward(p: XmlElement, stop: XmlElement | null): void {
  const pPr = p.first('w:pPr');
  if (pPr?.first('w:sectPr')) return;
  const content = p.children.filter((c) => !(c.kind === 1 && c.name === 'w:pPr'));
  // Alone between blocks that are not paragraphs (issue 34 item 3), an emptied paragraph goes
  // whole, as Word takes away a paragraph whose mark and content are all rejected.
  const alone = emptied(p) ? standsAlone(p) : null;
  if (alone) {
    // Its range markers stay at block level; at its container's end they go before the block
    // there, so that the container still ends with that block (a cell ends with a paragraph or a control).
    const markers = content.filter((c): c is XmlElement => c.kind === 1);
    if (alone.after || !alone.before) replaceWith(p, markers);
    else {
      remove(p);
      for (const m of markers) alone.before.parent!.insertBefore(m, alone.before);
    }
    return;
  }
  const atEnd = stop === null || (stop.name === 'w:sectPr' && p.parent?.name === 'w:body');
  if (!atEnd && stop?.name !== 'w:tbl') return;
  const previous = paragraphBefore(p);
  if (previous?.name === 'w:p') {
    const previousPPr = previous.first('w:pPr');
    if (previousPPr?.first('w:sectPr')) return;
    const marks = previousPPr?.first('w:rPr')?.elements().filter((c) => MARK_REVISIONS.has(c.name)) ?? [];
    if (marks.length) {
      const target = pPr ?? XmlElement.create('w:pPr');
      if (!pPr) p.insertAt(0, target);
      let rPr = target.first('w:rPr');
      if (!rPr) {
        rPr = XmlElement.create('w:rPr');
        insertProperty(target, rPr);
      }
      for (const m of marks) insertProperty(rPr, m);
    }
    const joined = previous.children.filter((c) => !(c.kind === 1 && c.name === 'w:pPr'));
    // Range markers between the two travel into the joined paragraph at the seam, as joinWithNext
    // does: left at block level they would end up before what they closed (a move range end before
    // the moved text, which then no longer reads as a half of its move).
    const kids = p.parent!.children;
    const between = kids.slice(kids.indexOf(previous) + 1, kids.indexOf(p)).filter((c) => c.kind === 1 && BETWEEN.has(c.name));
    // A moved mark that comes along is read as a half of the move whose range (of its side) is
    // open at the paragraph's end, else of the last one opened in it (sites.ts): left at the seam,
    // its range would close before a range of another move in this paragraph and the mark would
    // change move. Its ranges close after the joined paragraph instead, as they closed after its own.
    const closing = new Set(marks.filter((m) => m.name === 'w:moveFrom' || m.name === 'w:moveTo').map((m) => `${m.name}RangeEnd`));
    const carried = [...joined, ...between].filter((c): c is XmlElement => c.kind === 1 && closing.has(c.name));
    remove(previous);
    const at = p.first('w:pPr') ? 1 : 0;
    p.setChildren([...p.children.slice(0, at), ...joined, ...between, ...content].filter((c) => !carried.includes(c as XmlElement)));
    let after: XmlElement = p;
    for (const end of carried) {
      p.parent!.insertAfter(end, after);
      after = end;
    }
  }
}

/** The blocks beside which a paragraph can stand alone (standsAlone). */
const BLOCKS_NOT_PARAGRAPHS: ReadonlySet<string> = new Set(['w:tbl', 'w:sdt', 'w:customXml']);

/**
 * Whether a paragraph whose mark goes stands alone, so that, emptied, it goes whole (joinBackward),
 * and the blocks either side of it (null: its container's start or end):
 * no paragraph before it in its container (its start, a table or a content control there) and none
 * after it (its end, a table or a control), and taking it away leaves its container as valid as
 * before: not empty, no two tables side by side, not ending with a table (a cell and the body end
 * with a paragraph), tables inside controls at their edge counted. First in its container before a
 * table (RP049's baseline) it is so; alone between a control and a table, between two controls,
 * or after a control ending its container, a mark can join neither into the control nor across
 * it, and no paragraph is beside it to take the join instead. A paragraph carrying section
 * properties never goes. With `once`, whether it may come to stand alone: before a control,
 * paragraphs before it whose tracked marks may still go, their content empty or all tracked, are
 * passed over (joining it, emptied, they leave it alone), so that a paragraph whose mark went
 * first waits for them.
 */
function standsAlone(p: XmlElement, once = false): { before: XmlElement | null; after: XmlElement | null } | null {
  if (p.first('w:pPr')?.first('w:sectPr')) return null;
  const container = p.parent!;
  const kids = container.children;
  let after: XmlElement | null = null;
  for (let i = kids.indexOf(p) + 1; i < kids.length && !after; i++) {
    const k = kids[i]!;
    if (k.kind === 1 && !BETWEEN.has(k.name) && !isRowlessTable(k)) after = k;
  }
  if (after?.name === 'w:sectPr' && container.name === 'w:body') after = null;
  // `once` before a control: alone once the paragraphs before it whose marks may still go join
  // it, emptied (before a table or at its end it joins them backward instead, their marks with it).
  const passing = once && (after?.name === 'w:sdt' || after?.name === 'w:customXml');
  let before: XmlElement | null = null;
  for (let i = kids.indexOf(p) - 1; i >= 0 && !before; i--) {
    const k = kids[i]!;
    if (k.kind !== 1 || BETWEEN.has(k.name) || k.name.endsWith('Pr') || isRowlessTable(k)) continue;
    if (passing && k.name === 'w:p' && markTracked(k) && (mayEmpty(k) || emptied(k))) continue;
    before = k;
  }
  if ((before && !BLOCKS_NOT_PARAGRAPHS.has(before.name)) || (after && !BLOCKS_NOT_PARAGRAPHS.has(after.name))) return null;
  if (!before) return after ? { before, after } : null;
  return edgeTable(before, 'last') && (after === null || edgeTable(after, 'first')) ? null : { before, after };
}

/** Whether nothing is left in a paragraph but its properties and range markers. */
function emptied(p: XmlElement): boolean {
  return p.elements().every((c) => c.name === 'w:pPr' || BETWEEN.has(c.name));
}

/** Whether a block is a table, or a control or custom XML whose first (or last) block is one, through nested ones. */
export function edgeTable(block: XmlElement, edge: 'first' | 'last'): boolean {
  if (block.name === 'w:tbl') return true;
  if (block.name !== 'w:sdt' && block.name !== 'w:customXml') return false;
  const inner = block.name === 'w:sdt' ? block.first('w:sdtContent') : block;
  const blocks = inner?.children.filter(isBlock) ?? [];
  const at = edge === 'first' ? blocks[0] : blocks[blocks.length - 1];
  return !!at && edgeTable(at, edge);
}

const MARK_REVISIONS: ReadonlySet<string> = new Set(['w:ins', 'w:del', 'w:moveFrom', 'w:moveTo']);

/** The paragraph-like block (w:p, or a block control or custom XML holding one) directly before `p`, if any. */
function paragraphBefore(p: XmlElement): XmlElement | null {
  const kids = p.parent!.children;
  for (let i = kids.indexOf(p) - 1; i >= 0; i--) {
    const k = kids[i]!;
    if (k.kind !== 1 || BETWEEN.has(k.name)) continue;
    return k.name === 'w:p' || k.name === 'w:sdt' || k.name === 'w:customXml' ? k : null;
  }
  return null;
}

