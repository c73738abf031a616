import { isWithin, type XmlElement } from '../xml/tree';
import type { Change } from './changes';
import type { ListingMemo } from './listing-memo';
import { clip, previewOf, visibleText, whitespaceWords } from './preview';
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

/**
 * A point of a document-order walk: entering an element (before its content) or leaving it
 * (after its content). A change starts at a point and ends at one.
 */
interface Point {
  el: XmlElement;
  at: 'enter' | 'exit';
}

/**
 * Whether untracked content stands between `from` (where the group so far ends) and `to` (where
 * the next change starts): a walk in document order from one to the other, stopping at the first
 * untracked text, object or paragraph end. Tracked runs, rows and cells the walk passes are
 * skipped whole (all their content is tracked), so between two changes it stops within a few
 * elements, and its cost does not grow with the document (no walk of the whole part).
 */
function untrackedBetween(from: Point, to: Point, siblings: SiblingIndex): boolean {
  if (from.at === 'exit' && isWithin(to.el, from.el) && to.el !== from.el) return false; // the next change lies inside the last one (a row's content)
  let node = from.el;
  let at: 'enter' | 'exit' = from.at;
  let first = true;
  for (;;) {
    if (node === to.el && at === to.at) return false;
    if (at === 'enter') {
      if (isContent(node) && !trackedWithin(node)) return true;
      const skip = SKIPPED.has(node.name) || (tracksContent(node) && !isWithin(to.el, node));
      const child = skip ? null : firstElement(node);
      if (child) node = child;
      else at = 'exit';
      continue;
    }
    if (!first && node.name === 'w:p' && !markTracked(node) && !trackedWithin(node)) return true;
    first = false;
    const next = siblings.next(node);
    if (next) {
      node = next;
      at = 'enter';
    } else if (node.parent) node = node.parent;
    else return true;
  }
}

/** Next element siblings, with an index for the long child lists (a body's thousands of paragraphs). */
class SiblingIndex {
  private readonly indexes = new Map<XmlElement, Map<XmlElement, number>>();

  next(el: XmlElement): XmlElement | null {
    const parent = el.parent;
    if (!parent) return null;
    const kids = parent.children;
    let i: number;
    if (kids.length > 32) {
      let index = this.indexes.get(parent);
      if (!index) {
        index = new Map();
        kids.forEach((k, j) => {
          if (k.kind === 1) index!.set(k, j);
        });
        this.indexes.set(parent, index);
      }
      i = index.get(el) ?? -1;
    } else i = kids.indexOf(el);
    for (let j = i + 1; j < kids.length; j++) {
      const k = kids[j]!;
      if (k.kind === 1) return k;
    }
    return null;
  }
}

function firstElement(el: XmlElement): XmlElement | null {
  for (const c of el.children) if (c.kind === 1) return c;
  return null;
}

function isContent(el: XmlElement): boolean {
  if (!CONTENT.has(el.name)) return false;
  return el.name !== 'w:t' || el.children.some((c) => c.kind === 2 && c.text.length > 0);
}

/** Whether the element or one around it holds only tracked content. */
function trackedWithin(el: XmlElement): boolean {
  for (let e: XmlElement | null = el; e; e = e.parent) if (tracksContent(e)) return true;
  return false;
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

/** Where a site starts and ends: a mark at its paragraph's end; paragraph formatting right after the paragraph's properties. */
function pointsOf(site: Site): { start: Point; end: Point } {
  const place = placeOf(site);
  if (isMark(site)) return { start: { el: place, at: 'exit' }, end: { el: place, at: 'exit' } };
  if (FORMAT_TYPES.has(site.type) && place.name === 'w:p') {
    const pPr = place.first('w:pPr') ?? place;
    return { start: { el: pPr, at: 'exit' }, end: { el: pPr, at: 'exit' } };
  }
  return { start: { el: place, at: 'enter' }, end: { el: place, at: 'exit' } };
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

/** The group a walk over the changes is adding to: where it ends so far, and what a change must share to join it. */
interface OpenGroup {
  members: Change[];
  end: Point;
  part: string;
  author: string | null;
  date: string | null;
}

/**
 * Which changes make each edit group, in document order; every change is in exactly one (a change
 * that joins nothing is a group of its own). Without the summaries: for readers that only need to
 * know which changes are decided together (the checks name a change with the rest of its edit).
 */
export function groupMembers(changes: readonly Change[]): Change[][] {
  const siblings = new SiblingIndex();
  const groups: Change[][] = [];
  let open: OpenGroup | null = null;
  for (const c of changes) {
    const lead = c.sites[0]!;
    const canGroup = groupable(c);
    const author: string | null = authorOf(c);
    const date: string | null = dateOf(c);
    const join = open !== null && canGroup && lead.part === open.part && author === open.author && date === open.date
      && formatInsideInsertion(c, open.author, open.date) && !untrackedBetween(open.end, pointsOf(lead).start, siblings);
    if (join) {
      open!.members.push(c);
      open!.end = pointsOf(c.sites[c.sites.length - 1]!).end;
      continue;
    }
    const members = [c];
    groups.push(members);
    const next: OpenGroup = { members, end: pointsOf(c.sites[c.sites.length - 1]!).end, part: lead.part, author, date };
    open = canGroup && formatInsideInsertion(c, author, date) ? next : null;
  }
  return groups;
}

/**
 * The edit groups of a document's changes, in document order, each with its summary (see
 * groupMembers). With `memo`, summaries of groups whose markup has not changed since an earlier
 * listing are taken over from it.
 */
export function editGroups(changes: readonly Change[], memo?: ListingMemo): EditGroup[] {
  // Most groups are one change: its own sites and count, without a list made for each.
  const summary = (members: Change[]) => (memo
    ? memo.read(
      members.length === 1 ? members[0]!.sites : members.flatMap((m) => m.sites),
      members.length === 1 ? String(members[0]!.sites.length) : members.map((m) => m.sites.length).join(' '),
      () => summaryOf(members))
    : summaryOf(members));
  return groupMembers(changes).map((members) => ({ id: members[0]!.changeId, members: members.map((m) => m.changeId), summary: summary(members) }));
}

/**
 * The words of a group, as the lawyer sees the edit: what it replaced with what, or what it
 * inserted or deleted; rows by count; paragraph marks by what they do to the paragraphs
 * ("Split 'Order of injection: …' into 3 paragraphs", "Joined 7 paragraphs", "Removed 4 empty
 * paragraphs"); whitespace by what it is ("Inserted a tab", "Inserted 3 spaces"). Counts come from
 * the members' own sites: an inserted mark splits one paragraph more, a deleted mark joins its
 * paragraph to the next one (or removes it, when it holds nothing).
 */
function summaryOf(members: readonly Change[]): string {
  if (members.length === 1 && !isTextEdit(members[0]!) && !members[0]!.sites.some(isMark)) return ownWords(members[0]!);
  let older = '';
  let newer = '';
  const rows = { ins: 0, del: 0 };
  const rowText: string[] = [];
  const marks = { ins: 0, joins: 0, empty: 0 };
  let split: XmlElement | null = null;
  const spaces = { ins: [] as XmlElement[], del: [] as XmlElement[] };
  for (const m of members) {
    for (const s of m.sites) {
      if (s.type === 'row-ins' || s.type === 'row-del') {
        rows[s.type === 'row-ins' ? 'ins' : 'del']++;
        rowText.push(visibleText(s.el.parent!.parent!)); // the row's cells, a space between paragraphs
      }
      else if (s.type === 'run-ins' || s.type === 'field-code-ins') {
        newer += visibleText(s.el);
        spaces.ins.push(s.el);
      } else if (s.type === 'run-del' || s.type === 'field-code-del') {
        older += visibleText(s.el);
        spaces.del.push(s.el);
      } else if (isMark(s)) {
        const paragraph = placeOf(s);
        if (s.type === 'mark-ins') {
          marks.ins++;
          split ??= paragraph;
          newer += ' ';
        } else {
          marks[holdsNothing(paragraph) ? 'empty' : 'joins']++;
          older += ' ';
        }
      }
    }
  }
  const [o, n] = [quote(older), quote(newer)];
  if (rows.ins || rows.del) {
    const noun = (count: number) => (count === 1 ? 'row' : `${count} rows`);
    const parts = [rows.del ? `Deleted ${noun(rows.del)}` : '', rows.ins ? `Inserted ${noun(rows.ins)}` : ''].filter(Boolean).join(', ');
    const text = quote(rowText.join(' '));
    return text ? `${parts}: ${text}` : parts;
  }
  if (o && n) return `Replaced ${o} with ${n}`;
  if (n) return `Inserted ${n}`;
  if (o) return `Deleted ${o}`;
  const parts = [
    marks.ins ? `split ${quote(visibleText(split!)) || 'a paragraph'} into ${marks.ins + 1} paragraphs` : '',
    marks.joins ? `joined ${marks.joins + 1} paragraphs` : '',
    marks.empty ? `removed ${marks.empty === 1 ? 'an empty paragraph' : `${marks.empty} empty paragraphs`}` : '',
    whitespaceWords(spaces.ins) ? `inserted ${whitespaceWords(spaces.ins)}` : '',
    whitespaceWords(spaces.del) ? `deleted ${whitespaceWords(spaces.del)}` : '',
  ].filter(Boolean);
  if (!parts.length) return ownWords(members[0]!);
  const words = parts.join(', ');
  return words[0]!.toUpperCase() + words.slice(1);
}

/** Whether a paragraph holds no visible content (text, tab, object, ...): its deleted mark removes it, joining nothing. */
function holdsNothing(paragraph: XmlElement): boolean {
  const seek = (e: XmlElement): boolean => {
    if (SKIPPED.has(e.name)) return false;
    if (isContent(e)) return true;
    return e.children.some((c) => c.kind === 1 && seek(c));
  };
  return !seek(paragraph);
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
