import type { XmlElement } from '../xml/tree';
import type { Change } from './changes';
import { clip, previewOf, visibleText } from './preview';
import { MOVE_TYPES, type Site, type SiteType } from './sites';

/**
 * Edit groups: what Word shows as one edit, made of several changes (issue 24 item 3, issue 26
 * item 3). The interface keeps one revision per change id; a group only says which revisions a
 * reviewer sees, and decides, as one entry.
 *
 * A group is a run of changes consecutive in document order, in one part, by the same author at
 * the same date, with no untracked content between them (text, a tab, an image, or an untracked
 * paragraph mark), each of them a text or structure change: an inserted or deleted run, field code
 * or control boundary, a paragraph mark, an inserted or deleted row or cell. So:
 * - a deletion right beside an insertion is one "Replaced 'x' with 'y'" entry;
 * - an inserted or deleted paragraph's text and its paragraph mark are one entry;
 * - a bare paragraph-mark change beside a change of the same author and time joins it;
 * - an inserted or deleted row, its paragraphs' text and marks are one entry (the row's content is
 *   inside the row, so nothing untracked stands between them).
 * A formatting change joins only when it lies inside content inserted by the same edit (the
 * properties of an inserted paragraph or run are part of inserting it). Moves, proposals and
 * changes in the styles or numbering parts stay alone: each is already one entry of its own.
 *
 * The group's id is its first member's change_id: stable while that change is open.
 */
export interface EditGroup {
  /** The first member's change id. */
  id: string;
  /** Members' change ids in document order. */
  members: string[];
  /** How the entry reads: "Replaced 'x' with 'y'", "Inserted 'x'", "Deleted row: 'x'", or a lone change's own words. */
  summary: string;
}

/** Site types that are edits of text or structure, which group with their neighbours. */
const EDIT_TYPES: ReadonlySet<SiteType> = new Set<SiteType>([
  'run-ins', 'run-del', 'mark-ins', 'mark-del', 'row-ins', 'row-del', 'cell-ins', 'cell-del',
  'field-code-ins', 'field-code-del', 'control-ins', 'control-del',
]);
/** Formatting that may belong to inserted content. */
const FORMAT_TYPES: ReadonlySet<SiteType> = new Set<SiteType>(['rpr-change', 'ppr-change', 'num-ins']);

const INSERTING: ReadonlySet<SiteType> = new Set<SiteType>(['run-ins', 'mark-ins', 'row-ins', 'cell-ins', 'field-code-ins', 'control-ins']);

/** Where a change sits in its part: the span of its elements, in preorder positions. */
interface Span {
  start: number;
  end: number;
}

/**
 * One walk of a part: the position of every element that holds a site, and the positions of the
 * untracked content a group may not reach across.
 */
class PartPositions {
  private readonly spans = new Map<XmlElement, Span>();
  /** Sorted positions of untracked content (text, tab, object, untracked paragraph end). */
  private readonly barriers: number[] = [];

  constructor(root: XmlElement, wanted: ReadonlySet<XmlElement>) {
    let n = 0;
    const go = (el: XmlElement, tracked: boolean): void => {
      const start = n++;
      const name = el.name;
      if (SKIPPED.has(name)) {
        if (wanted.has(el)) this.spans.set(el, { start, end: start });
        return;
      }
      if (!tracked && CONTENT.has(name) && (name !== 'w:t' || el.children.some((c) => c.kind === 2 && c.text.length > 0))) {
        this.barriers.push(start);
      }
      const inside = tracked || tracksContent(el);
      for (const c of el.children) if (c.kind === 1) go(c, inside);
      const end = n++;
      if (name === 'w:p' && !inside && !markTracked(el)) this.barriers.push(end);
      if (wanted.has(el)) this.spans.set(el, { start, end });
    };
    go(root, false);
  }

  spanOf(el: XmlElement): Span | undefined {
    return this.spans.get(el);
  }

  /** Whether untracked content lies strictly between two positions. */
  barrierBetween(from: number, to: number): boolean {
    if (to <= from) return false;
    // First barrier > from.
    let lo = 0;
    let hi = this.barriers.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.barriers[mid]! <= from) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.barriers.length && this.barriers[lo]! < to;
  }
}

/** Elements whose content is properties or hidden copies, not visible content. */
const SKIPPED: ReadonlySet<string> = new Set(['w:pPr', 'w:rPr', 'w:trPr', 'w:tcPr', 'w:tblPr', 'w:sectPr', 'mc:Fallback', 'w:instrText', 'w:delInstrText']);
/** Visible content: untracked, it separates edits. */
const CONTENT: ReadonlySet<string> = new Set([
  'w:t', 'm:t', 'w:tab', 'w:br', 'w:cr', 'w:drawing', 'w:pict', 'w:object', 'w:sym', 'w:noBreakHyphen', 'w:softHyphen',
  'w:footnoteReference', 'w:endnoteReference',
]);
const REVISION_CONTAINERS: ReadonlySet<string> = new Set(['w:ins', 'w:del', 'w:moveFrom', 'w:moveTo']);

/** Whether everything inside `el` is tracked content: a tracked run container, an inserted/deleted row or cell, a proposal. */
function tracksContent(el: XmlElement): boolean {
  if (REVISION_CONTAINERS.has(el.name)) return true;
  if (el.name === 'w:tr') return !!el.first('w:trPr')?.elements().some((c) => c.name === 'w:ins' || c.name === 'w:del');
  if (el.name === 'w:tc') return !!el.first('w:tcPr')?.elements().some((c) => c.name === 'w:cellIns' || c.name === 'w:cellDel');
  if (el.name === 'w:sdt') return (el.first('w:sdtPr')?.first('w:tag')?.attr('w:val') ?? '').startsWith('redline:proposed:');
  return false;
}

function markTracked(p: XmlElement): boolean {
  const rPr = p.first('w:pPr')?.first('w:rPr');
  return !!rPr && rPr.elements().some((c) => REVISION_CONTAINERS.has(c.name));
}

/** The element whose span is a site's place: a mark's paragraph (it ends there), a row's or cell's whole extent. */
function placeOf(site: Site): XmlElement {
  switch (site.type) {
    case 'mark-ins':
    case 'mark-del':
    case 'mark-move-from':
    case 'mark-move-to':
      return site.el.parent!.parent!.parent!; // w:p / w:pPr / w:rPr / mark
    case 'row-ins':
    case 'row-del':
      return site.el.parent!.parent!; // w:tr / w:trPr / mark
    case 'cell-ins':
    case 'cell-del':
      return site.el.parent!.parent!; // w:tc / w:tcPr / mark
    default: {
      // Formatting held in properties: the run or paragraph they belong to (the walk skips properties).
      let place = site.el;
      for (let e: XmlElement | null = site.el; e?.parent; e = e.parent) if (SKIPPED.has(e.name)) place = e.parent;
      return place;
    }
  }
}

/** Paragraph formatting stands at its paragraph's start, not over the whole paragraph. */
function pointAtStart(site: Site, place: XmlElement): boolean {
  return FORMAT_TYPES.has(site.type) && place.name === 'w:p';
}

function isMark(site: Site): boolean {
  return site.type === 'mark-ins' || site.type === 'mark-del';
}

function authorOf(c: Change): string | null {
  return c.sites[0]!.el.attr('w:author');
}
function dateOf(c: Change): string | null {
  return c.sites[0]!.el.attr('w:date');
}

/** Whether a change may join a neighbour at all. */
function groupable(c: Change): boolean {
  const lead = c.sites[0]!;
  if (lead.role === 'styles' || lead.role === 'numbering') return false;
  if (c.sites.some((s) => MOVE_TYPES.has(s.type) || s.type === 'proposed')) return false;
  return c.sites.every((s) => EDIT_TYPES.has(s.type) || FORMAT_TYPES.has(s.type));
}

/** A formatting change joins only content inserted by the same author at the same date around it. */
function formatInsideInsertion(c: Change, author: string | null, date: string | null): boolean {
  const lead = c.sites[0]!;
  if (!FORMAT_TYPES.has(lead.type)) return true;
  for (let p = lead.el.parent; p; p = p.parent) {
    if (p.name === 'w:ins' && p.parent?.name !== 'w:rPr' && p.attr('w:author') === author && p.attr('w:date') === date) return true;
    if (p.name === 'w:p') {
      const mark = p.first('w:pPr')?.first('w:rPr')?.first('w:ins');
      if (mark && mark.attr('w:author') === author && mark.attr('w:date') === date) return true;
    }
  }
  return false;
}

/**
 * The edit groups of a document's changes, in document order; every change is in exactly one
 * (a change that joins nothing is a group of its own).
 */
export function editGroups(changes: readonly Change[]): EditGroup[] {
  const positions = partPositions(changes);
  const groups: { members: Change[]; end: number }[] = [];
  let open: { members: Change[]; end: number; part: string; author: string | null; date: string | null } | null = null;
  for (const c of changes) {
    const lead = c.sites[0]!;
    const span = spanOfChange(c, positions.get(lead.part));
    if (open && groupable(c) && lead.part === open.part && authorOf(c) === open.author && dateOf(c) === open.date
      && span && !positions.get(lead.part)!.barrierBetween(open.end, span.start) && formatInsideInsertion(c, open.author, open.date)) {
      open.members.push(c);
      open.end = Math.max(open.end, span.end);
      continue;
    }
    const next = { members: [c], end: span?.end ?? 0, part: lead.part, author: authorOf(c), date: dateOf(c) };
    groups.push(next);
    open = groupable(c) && span && formatInsideInsertion(c, next.author, next.date) ? next : null;
  }
  return groups.map((g) => ({ id: g.members[0]!.changeId, members: g.members.map((m) => m.changeId), summary: summaryOf(g.members) }));
}

/** Preorder positions of each part holding groupable changes (one walk per part). */
function partPositions(changes: readonly Change[]): Map<string, PartPositions> {
  const wanted = new Map<string, { root: XmlElement; els: Set<XmlElement> }>();
  for (const c of changes) {
    if (!groupable(c)) continue;
    for (const s of c.sites) {
      const place = placeOf(s);
      let entry = wanted.get(s.part);
      if (!entry) {
        let root = place;
        while (root.parent) root = root.parent;
        entry = { root, els: new Set() };
        wanted.set(s.part, entry);
      }
      entry.els.add(place);
    }
  }
  return new Map([...wanted].map(([part, { root, els }]) => [part, new PartPositions(root, els)]));
}

function spanOfChange(c: Change, positions: PartPositions | undefined): Span | null {
  if (!positions || !groupable(c)) return null;
  let start = Infinity;
  let end = -Infinity;
  for (const s of c.sites) {
    const place = placeOf(s);
    const span = positions.spanOf(place);
    if (!span) return null;
    // A paragraph mark stands at its paragraph's end.
    const from = isMark(s) ? span.end : span.start;
    start = Math.min(start, from);
    end = Math.max(end, pointAtStart(s, place) ? span.start : span.end);
  }
  return { start, end };
}

/** The words of a group: what it replaced with what, or what it inserted or deleted. */
function summaryOf(members: readonly Change[]): string {
  if (members.length === 1 && !isTextEdit(members[0]!)) return ownWords(members[0]!);
  let older = '';
  let newer = '';
  const rows = { ins: 0, del: 0 };
  let marks = 0;
  for (const m of members) {
    for (const s of m.sites) {
      if (s.type === 'row-ins') rows.ins++;
      else if (s.type === 'row-del') rows.del++;
      else if (s.type === 'run-ins' || s.type === 'field-code-ins') newer += visibleText(s.el);
      else if (s.type === 'run-del' || s.type === 'field-code-del') older += visibleText(s.el);
      else if (isMark(s)) {
        marks++;
        if (s.type === 'mark-ins') newer += ' ';
        else older += ' ';
      }
    }
  }
  const [o, n] = [quote(older), quote(newer)];
  if (rows.ins || rows.del) {
    const noun = (count: number) => (count === 1 ? 'row' : `${count} rows`);
    const parts = [rows.del ? `Deleted ${noun(rows.del)}` : '', rows.ins ? `Inserted ${noun(rows.ins)}` : ''].filter(Boolean).join(', ');
    const text = rows.ins && !rows.del ? n : o || n;
    return text ? `${parts}: ${text}` : parts;
  }
  if (o && n) return `Replaced ${o} with ${n}`;
  if (n) return `Inserted ${n}`;
  if (o) return `Deleted ${o}`;
  if (members.length === 1) return ownWords(members[0]!);
  const inserting = members.some((m) => INSERTING.has(m.sites[0]!.type));
  return marks > 1 ? `${inserting ? 'Inserted' : 'Deleted'} ${marks} paragraph marks` : ownWords(members[0]!);
}

function isTextEdit(c: Change): boolean {
  return c.sites.some((s) => s.type === 'run-ins' || s.type === 'run-del' || s.type === 'row-ins' || s.type === 'row-del');
}

/** A lone change that edits no text reads as its preview does. */
function ownWords(c: Change): string {
  return previewOf(c.sites);
}

function quote(text: string): string {
  const t = clip(text);
  return t ? `'${t.length > 60 ? `${t.slice(0, 59)}…` : t}'` : '';
}
