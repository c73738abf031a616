import type { RevisionKind } from '../../contract/revision';
import type { PartRole } from '../package/package';
import { changeClock, lastChanged, type XmlDocument, type XmlElement } from '../xml/tree';

/**
 * Finding tracked-change markup. A "site" is one revision element in one part (a w:ins, a
 * w:rPrChange, a row's w:trPr/w:del, a proposed content control...). The site type says what the
 * element means where it stands, which decides its kind, its preview and what accept/reject do.
 */
export type SiteType =
  | 'run-ins' | 'run-del' | 'move-from' | 'move-to'
  | 'mark-ins' | 'mark-del' | 'mark-move-from' | 'mark-move-to'
  | 'row-ins' | 'row-del' | 'cell-ins' | 'cell-del' | 'cell-merge'
  | 'rpr-change' | 'ppr-change' | 'tblpr-change' | 'tblgrid-change' | 'tblprex-change'
  | 'trpr-change' | 'tcpr-change' | 'sectpr-change' | 'numbering-change' | 'num-ins'
  | 'proposed'
  | 'control-ins' | 'control-del' | 'control-move-from' | 'control-move-to'
  | 'field-code-ins' | 'field-code-del';

export const KIND_OF: Record<SiteType, RevisionKind> = {
  'run-ins': 'insert', 'run-del': 'delete', 'move-from': 'delete', 'move-to': 'insert',
  'mark-ins': 'paragraph_mark', 'mark-del': 'paragraph_mark', 'mark-move-from': 'paragraph_mark', 'mark-move-to': 'paragraph_mark',
  'row-ins': 'tr-prop-change', 'row-del': 'tr-prop-change',
  'cell-ins': 'tc-prop-change', 'cell-del': 'tc-prop-change', 'cell-merge': 'tc-prop-change',
  'rpr-change': 'r-prop-change', 'ppr-change': 'p-prop-change', 'numbering-change': 'p-prop-change', 'num-ins': 'p-prop-change',
  'tblpr-change': 'tbl-prop-change', 'tblgrid-change': 'tbl-prop-change', 'tblprex-change': 'tbl-prop-change',
  'trpr-change': 'tr-prop-change', 'tcpr-change': 'tc-prop-change', 'sectpr-change': 'sect-prop-change',
  proposed: 'proposed',
  'control-ins': 'insert', 'control-del': 'delete', 'control-move-from': 'delete', 'control-move-to': 'insert',
  'field-code-ins': 'insert', 'field-code-del': 'delete',
};

export const MOVE_TYPES: ReadonlySet<SiteType> = new Set(['move-from', 'move-to', 'mark-move-from', 'mark-move-to']);

type MoveSide = 'from' | 'to';

/** Which half of a move a move site is. */
function moveSide(type: SiteType): MoveSide {
  return type === 'move-from' || type === 'mark-move-from' ? 'from' : 'to';
}

export const PROPOSED_TAG = 'redline:proposed:';

export interface Site {
  type: SiteType;
  el: XmlElement;
  part: string;
  role: PartRole;
  /** The revision id: w:id, or the number in a proposed control's tag. */
  id: string | null;
  /** Preorder position in the part: accept/reject run in reverse of it (inner before outer). */
  pre: number;
  /** Listing position in the part (a paragraph mark counts at the paragraph's end). */
  order: number;
  /** Name of the move range this move half lies in, if any. */
  moveName: string | null;
  /** The same revision in an mc:Fallback copy of this content; decided with this site. */
  shadows: Site[];
  /** For a tracked content-control boundary (control-*): its range's end marker and the control it bounds. */
  boundary?: ControlBoundary;
}

/**
 * A w:customXml{Ins,Del,MoveFrom,MoveTo}RangeStart records that the start or the end tag of the
 * content control (or custom XML element) right after it, or around it, was inserted, deleted or
 * moved (issue 17.2). Word writes one range over the control's start and one over its end.
 */
export interface ControlBoundary {
  end: XmlElement | null;
  target: XmlElement | null;
}

export const CONTROL_RANGE = /^w:customXml(Ins|Del|MoveFrom|MoveTo)Range(Start|End)$/;
const CONTROL_TYPE: Record<string, SiteType> = { Ins: 'control-ins', Del: 'control-del', MoveFrom: 'control-move-from', MoveTo: 'control-move-to' };

/** The content control or custom XML element a boundary range's start marker bounds, if any. */
export function boundedBy(start: XmlElement): XmlElement | null {
  const parent = start.parent;
  if (!parent) return null;
  const kids = parent.children;
  for (let i = kids.indexOf(start) + 1; i < kids.length; i++) {
    const k = kids[i]!;
    if (k.kind !== 1) continue;
    if (k.name === 'w:sdt' || k.name === 'w:customXml') return k;
    if (!CONTROL_RANGE.test(k.name)) break;
  }
  if (parent.name === 'w:sdtContent' && parent.parent?.name === 'w:sdt') return parent.parent;
  if (parent.name === 'w:customXml') return parent;
  return null;
}

/** Elements whose descendants describe old properties, not live content. */
const OLD_PROPERTY_HOLDERS = new Set([
  'w:rPrChange', 'w:pPrChange', 'w:tblPrChange', 'w:tblGridChange', 'w:tblPrExChange', 'w:trPrChange', 'w:tcPrChange',
  'w:sectPrChange', 'w:numberingChange',
]);

function classify(el: XmlElement): SiteType | null {
  const name = el.name;
  const parent = el.parent?.name;
  switch (name) {
    case 'w:ins':
    case 'w:del':
    case 'w:moveFrom':
    case 'w:moveTo': {
      if (parent === 'w:rPr' && el.parent?.parent?.name === 'w:pPr') {
        return name === 'w:ins' ? 'mark-ins' : name === 'w:del' ? 'mark-del' : name === 'w:moveFrom' ? 'mark-move-from' : 'mark-move-to';
      }
      if (parent === 'w:trPr') return name === 'w:ins' ? 'row-ins' : name === 'w:del' ? 'row-del' : null;
      if (parent === 'w:numPr') return name === 'w:ins' ? 'num-ins' : null;
      if (parent === 'w:rPr' || parent === 'w:tcPr' || parent === 'w:tblPr') return null;
      return name === 'w:ins' ? 'run-ins' : name === 'w:del' ? 'run-del' : name === 'w:moveFrom' ? 'move-from' : 'move-to';
    }
    case 'w:rPrChange': return 'rpr-change';
    case 'w:pPrChange': return 'ppr-change';
    case 'w:tblPrChange': return 'tblpr-change';
    case 'w:tblGridChange': return 'tblgrid-change';
    case 'w:tblPrExChange': return 'tblprex-change';
    case 'w:trPrChange': return 'trpr-change';
    case 'w:tcPrChange': return 'tcpr-change';
    case 'w:sectPrChange': return 'sectpr-change';
    case 'w:numberingChange': return 'numbering-change';
    case 'w:cellIns': return 'cell-ins';
    case 'w:cellDel': return 'cell-del';
    case 'w:cellMerge': return 'cell-merge';
    case 'w:sdt': return proposedId(el) === null ? null : 'proposed';
    default: return null;
  }
}

/** The id in a proposed control's tag (`redline:proposed:<id>`), or null for other controls. */
export function proposedId(sdt: XmlElement): string | null {
  const tag = sdt.first('w:sdtPr')?.first('w:tag')?.attr('w:val');
  return tag && tag.startsWith(PROPOSED_TAG) ? tag.slice(PROPOSED_TAG.length) : null;
}

/** The element holding a site's content: a proposed content control's `w:sdtContent`, else the site's element. */
export function siteContent(site: Site): XmlElement {
  return site.type === 'proposed' ? (site.el.first('w:sdtContent') ?? site.el) : site.el;
}

export interface PartScan {
  part: string;
  role: PartRole;
  doc: XmlDocument;
  sites: Site[];
  /**
   * Every range marker (bookmark, comment range, move range start or end) and comment reference in document order,
   * found on the same walk, so repairs after a decision need not walk the part again.
   */
  ranges: XmlElement[];
  /** What the scan found in each block it may reuse next time, and when it looked (see scanPart). */
  blocks: Map<XmlElement, BlockScan>;
  scannedAt: number;
}

/** The sites and range markers found in one block (a body paragraph or table), with where its numbering started. */
interface BlockScan {
  sites: Site[];
  ranges: XmlElement[];
  pre: number;
  order: number;
  preCount: number;
  orderCount: number;
  /**
   * For a block holding move markup, whose sites' move names depend on the move ranges open
   * before it: those ranges as the walk found them on entering the block (`moveStateKey`), and
   * as it left them, so a reuse under the same open ranges can leave them as the walk would.
   */
  moves?: { entry: string; exit: MoveState };
}

/** The move ranges open at a point of the walk, and the last range name of each direction. */
interface MoveState {
  open: [string, string][];
  last: Record<MoveSide, string | null>;
}

function moveStateKey(open: readonly [string, string][], last: Record<MoveSide, string | null>): string {
  return JSON.stringify([open, last.from, last.to]);
}

/** Most blocks hold neither; they all share this one, so a scan allocates nothing for them. */
const NOTHING_FOUND: BlockScan = Object.freeze({ sites: [], ranges: [], pre: 0, order: 0, preCount: 0, orderCount: 0 });

/** Range markers, and comment references (so a decision can tell which comments lost their mark). */
export const RANGE_MARKERS: ReadonlySet<string> = new Set([
  'w:bookmarkStart', 'w:bookmarkEnd', 'w:commentRangeStart', 'w:commentRangeEnd', 'w:commentReference',
  'w:moveFromRangeStart', 'w:moveFromRangeEnd', 'w:moveToRangeStart', 'w:moveToRangeEnd',
]);

/**
 * Names the scan must look at; every other element is only descended into. A set lookup per
 * element instead of classify's comparisons: the walk visits ~500,000 elements on a 300-page draft.
 */
const NOTABLE: ReadonlySet<string> = new Set([
  ...RANGE_MARKERS, 'mc:AlternateContent', 'w:p', 'w:ins', 'w:del', 'w:moveFrom', 'w:moveTo', 'w:sdt',
  'w:rPrChange', 'w:pPrChange', 'w:tblPrChange', 'w:tblGridChange', 'w:tblPrExChange', 'w:trPrChange', 'w:tcPrChange',
  'w:sectPrChange', 'w:numberingChange', 'w:cellIns', 'w:cellDel', 'w:cellMerge',
  ...['Ins', 'Del', 'MoveFrom', 'MoveTo'].flatMap((k) => [`w:customXml${k}RangeStart`, `w:customXml${k}RangeEnd`]),
]);

/**
 * Where in a part's source text a notable element other than a paragraph starts: the `<` of each
 * such start tag (or of text that looks like one, inside a comment: it only costs a look). The
 * parser takes an element's name from its tag as written, and a clean element's subtree is its
 * source slice, so a clean element whose slice holds no such offset holds nothing the scan finds
 * and is not walked. Most of a part's elements are runs and properties holding none.
 */
const NOTABLE_TAG = new RegExp(`<(?:${[...NOTABLE].filter((n) => n !== 'w:p').join('|')})[\\s/>]`, 'g');
const notableOffsets = new WeakMap<XmlDocument, Int32Array>();

function notableOffsetsOf(doc: XmlDocument): Int32Array {
  let offsets = notableOffsets.get(doc);
  if (!offsets) {
    const found: number[] = [];
    NOTABLE_TAG.lastIndex = 0;
    for (let m = NOTABLE_TAG.exec(doc.src); m; m = NOTABLE_TAG.exec(doc.src)) found.push(m.index);
    notableOffsets.set(doc, offsets = Int32Array.from(found));
  }
  return offsets;
}

/** Whether an offset of the sorted `offsets` lies in [start, end). */
function anyWithin(offsets: Int32Array, start: number, end: number): boolean {
  let lo = 0;
  let hi = offsets.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (offsets[mid]! < start) lo = mid + 1;
    else hi = mid;
  }
  return lo < offsets.length && offsets[lo]! < end;
}

/**
 * All revision sites of a part in document order. Revisions inside mc:Fallback are Word's
 * duplicate of the mc:Choice content; they are attached as shadows of their Choice twin.
 *
 * With the part's `previous` scan, a block (a grandchild of the root: a body's paragraph or
 * table, a note's paragraph) that has not changed since is not walked again: its sites are
 * taken over, renumbered where they stand (the previous scan is used up: its sites become this
 * one's). After a 50-change decision on a 300-page draft that is ~50 blocks walked instead of
 * 30,000. A block holding moves is taken over only when the move ranges open on entering it are
 * those it was last walked under (their names are its sites' move names); blocks holding
 * tracked control boundaries or mc:Fallback shadows are always walked.
 */
export function scanPart(part: string, role: PartRole, doc: XmlDocument, previous?: PartScan): PartScan {
  const scannedAt = changeClock();
  const sites: Site[] = [];
  const ranges: XmlElement[] = [];
  const blocks = new Map<XmlElement, BlockScan>();
  let pre = 0;
  let order = 0;
  /** Set when the walk met something whose meaning depends on other blocks (beyond the open move ranges). */
  let contextual = false;
  /** Set when the walk met move markup: what it found depends on the move ranges open before (and it may change them). */
  let moveDependent = false;
  // A half belongs to a range of its own direction: a w:moveTo (or moved mark) to a
  // w:moveToRange, a w:moveFrom to a w:moveFromRange. A join can bring a moved mark into a
  // paragraph holding the other direction's range of another move; read without direction, the
  // mark would change move (and be decided with it).
  const openMoves = new Map<string, string>(); // range element name:id -> move name
  const lastMoveName: Record<MoveSide, string | null> = { from: null, to: null };

  const make = (type: SiteType, el: XmlElement): Site => {
    const id = type === 'proposed' ? proposedId(el) : el.attr('w:id');
    return { type, el, part, role, id, pre: pre++, order: -1, moveName: null, shadows: [] };
  };
  /** The name of the innermost (last opened) move range of `side` still open. */
  const moveNameNow = (side: MoveSide): string | null => {
    let name: string | null = null;
    const prefix = side === 'from' ? 'w:moveFromRangeStart:' : 'w:moveToRangeStart:';
    for (const [key, n] of openMoves) if (key.startsWith(prefix)) name = n;
    return name;
  };

  const offsets = notableOffsetsOf(doc);
  const visit = (el: XmlElement, out: Site[]): void => {
    // A clean element of this part's text with nothing notable in its slice finds nothing.
    if (!el.dirty && el.start >= 0 && el.src === doc.src && !anyWithin(offsets, el.start, el.end)) return;
    const name = el.name;
    if (!NOTABLE.has(name)) {
      for (const c of el.children) if (c.kind === 1) visit(c, out);
      return;
    }
    if (name.startsWith('w:customXml')) {
      visitControlBoundary(el, out);
      return;
    }
    if (RANGE_MARKERS.has(name)) ranges.push(el);
    if (name.startsWith('w:move')) moveDependent = true;
    if (name === 'mc:AlternateContent') contextual = true;
    if (name === 'w:moveFromRangeStart' || name === 'w:moveToRangeStart') {
      const n = el.attr('w:name');
      const id = el.attr('w:id');
      if (n && id !== null) openMoves.set(`${name}:${id}`, n);
      lastMoveName[name === 'w:moveFromRangeStart' ? 'from' : 'to'] = n;
      return;
    }
    if (name === 'w:moveFromRangeEnd' || name === 'w:moveToRangeEnd') {
      openMoves.delete(`${name.replace('End', 'Start')}:${el.attr('w:id')}`);
      return;
    }
    if (name === 'mc:AlternateContent') {
      visitAlternate(el, out);
      return;
    }
    const type = classify(el);
    let deferred: Site | null = null;
    if (type) {
      const site = make(type, el);
      if (MOVE_TYPES.has(type)) site.moveName = moveNameNow(moveSide(type));
      if (type.startsWith('mark-')) deferred = site;
      else {
        site.order = order++;
        out.push(site);
      }
      if (OLD_PROPERTY_HOLDERS.has(name) || type === 'cell-merge' || type.startsWith('mark-') || type.startsWith('row-') || type === 'num-ins') {
        return;
      }
    }
    if (name === 'w:p') {
      // The paragraph mark ends the paragraph: list its revision after the paragraph's content.
      const marks: Site[] = [];
      for (const c of el.children) {
        if (c.kind !== 1) continue;
        if (c.name === 'w:pPr') visitMarkHolder(c, marks, out);
        else visit(c, out);
      }
      for (const m of marks) {
        if (MOVE_TYPES.has(m.type)) m.moveName = moveNameNow(moveSide(m.type)) ?? lastMoveName[moveSide(m.type)];
        m.order = order++;
        out.push(m);
      }
      return;
    }
    if (deferred) return;
    for (const c of el.children) if (c.kind === 1) visit(c, out);
  };

  /** Boundary ranges: a site at each start; ends are paired with their starts after the walk. */
  const controlEnds = new Map<string, XmlElement>();
  const controlSites: Site[] = [];
  const visitControlBoundary = (el: XmlElement, out: Site[]): void => {
    const m = CONTROL_RANGE.exec(el.name);
    if (!m) return;
    contextual = true; // a range's start and end lie in different blocks
    if (m[2] === 'End') {
      controlEnds.set(`${m[1]}:${el.attr('w:id')}`, el);
      return;
    }
    const site = make(CONTROL_TYPE[m[1]!]!, el);
    site.boundary = { end: null, target: boundedBy(el) };
    site.order = order++;
    out.push(site);
    controlSites.push(site);
  };

  /** A w:pPr: its w:rPr mark revisions wait for the paragraph's end; the rest is visited now. */
  const visitMarkHolder = (pPr: XmlElement, marks: Site[], out: Site[]): void => {
    for (const c of pPr.children) {
      if (c.kind !== 1) continue;
      if (c.name === 'w:rPr') {
        for (const m of c.children) {
          if (m.kind !== 1) continue;
          const t = classify(m);
          if (t && MOVE_TYPES.has(t)) moveDependent = true;
          if (t && t.startsWith('mark-')) marks.push(make(t, m));
          else visit(m, out);
        }
      } else visit(c, out);
    }
  };

  const visitAlternate = (ac: XmlElement, out: Site[]): void => {
    const choice = ac.first('mc:Choice');
    const fallbacks = ac.all('mc:Fallback');
    const before = out.length;
    if (choice) for (const c of choice.children) if (c.kind === 1) visit(c, out);
    const choiceSites = out.slice(before);
    for (const fb of fallbacks) {
      const shadowSites: Site[] = [];
      const savedOrder = order;
      for (const c of fb.children) if (c.kind === 1) visit(c, shadowSites);
      order = savedOrder;
      // Pair by position and type; unpaired shadows are decided with nothing (left as they are).
      shadowSites.forEach((s, i) => {
        const twin = choiceSites[i];
        if (twin && twin.type === s.type) twin.shadows.push(s);
      });
    }
  };

  const visitBlock = (el: XmlElement): void => {
    const before = previous?.blocks.get(el);
    if (before === NOTHING_FOUND && lastChanged(el) <= previous!.scannedAt) {
      blocks.set(el, NOTHING_FOUND);
      return;
    }
    if (before && lastChanged(el) <= previous!.scannedAt && (!before.moves || before.moves.entry === moveStateKey([...openMoves], lastMoveName))) {
      // The previous scan is done with: its sites are renumbered where they stand rather than copied.
      const [preShift, orderShift] = [pre - before.pre, order - before.order];
      for (const s of before.sites) {
        s.pre += preShift;
        s.order += orderShift;
        sites.push(s);
      }
      for (const r of before.ranges) ranges.push(r);
      before.pre = pre;
      before.order = order;
      pre += before.preCount;
      order += before.orderCount;
      if (before.moves) {
        openMoves.clear();
        for (const [key, n] of before.moves.exit.open) openMoves.set(key, n);
        lastMoveName.from = before.moves.exit.last.from;
        lastMoveName.to = before.moves.exit.last.to;
      }
      blocks.set(el, before);
      return;
    }
    const [sitesFrom, rangesFrom, preFrom, orderFrom] = [sites.length, ranges.length, pre, order];
    // The move ranges open on entering the block (copied only when some are: most blocks meet none).
    const entryOpen: [string, string][] = openMoves.size ? [...openMoves] : [];
    const [entryFrom, entryTo] = [lastMoveName.from, lastMoveName.to];
    contextual = false;
    moveDependent = false;
    visit(el, sites);
    if (contextual) return;
    if (pre === preFrom && ranges.length === rangesFrom) blocks.set(el, NOTHING_FOUND);
    else {
      blocks.set(el, {
        sites: sites.slice(sitesFrom), ranges: ranges.slice(rangesFrom), pre: preFrom, order: orderFrom,
        preCount: pre - preFrom, orderCount: order - orderFrom,
        ...(moveDependent ? { moves: { entry: moveStateKey(entryOpen, { from: entryFrom, to: entryTo }), exit: { open: [...openMoves], last: { ...lastMoveName } } } } : {}),
      });
    }
  };
  const visitAbove = (el: XmlElement, depth: number): void => {
    if (depth === 2) visitBlock(el);
    else if (NOTABLE.has(el.name)) visit(el, sites);
    else for (const c of el.children) if (c.kind === 1) visitAbove(c, depth + 1);
  };
  visitAbove(doc.root, 0);
  for (const site of controlSites) {
    const m = CONTROL_RANGE.exec(site.el.name)!;
    site.boundary!.end = controlEnds.get(`${m[1]}:${site.el.attr('w:id')}`) ?? null;
  }
  return { part, role, doc, sites, ranges, blocks, scannedAt };
}
