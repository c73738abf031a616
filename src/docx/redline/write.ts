import { EditNotFoundError } from '../errors';
import { markProperties } from '../ooxml/paragraphs';
import { insertProperty } from '../ooxml/schema-order';
import { PROPOSED_TAG, type PartScan } from '../revisions/sites';
import { XmlElement, XmlText, markDirty, walk, type XmlNode } from '../xml/tree';

/**
 * Redline edits: tracked changes written on behalf of a person or an agent. A `find` is exact
 * text, chosen by 1-based occurrence in document order, in any story: the body (tables included),
 * then headers, footers, footnotes and endnotes, in the package's listing order. It may run across
 * several runs (each piece keeps its run's formatting) and across paragraphs: "\n" in `find`
 * stands for the boundary between two consecutive paragraphs of one container (a body, a cell, a
 * note), whose mark a deletion then deletes too, so accepting it joins them. Text already deleted
 * (w:del, w:moveFrom) is not searchable; text inside insertions is.
 *
 * All finds are resolved before anything changes, so an edit that matches nothing throws
 * EditNotFoundError and leaves the document as it was. Edits are then applied in order, each
 * seeing the text the previous ones left. With `proposed`, inserted text is wrapped in a content
 * control tagged `redline:proposed:<id>` (accepting keeps the text, rejecting removes it).
 */
export interface RedlineEdit {
  op: 'replace' | 'insert' | 'delete';
  find: string;
  /** 1-based; default 1. */
  occurrence?: number;
  text?: string;
  /** op "insert" only: before or after `find` (default after). */
  position?: 'before' | 'after';
  justification?: string;
}

export interface RedlineOptions {
  author: string;
  date: string;
  proposed?: boolean;
}

export interface RedlineResult {
  changes: { editIndex: number; changeIds: string[] }[];
}

interface Segment {
  t: XmlElement;
  start: number;
  text: string;
}

interface Paragraph {
  el: XmlElement;
  text: string;
  segments: Segment[];
}

const DELETED = new Set(['w:del', 'w:moveFrom', 'mc:Fallback', 'w:pPr', 'w:rPr']);

function paragraphs(root: XmlElement): Paragraph[] {
  const out: Paragraph[] = [];
  walk(root, (el) => {
    if (DELETED.has(el.name)) return false;
    if (el.name !== 'w:p') return true;
    const segments: Segment[] = [];
    let text = '';
    const collect = (e: XmlElement): void => {
      for (const c of e.children) {
        if (c.kind !== 1 || DELETED.has(c.name) || c.name === 'w:p') continue;
        if (c.name === 'w:t' && c.parent?.name === 'w:r') {
          const s = c.children.map((k) => (k.kind === 2 ? k.text : '')).join('');
          segments.push({ t: c, start: text.length, text: s });
          text += s;
        } else collect(c);
      }
    };
    collect(el);
    out.push({ el, text, segments });
    return true; // nested paragraphs (text boxes) are searched on their own
  });
  return out;
}

/** A story part's searchable text: its paragraphs, each at an offset, joined by their boundaries. */
interface Story {
  paragraphs: Paragraph[];
  offsets: number[];
  text: string;
}

/** Stands between paragraphs that do not follow each other in one container: no find matches it. */
const NO_BOUNDARY = '\u0000';

function storyOf(root: XmlElement): Story {
  const ps = paragraphs(root);
  const offsets: number[] = [];
  let text = '';
  ps.forEach((p, i) => {
    if (i > 0) text += consecutive(ps[i - 1]!.el, p.el) ? '\n' : NO_BOUNDARY;
    offsets.push(text.length);
    text += p.text;
  });
  return { paragraphs: ps, offsets, text };
}

/** Whether `b` is the next paragraph after `a` in the same container (only range markers between). */
function consecutive(a: XmlElement, b: XmlElement): boolean {
  const kids = a.parent?.children;
  if (!kids || b.parent !== a.parent) return false;
  for (let i = kids.indexOf(a) + 1; i < kids.length; i++) {
    const k = kids[i]!;
    if (k === b) return true;
    if (k.kind === 1 && !k.name.endsWith('Start') && !k.name.endsWith('End') && k.name !== 'w:proofErr') return false;
  }
  return false;
}

/** A match: from one offset to another in one story, over one or more paragraphs. */
export interface Match {
  story: Story;
  from: number;
  to: number;
}

/** The story parts a find searches, in listing order (not comments, styles or numbering). */
const SEARCHED_ROLES = new Set(['document', 'header', 'footer', 'footnotes', 'endnotes']);

/** Where `find` occurs for the `occurrence`-th time in the searched stories of `scans` (comments pass the body alone). */
export function locate(scans: readonly Pick<PartScan, 'role' | 'doc'>[], find: string, occurrence: number): Match | null {
  if (!find || find.includes(NO_BOUNDARY)) return null;
  let seen = 0;
  for (const scan of scans) {
    if (!SEARCHED_ROLES.has(scan.role)) continue;
    const story = storyOf(scan.doc.root);
    let at = story.text.indexOf(find);
    while (at >= 0) {
      if (++seen === occurrence) return { story, from: at, to: at + find.length };
      at = story.text.indexOf(find, at + find.length);
    }
  }
  return null;
}

export function writeRedlinesIn(scans: readonly PartScan[], edits: readonly RedlineEdit[], opts: RedlineOptions): RedlineResult {
  edits.forEach((e, i) => {
    const occurrence = e.occurrence ?? 1;
    if (!locate(scans, e.find, occurrence)) throw new EditNotFoundError(i, e.find, occurrence);
  });
  let nextId = 0;
  for (const s of scans) for (const site of s.sites) if (site.id !== null && /^\d+$/.test(site.id)) nextId = Math.max(nextId, Number(site.id) + 1);
  const newId = () => String(nextId++);
  const changes: RedlineResult['changes'] = [];
  edits.forEach((edit, editIndex) => {
    const occurrence = edit.occurrence ?? 1;
    const match = locate(scans, edit.find, occurrence);
    if (!match) throw new EditNotFoundError(editIndex, edit.find, occurrence);
    const runs = isolate(match);
    const ids: string[] = [];
    const joined = joinedParagraphs(match);
    // Where inserted text goes: after the last matched run, or (a find of paragraph boundaries
    // only) at the end of the paragraph where the match starts.
    let anchor: XmlElement | null = runs[runs.length - 1] ?? lastChild(startParagraph(match));
    const host = startParagraph(match);
    if (edit.op === 'replace' || edit.op === 'delete') {
      for (const p of joined) {
        const id = newId();
        deleteMark(p, id, opts);
        ids.push(id);
      }
      for (const group of siblingGroups(runs)) {
        const id = newId();
        const del = XmlElement.create('w:del', { 'w:id': id, 'w:author': opts.author, 'w:date': opts.date });
        group[0]!.parent!.insertBefore(del, group[0]!);
        for (const r of group) {
          for (const t of r.all('w:t')) rename(t, 'w:delText');
          del.append(r);
        }
        ids.push(id);
        anchor = del;
      }
    }
    const before = edit.op === 'insert' && edit.position === 'before';
    if (before && runs[0]) anchor = runs[0];
    if ((edit.op === 'replace' || edit.op === 'insert') && edit.text) {
      while (anchor?.parent && ['w:ins', 'w:del', 'w:moveTo', 'w:moveFrom'].includes(anchor.parent.name)) anchor = anchor.parent;
      const run = textRun((before ? runs[0] : runs[runs.length - 1]) ?? null, edit.text);
      const insId = newId();
      const ins = XmlElement.create('w:ins', { 'w:id': insId, 'w:author': opts.author, 'w:date': opts.date }, [run]);
      if (opts.proposed) {
        const sdtId = newId();
        const sdt = XmlElement.create('w:sdt', {}, [
          XmlElement.create('w:sdtPr', {}, [
            XmlElement.create('w:alias', { 'w:val': 'Proposed change' }),
            XmlElement.create('w:tag', { 'w:val': `${PROPOSED_TAG}${sdtId}` }),
            XmlElement.create('w:id', { 'w:val': String(1_000_000 + Number(sdtId)) }),
          ]),
          XmlElement.create('w:sdtContent', {}, [ins]),
        ]);
        place(sdt, anchor, host, before);
        ids.push(sdtId);
      } else {
        place(ins, anchor, host, before);
        ids.push(insId);
      }
    }
    changes.push({ editIndex, changeIds: ids.map((id) => `c${id}`) });
  });
  return { changes };
}

/** Splits runs so that exactly the matched text stands in runs of its own; returns them in order. */
export function isolate(match: Match): XmlElement[] {
  const out: XmlElement[] = [];
  match.story.paragraphs.forEach((p, i) => {
    const offset = match.story.offsets[i]!;
    for (const seg of p.segments) {
      const s = Math.max(match.from, offset + seg.start) - offset - seg.start;
      const e = Math.min(match.to, offset + seg.start + seg.text.length) - offset - seg.start;
      if (e <= s) continue;
      out.push(isolateInRun(seg.t, seg.text, s, e));
    }
  });
  return out;
}

/** The paragraphs whose mark the match covers: the boundary after them lies inside it. */
function joinedParagraphs(match: Match): XmlElement[] {
  const { paragraphs: ps, offsets } = match.story;
  const out: XmlElement[] = [];
  ps.forEach((p, i) => {
    const boundary = offsets[i]! + p.text.length;
    if (i + 1 < ps.length && boundary >= match.from && boundary < match.to) out.push(p.el);
  });
  return out;
}

/** The paragraph in which the match starts. */
function startParagraph(match: Match): XmlElement {
  const { paragraphs: ps, offsets } = match.story;
  let i = 0;
  while (i + 1 < offsets.length && offsets[i + 1]! <= match.from) i++;
  return ps[i]!.el;
}

/** A paragraph's last child element (its content's end, or its properties), if any. */
function lastChild(p: XmlElement): XmlElement | null {
  const kids = p.elements();
  return kids[kids.length - 1] ?? null;
}

/** Puts `node` after `anchor`, or first in the paragraph `host` when there is no anchor. */
function placeAfter(node: XmlElement, anchor: XmlElement | null, host: XmlElement): void {
  if (anchor?.parent) anchor.parent.insertAfter(node, anchor);
  else host.insertAt(0, node);
}

/** Places an insertion after its anchor, or before it for an insert-before edit. */
function place(node: XmlElement, anchor: XmlElement | null, host: XmlElement, before: boolean): void {
  if (before && anchor?.parent) anchor.parent.insertBefore(node, anchor);
  else placeAfter(node, anchor, host);
}

/** Marks a paragraph's mark as deleted under tracking (w:pPr/w:rPr/w:del), so accepting joins it with the next. */
function deleteMark(p: XmlElement, id: string, opts: RedlineOptions): void {
  insertProperty(markProperties(p), XmlElement.create('w:del', { 'w:id': id, 'w:author': opts.author, 'w:date': opts.date }));
}

function isolateInRun(t: XmlElement, text: string, s: number, e: number): XmlElement {
  const run = t.parent!;
  const rPr = run.first('w:rPr');
  const kids = run.children.filter((c) => c !== rPr);
  const idx = kids.indexOf(t);
  const left = [...kids.slice(0, idx), ...(s > 0 ? [textElement(text.slice(0, s))] : [])];
  const right = [...(e < text.length ? [textElement(text.slice(e))] : []), ...kids.slice(idx + 1)];
  const withProps = (nodes: XmlNode[]): XmlElement => {
    const r = run.cloneShallow();
    if (rPr) r.append(rPr.cloneDeep());
    for (const n of nodes) r.append(n);
    return r;
  };
  if (left.some((n) => n.kind === 1)) run.parent!.insertBefore(withProps(left), run);
  if (right.some((n) => n.kind === 1)) run.parent!.insertAfter(withProps(right), run);
  run.setChildren([...(rPr ? [rPr] : []), textElement(text.slice(s, e))]);
  return run;
}

function textElement(text: string): XmlElement {
  return XmlElement.create('w:t', { 'xml:space': 'preserve' }, [new XmlText(text)]);
}

/** A run with the formatting of `like`; tabs and line breaks in `text` become w:tab and w:br. */
function textRun(like: XmlElement | null, text: string): XmlElement {
  const run = XmlElement.create('w:r');
  const rPr = like?.first('w:rPr');
  if (rPr) {
    const copy = rPr.cloneDeep();
    for (const c of copy.all('w:rPrChange')) copy.setChildren(copy.children.filter((k) => k !== c));
    run.append(copy);
  }
  text.split(/(\t|\n)/).forEach((piece) => {
    if (piece === '\t') run.append(XmlElement.create('w:tab'));
    else if (piece === '\n') run.append(XmlElement.create('w:br'));
    else if (piece) run.append(textElement(piece));
  });
  return run;
}

function siblingGroups(runs: XmlElement[]): XmlElement[][] {
  const groups: XmlElement[][] = [];
  for (const r of runs) {
    const last = groups[groups.length - 1];
    const prev = last?.[last.length - 1];
    if (prev && prev.parent === r.parent && prev.parent!.children.indexOf(prev) + 1 === r.parent!.children.indexOf(r)) last!.push(r);
    else groups.push([r]);
  }
  return groups;
}

function rename(el: XmlElement, name: string): void {
  el.name = name;
  el.dirty = false;
  markDirty(el);
}
