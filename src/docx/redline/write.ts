import { EditAnchorError, EditNotFoundError, type AnchorCandidate } from '../errors';
import type { BlockRef } from '../reading/blocks';
import { markProperties } from '../ooxml/paragraphs';
import { insertProperty } from '../ooxml/schema-order';
import { PROPOSED_TAG, type PartScan } from '../revisions/sites';
import { XmlElement, XmlText, markDirty, walk, type XmlNode } from '../xml/tree';
import { NO_BOUNDARY, StoryIndex, unsearched, type Match, type PartStory, type Story } from './story-index';

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
  /**
   * In-paragraph edits replace, insert (before or after `find`) or delete `find`. Paragraph edits
   * name a block: insert_paragraph adds a new paragraph after it with its style and numbering (a
   * new clause), delete_paragraph deletes its text and its mark, replace_paragraph its text.
   */
  op: 'replace' | 'insert' | 'delete' | 'insert_paragraph' | 'delete_paragraph' | 'replace_paragraph';
  /** What to edit: required for in-paragraph edits; searched in the block when `blockId` is given. */
  find?: string;
  /** 1-based; default 1 (with `blockId`: required when `find` occurs more than once in the block). */
  occurrence?: number;
  /** The paragraph the edit applies to (a block id of the reading model); required for paragraph edits. */
  blockId?: string;
  /** The block's version as read: an edit on a block that changed since is refused (stale). */
  blockVersion?: string;
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

/** Where `find` occurs for the `occurrence`-th time in the searched stories of `scans` (comments pass the body alone). */
export function locate(scans: readonly Pick<PartScan, 'role' | 'doc'>[], find: string, occurrence: number): Match | null {
  return new StoryIndex(scans).locate(find, occurrence)?.match ?? null;
}

export function writeRedlinesIn(
  scans: readonly PartScan[], edits: readonly RedlineEdit[], opts: RedlineOptions, blocks: () => Map<string, BlockRef> = () => new Map(),
  // The stories are read once for the batch and kept current as its edits land (story-index.ts).
  stories: StoryIndex = new StoryIndex(scans),
): RedlineResult {
  // Every anchor is resolved before anything changes: a bad one throws with the document as it was.
  let index: Map<string, BlockRef> | null = null;
  const targets = edits.map((e, i): XmlElement | null => {
    if (e.blockId === undefined) {
      const occurrence = e.occurrence ?? 1;
      if (e.find === undefined || !stories.locate(e.find, occurrence)) throw new EditNotFoundError(i, e.find ?? '', occurrence);
      return null;
    }
    index ??= blocks();
    return resolveBlock(stories, index, e, i);
  });
  let nextId = 0;
  for (const s of scans) for (const site of s.sites) if (site.id !== null && /^\d+$/.test(site.id)) nextId = Math.max(nextId, Number(site.id) + 1);
  const newId = () => String(nextId++);
  const changes: RedlineResult['changes'] = [];
  edits.forEach((edit, editIndex) => {
    const target = targets[editIndex] ?? null;
    if (edit.op === 'insert_paragraph') {
      const { ids, fresh } = insertParagraphAfter(target!, edit.text ?? '', opts, newId);
      stories.place(target!)?.story?.inserted(target!, fresh);
      changes.push({ editIndex, changeIds: ids.map((id) => `c${id}`) });
      return;
    }
    const found = target ? blockMatch(stories, target, edit, editIndex) : stories.locate(edit.find!, edit.occurrence ?? 1);
    if (!found) throw new EditNotFoundError(editIndex, edit.find ?? '', edit.occurrence ?? 1);
    const { match, story } = found;
    const op = edit.op === 'replace_paragraph' ? 'replace' : edit.op === 'delete_paragraph' ? 'delete' : edit.op;
    const runs = isolate(match);
    const ids: string[] = [];
    const joined = joinedParagraphs(match);
    // Where inserted text goes: after the last matched run, or (a find of paragraph boundaries
    // only, an empty paragraph) at the end of the paragraph where the match starts.
    let anchor: XmlElement | null = runs[runs.length - 1] ?? lastChild(startParagraph(match));
    const host = startParagraph(match);
    if (op === 'replace' || op === 'delete') {
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
    const before = op === 'insert' && edit.position === 'before';
    if (before && runs[0]) anchor = runs[0];
    if ((op === 'replace' || op === 'insert') && edit.text) {
      while (anchor?.parent && ['w:ins', 'w:del', 'w:moveTo', 'w:moveFrom'].includes(anchor.parent.name)) anchor = anchor.parent;
      const run = textRun((before ? runs[0] : runs[runs.length - 1]) ?? lastRun(host), edit.text);
      const insId = newId();
      const ins = XmlElement.create('w:ins', { 'w:id': insId, 'w:author': opts.author, 'w:date': opts.date }, [run]);
      if (opts.proposed) {
        const sdtId = newId();
        place(proposedControl(sdtId, ins), anchor, host, before);
        ids.push(sdtId);
      } else {
        place(ins, anchor, host, before);
        ids.push(insId);
      }
    }
    // Only the paragraphs of the match changed (runs split, text deleted, text inserted after its runs).
    story.refresh(match.story.paragraphs);
    changes.push({ editIndex, changeIds: ids.map((id) => `c${id}`) });
  });
  return { changes };
}

function proposedControl(sdtId: string, ins: XmlElement): XmlElement {
  return XmlElement.create('w:sdt', {}, [
    XmlElement.create('w:sdtPr', {}, [
      XmlElement.create('w:alias', { 'w:val': 'Proposed change' }),
      XmlElement.create('w:tag', { 'w:val': `${PROPOSED_TAG}${sdtId}` }),
      XmlElement.create('w:id', { 'w:val': String(1_000_000 + Number(sdtId)) }),
    ]),
    XmlElement.create('w:sdtContent', {}, [ins]),
  ]);
}

/** The paragraph an anchored edit names, checked: known, in a story edits act on, current, and (with a find) matched exactly once. */
function resolveBlock(stories: StoryIndex, index: Map<string, BlockRef>, edit: RedlineEdit, editIndex: number): XmlElement {
  const id = edit.blockId!;
  const ref = index.get(id);
  if (!ref) throw new EditAnchorError('block_not_found', editIndex, id, `Edit ${editIndex + 1}: the draft has no paragraph with block id ${id}; read the document again for current ids (a paragraph without a w14:paraId is known by its text, so once edited it has a new id).`);
  const placed = stories.place(ref.el);
  if (placed && !placed.story) {
    // A comment is its author's words, shown under their name: an edit there would put words in their mouth.
    throw new EditAnchorError('block_in_comment', editIndex, id,
      `Edit ${editIndex + 1}: block ${id} is a paragraph of a comment; edits act on the body, headers, footers and notes only (reply to the comment instead).`, [], ref.text);
  }
  if (edit.blockVersion !== undefined && edit.blockVersion !== ref.version) {
    throw new EditAnchorError('stale_anchor', editIndex, id,
      `Edit ${editIndex + 1}: block ${id} changed since version ${edit.blockVersion} was read (it is now ${ref.version}); read it again and anchor the edit on what it says now.`, [], ref.text);
  }
  if (edit.op === 'replace' || edit.op === 'insert' || edit.op === 'delete') {
    const story = placed?.story && placed.at >= 0 ? placed.story.whole() : null;
    const matches = story ? matchesIn(story, placed!.at, edit.find ?? '', false) : [];
    const shown = quote(edit.find ?? '');
    if (matches.length === 0) {
      const near = story ? matchesIn(story, placed!.at, edit.find ?? '', true) : [];
      throw new EditAnchorError('anchor_not_found', editIndex, id,
        `Edit ${editIndex + 1}: ${shown} is not in block ${id}${near.length ? ` (it holds ${near.length} match${near.length > 1 ? 'es' : ''} in other case)` : ''}. Deleted text cannot be edited.`,
        near.map((m, i) => candidate(m, i + 1)), ref.text);
    }
    if (edit.occurrence === undefined ? matches.length > 1 : edit.occurrence > matches.length) {
      throw new EditAnchorError(edit.occurrence === undefined ? 'ambiguous_anchor' : 'anchor_not_found', editIndex, id,
        edit.occurrence === undefined
          ? `Edit ${editIndex + 1}: ${shown} occurs ${matches.length} times in block ${id}; say which with occurrence.`
          : `Edit ${editIndex + 1}: block ${id} holds ${shown} ${matches.length} time${matches.length > 1 ? 's' : ''}, not ${edit.occurrence}.`,
        matches.map((m, i) => candidate(m, i + 1)), ref.text);
    }
  }
  return ref.el;
}

/** The match an anchored edit makes in its paragraph now (earlier edits of the batch may have changed it), in the window of the paragraphs it covers. */
function blockMatch(stories: StoryIndex, p: XmlElement, edit: RedlineEdit, editIndex: number): { match: Match; story: PartStory } | null {
  const placed = stories.place(p);
  if (!placed?.story || placed.at < 0) return null;
  const { story, at } = placed;
  if (edit.op === 'delete_paragraph') {
    // The paragraph and one mark: its own, or, for the last of its container, the one before it.
    if (story.boundary(at + 1) === '\n') {
      const window = story.window(at, at + 1);
      return { story, match: { story: window, from: 0, to: window.offsets[1]! } };
    }
    if (story.boundary(at) === '\n') {
      const window = story.window(at - 1, at);
      return { story, match: { story: window, from: window.offsets[1]! - 1, to: window.text.length } };
    }
  }
  const window = story.window(at, at);
  if (edit.op === 'replace_paragraph' || edit.op === 'delete_paragraph') return { story, match: { story: window, from: 0, to: window.text.length } };
  const m = matchesIn(window, 0, edit.find ?? '', false)[(edit.occurrence ?? 1) - 1];
  if (!m) throw new EditNotFoundError(editIndex, edit.find ?? '', edit.occurrence ?? 1);
  return { story, match: m };
}

/** Every match of `find` inside paragraph `at` of `story` (optionally ignoring case), in order. */
function matchesIn(story: Story, at: number, find: string, ignoreCase: boolean): Match[] {
  if (!find) return [];
  const from = story.offsets[at]!;
  const text = story.paragraphs[at]!.text;
  const hay = ignoreCase ? text.toLowerCase() : text;
  const needle = ignoreCase ? find.toLowerCase() : find;
  const out: Match[] = [];
  for (let i = hay.indexOf(needle); i >= 0 && needle; i = hay.indexOf(needle, i + needle.length)) {
    out.push({ story, from: from + i, to: from + i + find.length });
  }
  return out;
}

function candidate(m: Match, occurrence: number): AnchorCandidate {
  const lo = Math.max(0, m.from - 30);
  const hi = Math.min(m.story.text.length, m.to + 30);
  const paragraphStart = m.story.offsets[m.story.offsets.findLastIndex((o) => o <= m.from)] ?? 0;
  return {
    occurrence,
    start: m.from - paragraphStart,
    end: m.to - paragraphStart,
    context: m.story.text.slice(lo, hi).replaceAll('\n', ' ').replaceAll(NO_BOUNDARY, ' '),
  };
}

function quote(s: string): string {
  return `"${s.length > 60 ? `${s.slice(0, 57)}...` : s}"`;
}

/**
 * A new paragraph after `p`, tracked as Word tracks one typed at the end of `p`: `p`'s own mark
 * becomes the inserted one and the new paragraph carries `p`'s original mark (its style,
 * numbering, mark formatting and any section break), so rejecting joins `p` with an empty
 * paragraph of its own properties (giving `p` back) and accepting keeps both. When `p`'s mark
 * already carries a revision, the new paragraph's own mark is the inserted one instead.
 */
function insertParagraphAfter(p: XmlElement, text: string, opts: RedlineOptions, newId: () => string): { ids: string[]; fresh: XmlElement } {
  const pPr = p.first('w:pPr');
  const copy = pPr ? pPr.cloneDeep() : XmlElement.create('w:pPr');
  for (const k of copy.elements()) if (k.name === 'w:pPrChange') remove(copy, k);
  const markRevisions = ['w:ins', 'w:del', 'w:moveFrom', 'w:moveTo', 'w:rPrChange'];
  const copiedMark = copy.first('w:rPr');
  if (copiedMark) for (const k of copiedMark.elements()) if (markRevisions.includes(k.name)) remove(copiedMark, k);
  const ownMark = pPr?.first('w:rPr');
  const markTaken = !!ownMark?.elements().some((k) => ['w:ins', 'w:del', 'w:moveFrom', 'w:moveTo'].includes(k.name));
  const fresh = XmlElement.create('w:p', {}, [copy]);
  const markId = newId();
  const mark = XmlElement.create('w:ins', { 'w:id': markId, 'w:author': opts.author, 'w:date': opts.date });
  if (markTaken) {
    insertProperty(markProperties(fresh), mark);
    const sect = copy.first('w:sectPr');
    if (sect) remove(copy, sect);
  } else {
    insertProperty(markProperties(p), mark);
    const sect = pPr?.first('w:sectPr');
    if (sect && pPr) remove(pPr, sect);
  }
  const ids = [markId];
  if (text) {
    const insId = newId();
    fresh.append(XmlElement.create('w:ins', { 'w:id': insId, 'w:author': opts.author, 'w:date': opts.date }, [textRun(lastRun(p), text)]));
    ids.push(insId);
  }
  p.parent!.insertAfter(fresh, p);
  return { ids, fresh };
}

function remove(parent: XmlElement, child: XmlElement): void {
  parent.setChildren(parent.children.filter((k) => k !== child));
}

/** The last run with text of a paragraph: the formatting new text takes. */
function lastRun(p: XmlElement): XmlElement | null {
  let last: XmlElement | null = null;
  walk(p, (el) => {
    if (el !== p && (el.name === 'w:p' || unsearched(el))) return false;
    if (el.name === 'w:r' && el.first('w:t')) last = el;
    return el.name !== 'w:r';
  });
  return last;
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
