import { ConflictingChangeIdsError, UnknownChangeIdsError } from '../errors';
import { insertProperty, sortBySchema } from '../ooxml/schema-order';
import { XmlElement, isWithin, markDirty, remove, replaceWith, unwrap, walk } from '../xml/tree';
import type { Change } from './changes';
import { MOVE_TYPES, type PartScan, type Site } from './sites';
import { setId } from './ids';
import { joinParagraphs } from './joins';
import { repairStructure } from './structure';

/**
 * Accepting and rejecting changes with Word's semantics. All ids are checked before anything is
 * touched (a batch is atomic). Sites are then decided in reverse document order, so an inner
 * change is decided before the change around it and a paragraph joins a successor that is already
 * in its final shape. Work on a site whose element an earlier step removed is skipped: rejecting
 * an insertion also removes a deletion inside it, as in Word.
 */
export interface Decision {
  accept: readonly string[];
  reject: readonly string[];
}

export function checkDecision(changes: readonly Change[], decision: Decision): Map<string, 'accept' | 'reject'> {
  const known = new Set(changes.map((c) => c.changeId));
  const rejectSet = new Set(decision.reject);
  const both = [...new Set(decision.accept)].filter((id) => rejectSet.has(id));
  if (both.length) throw new ConflictingChangeIdsError(both);
  const unknown = [...new Set([...decision.accept, ...decision.reject])].filter((id) => !known.has(id));
  if (unknown.length) throw new UnknownChangeIdsError(unknown);
  const out = new Map<string, 'accept' | 'reject'>();
  for (const id of decision.accept) out.set(id, 'accept');
  for (const id of decision.reject) out.set(id, 'reject');
  return out;
}

export function applyToScans(scans: readonly PartScan[], changes: readonly Change[], decision: Decision): void {
  const verdicts = checkDecision(changes, decision);
  if (verdicts.size === 0) return;
  const work = new Map<PartScan, { site: Site; accept: boolean }[]>();
  const partOf = new Map<string, PartScan>(scans.map((s) => [s.part, s]));
  const decidedMoves = new Set<string>();
  for (const change of changes) {
    const verdict = verdicts.get(change.changeId);
    if (!verdict) continue;
    for (const site of change.sites) {
      if (MOVE_TYPES.has(site.type) && site.moveName) decidedMoves.add(site.moveName);
      for (const s of [site, ...site.shadows]) {
        const scan = partOf.get(s.part)!;
        const list = work.get(scan) ?? [];
        list.push({ site: s, accept: verdict === 'accept' });
        work.set(scan, list);
      }
    }
  }
  for (const [scan, list] of work) {
    list.sort((a, b) => b.site.pre - a.site.pre);
    const root = scan.doc.root;
    const joins: XmlElement[] = [];
    for (const { site, accept } of list) {
      if (!isWithin(site.el, root)) continue;
      decideSite(site, accept, joins);
    }
    if (decidedMoves.size) removeMoveRanges(root, scan.ranges, decidedMoves);
    repairStructure(root, scan.ranges);
    // Paragraphs join once the batch's rows, cells and content are gone, so a paragraph joins
    // the paragraph that follows it in the result, whatever the batch removed in between; one
    // whose neighbour a later decision may still change waits for it (joins.ts).
    if (joinParagraphs(root, joins, scan.ranges, scan.part)) repairStructure(root, scan.ranges);
  }
  keepMoveIds(changes, verdicts, partOf);
}

/**
 * A move is one change, whatever contains its halves. When a decision removes the half that
 * names an undecided move (it lay in a rejected row, or emptied by a decision inside it), the
 * first half still there takes over its id: the move stays listed as the same change, and
 * deciding it later decides what is left of it, as one batch would have.
 */
function keepMoveIds(changes: readonly Change[], verdicts: ReadonlyMap<string, unknown>, partOf: ReadonlyMap<string, PartScan>): void {
  for (const change of changes) {
    if (verdicts.has(change.changeId) || change.sites.length < 2 || !MOVE_TYPES.has(change.sites[0]!.type)) continue;
    const live = (site: Site) => isWithin(site.el, partOf.get(site.part)!.doc.root);
    const lead = change.sites[0]!;
    if (live(lead)) continue;
    const heir = change.sites.find(live);
    if (heir && lead.id !== null) setId(heir, lead.id);
  }
}

/** `joins` collects the paragraphs whose mark went (joined after the batch). */
export function decideSite(site: Site, accept: boolean, joins: XmlElement[]): void {
  const el = site.el;
  switch (site.type) {
    case 'run-ins':
    case 'move-to':
      if (accept) unwrap(el);
      else if (isBlockWrapper(el)) removeParagraphs(el, joins);
      else removeContent(el);
      return;
    case 'run-del':
    case 'move-from':
      if (!accept) restoreDeleted(el);
      else if (isBlockWrapper(el)) removeParagraphs(el, joins);
      else removeContent(el);
      return;
    case 'mark-ins':
    case 'mark-move-to':
    case 'mark-del':
    case 'mark-move-from': {
      const paragraph = paragraphOfMark(el);
      remove(el);
      const markGoes = accept === (site.type === 'mark-del' || site.type === 'mark-move-from');
      if (markGoes && paragraph) joins.push(paragraph);
      return;
    }
    case 'row-ins':
    case 'row-del': {
      const row = el.parent?.parent;
      if (accept === (site.type === 'row-ins')) remove(el);
      else if (row) remove(row);
      return;
    }
    case 'cell-ins':
    case 'cell-del': {
      const cell = el.parent?.parent;
      if (accept === (site.type === 'cell-ins')) remove(el);
      else if (cell) removeCell(cell);
      return;
    }
    case 'cell-merge':
      decideCellMerge(el, accept);
      return;
    case 'numbering-change':
      if (accept) remove(el);
      else restoreNumbering(el);
      return;
    case 'num-ins': {
      const numPr = el.parent;
      if (accept || !numPr) remove(el);
      else remove(numPr);
      return;
    }
    case 'proposed':
      if (accept) replaceWith(el, [...(el.first('w:sdtContent')?.children ?? [])]);
      else remove(el);
      return;
    case 'control-ins':
    case 'control-del':
    case 'control-move-from':
    case 'control-move-to':
      decideControlBoundary(site, accept);
      return;
    case 'field-code-ins':
    case 'field-code-del':
      // An untracked fragment of a field's code goes with the field it belongs to (fields.ts).
      if (accept === (site.type === 'field-code-del')) remove(el);
      return;
    default:
      // Every *PrChange and w:tblGridChange: accept drops the record, reject restores from it.
      if (accept) remove(el);
      else restoreProperties(el);
  }
}

// ---- content ------------------------------------------------------------------------------------

/** Removes revision content; a math run left without text goes too. */
function removeContent(el: XmlElement): void {
  const parent = el.parent;
  remove(el);
  if (parent?.name === 'm:r' && !parent.first('m:t') && !parent.elements().some((c) => c.name !== 'w:rPr')) remove(parent);
}

/**
 * A w:ins or w:del (or move half) around whole paragraphs, at block level: Word writes the same
 * as a revision of each paragraph's content and of its mark, and it is decided so. Kept, the
 * wrapper goes and the paragraphs stay; gone, each paragraph loses its content and its mark
 * (it joins its neighbour, joins.ts), and a table in it goes whole.
 */
function isBlockWrapper(el: XmlElement): boolean {
  return el.elements().some((c) => c.name === 'w:p' || c.name === 'w:tbl');
}

function removeParagraphs(el: XmlElement, joins: XmlElement[]): void {
  // Last to first, as every site is decided (`joins` is read in reverse).
  for (const c of el.elements().reverse()) {
    if (c.name !== 'w:p') {
      remove(c);
      continue;
    }
    for (const x of c.children.filter((n) => !(n.kind === 1 && n.name === 'w:pPr'))) remove(x);
    joins.push(c);
  }
  unwrap(el);
}

/** Rejecting a deletion: the text comes back (w:delText -> w:t, w:delInstrText -> w:instrText). */
function restoreDeleted(el: XmlElement): void {
  walk(el, (e) => {
    if (e !== el && (e.name === 'w:del' || e.name === 'w:moveFrom')) return false;
    if (e.name === 'w:delText') rename(e, 'w:t');
    else if (e.name === 'w:delInstrText') rename(e, 'w:instrText');
    return true;
  });
  unwrap(el);
}

function rename(el: XmlElement, name: string): void {
  el.name = name;
  el.dirty = false;
  markDirty(el);
}

function paragraphOfMark(marker: XmlElement): XmlElement | null {
  const p = marker.parent?.parent?.parent; // w:rPr -> w:pPr -> w:p
  return p?.name === 'w:p' ? p : null;
}

function removeCell(cell: XmlElement): void {
  const row = cell.parent;
  remove(cell);
  if (row && row.all('w:tc').length === 0) remove(row);
}

function decideCellMerge(el: XmlElement, accept: boolean): void {
  const tcPr = el.parent;
  remove(el);
  if (!tcPr) return;
  const state = accept ? el.attr('w:vMerge') : el.attr('w:vMergeOrig');
  const existing = tcPr.first('w:vMerge');
  if (existing) remove(existing);
  if (state === 'rest' || state === 'cont') {
    insertProperty(tcPr, XmlElement.create('w:vMerge', state === 'rest' ? { 'w:val': 'restart' } : {}));
  }
}

/**
 * A tracked boundary of a content control (issue 17.2), as Word decides it: an inserted control
 * stays on accept and loses its control (keeping the content) on reject; a deleted one the other
 * way round; a moved control disappears, content and all, at its source on accept and at its
 * destination on reject. The range markers always go. Both boundaries of one control are one
 * change, so the second finds the control already handled.
 */
function decideControlBoundary(site: Site, accept: boolean): void {
  const { end, target } = site.boundary ?? { end: null, target: null };
  remove(site.el);
  if (end) remove(end);
  if (!target?.parent) return;
  switch (site.type) {
    case 'control-ins':
    case 'control-del':
      if (accept === (site.type === 'control-del')) unwrapControl(target);
      return;
    case 'control-move-from':
    case 'control-move-to':
      if (accept === (site.type === 'control-move-from')) remove(target);
      return;
  }
}

/** A content control or custom XML element replaced by its content. */
function unwrapControl(target: XmlElement): void {
  if (target.name === 'w:sdt') replaceWith(target, [...(target.first('w:sdtContent')?.children ?? [])]);
  else replaceWith(target, target.children.filter((c) => !(c.kind === 1 && c.name === 'w:customXmlPr')));
}

// ---- properties ---------------------------------------------------------------------------------

/**
 * Rejecting a numbering change (w:numberingChange in a paragraph's w:numPr) brings back the
 * numbering the paragraph had, as far as the markup records it: the w:numPr of the old
 * properties when the paragraph's w:pPrChange holds them (none there: it was not numbered);
 * else no numbering when the record's w:original (the previous number's text) is empty or
 * absent. A non-empty w:original records only the number's text, not the list it came from,
 * so the current list stays and the record goes.
 */
function restoreNumbering(change: XmlElement): void {
  const numPr = change.parent;
  const pPr = numPr?.parent;
  remove(change);
  if (!numPr || pPr?.name !== 'w:pPr') return;
  const oldPPr = pPr.first('w:pPrChange')?.first('w:pPr');
  if (oldPPr) {
    const oldNumPr = oldPPr.first('w:numPr');
    if (!oldNumPr) remove(numPr);
    else {
      const kept = oldNumPr.elements().filter((c) => c.name === 'w:ilvl' || c.name === 'w:numId').map((c) => c.cloneDeep());
      const live = numPr.elements().filter((c) => c.name === 'w:ins');
      numPr.setChildren(sortBySchema('w:numPr', [...kept, ...live]));
    }
    return;
  }
  if (!change.attr('w:original')) remove(numPr);
}

/** Children of a property element that a reject keeps: separately tracked or not formatting. */
const KEPT_ON_REJECT: Record<string, ReadonlySet<string>> = {
  'w:rPr': new Set(['w:ins', 'w:del', 'w:moveFrom', 'w:moveTo']),
  'w:pPr': new Set(['w:rPr', 'w:sectPr']),
  'w:trPr': new Set(['w:ins', 'w:del']),
  'w:tcPr': new Set(['w:cellIns', 'w:cellDel', 'w:cellMerge']),
  'w:sectPr': new Set(['w:headerReference', 'w:footerReference']),
  'w:numPr': new Set(['w:ins']),
};

/**
 * Rejecting a property change: the old properties it holds replace the current ones. What the
 * holder tracks separately (a cell's w:cellDel, a mark's w:ins, a row's w:del...) stays as it is
 * now: Word also writes such markers inside the old properties, with ids of their own, but they
 * record the same cell, row or mark change as the live marker (or one already decided), so a
 * restored copy would make a decided change reappear, or one change appear twice.
 */
function restoreProperties(change: XmlElement): void {
  const holder = change.parent;
  if (!holder) return;
  const kept = KEPT_ON_REJECT[holder.name] ?? new Set<string>();
  const old = change.first(holder.name);
  const restored = old ? old.elements().filter((c) => !kept.has(c.name) && !PROPERTY_CHANGES.has(c.name)).map((c) => c.cloneDeep()) : [];
  const keep = holder.children.filter((c) => c.kind === 1 && c !== change && kept.has(c.name));
  holder.setChildren(sortBySchema(holder.name, [...restored, ...keep]));
}

/** Property-change records: never restored from old properties (a change records one step). */
const PROPERTY_CHANGES: ReadonlySet<string> = new Set([
  'w:rPrChange', 'w:pPrChange', 'w:tblPrChange', 'w:tblGridChange', 'w:tblPrExChange', 'w:trPrChange', 'w:tcPrChange',
  'w:sectPrChange', 'w:numberingChange',
]);

/** Removes the range markers of decided moves; `ranges` are the part's markers (PartScan.ranges). */
function removeMoveRanges(root: XmlElement, ranges: readonly XmlElement[], names: ReadonlySet<string>): void {
  const live = ranges.filter((el) => isWithin(el, root));
  const ids = new Set<string>();
  const doomed: XmlElement[] = [];
  for (const el of live) {
    if ((el.name === 'w:moveFromRangeStart' || el.name === 'w:moveToRangeStart') && names.has(el.attr('w:name') ?? '')) {
      ids.add(`${el.name.replace('Start', 'End')}:${el.attr('w:id')}`);
      doomed.push(el);
    }
  }
  if (!doomed.length) return;
  for (const el of live) {
    if ((el.name === 'w:moveFromRangeEnd' || el.name === 'w:moveToRangeEnd') && ids.has(`${el.name}:${el.attr('w:id')}`)) doomed.push(el);
  }
  for (const el of doomed) remove(el);
}
