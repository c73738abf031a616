import { ConflictingChangeIdsError, UnknownChangeIdsError } from '../errors';
import { insertProperty, sortBySchema } from '../ooxml/schema-order';
import { XmlElement, isWithin, markDirty, remove, replaceWith, unwrap, walk, type XmlNode } from '../xml/tree';
import type { Change } from './changes';
import { MOVE_TYPES, type PartScan, type Site } from './sites';
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
    for (const { site, accept } of list) {
      if (!isWithin(site.el, root)) continue;
      decideSite(site, accept);
    }
    if (decidedMoves.size) removeMoveRanges(root, scan.ranges, decidedMoves);
    repairStructure(root, scan.ranges);
  }
}

export function decideSite(site: Site, accept: boolean): void {
  const el = site.el;
  switch (site.type) {
    case 'run-ins':
    case 'move-to':
      if (accept) unwrap(el);
      else removeContent(el);
      return;
    case 'run-del':
    case 'move-from':
      if (accept) removeContent(el);
      else restoreDeleted(el);
      return;
    case 'mark-ins':
    case 'mark-move-to':
    case 'mark-del':
    case 'mark-move-from': {
      const paragraph = paragraphOfMark(el);
      remove(el);
      const markGoes = accept === (site.type === 'mark-del' || site.type === 'mark-move-from');
      if (markGoes) joinWithNext(paragraph);
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
      remove(el);
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

/** Block-level markup that may stand between two paragraphs and travels into the joined one. */
const BETWEEN = new Set([
  'w:bookmarkStart', 'w:bookmarkEnd', 'w:commentRangeStart', 'w:commentRangeEnd', 'w:moveFromRangeStart',
  'w:moveFromRangeEnd', 'w:moveToRangeStart', 'w:moveToRangeEnd', 'w:permStart', 'w:permEnd', 'w:proofErr',
]);

/**
 * Joins a paragraph whose mark went away with the next paragraph, which keeps its own properties.
 * Without a next paragraph (last in a cell or story, or before a table) the paragraph stays: a
 * mark cannot vanish there, as in Word.
 */
export function joinWithNext(p: XmlElement | null): void {
  const container = p?.parent;
  if (!p || !container) return;
  const kids = container.children;
  const between: XmlNode[] = [];
  let next: XmlElement | null = null;
  for (let i = kids.indexOf(p) + 1; i < kids.length; i++) {
    const k = kids[i]!;
    if (k.kind !== 1) continue;
    if (k.name === 'w:p') {
      next = k;
      break;
    }
    if (!BETWEEN.has(k.name)) break;
    between.push(k);
  }
  if (!next) return;
  const moved = [...p.children.filter((c) => !(c.kind === 1 && c.name === 'w:pPr')), ...between];
  const nextPPr = next.first('w:pPr');
  const at = nextPPr ? next.children.indexOf(nextPPr) + 1 : 0;
  const merged = [...next.children.slice(0, at), ...moved, ...next.children.slice(at)];
  next.setChildren(merged);
  remove(p);
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

// ---- properties ---------------------------------------------------------------------------------

/** Children of a property element that a reject keeps: separately tracked or not formatting. */
const KEPT_ON_REJECT: Record<string, ReadonlySet<string>> = {
  'w:rPr': new Set(['w:ins', 'w:del', 'w:moveFrom', 'w:moveTo']),
  'w:pPr': new Set(['w:rPr', 'w:sectPr']),
  'w:trPr': new Set(['w:ins', 'w:del']),
  'w:tcPr': new Set(['w:cellIns', 'w:cellDel', 'w:cellMerge']),
  'w:sectPr': new Set(['w:headerReference', 'w:footerReference']),
  'w:numPr': new Set(['w:ins']),
};

/** Rejecting a property change: the old properties it holds replace the current ones. */
function restoreProperties(change: XmlElement): void {
  const holder = change.parent;
  if (!holder) return;
  const kept = KEPT_ON_REJECT[holder.name] ?? new Set<string>();
  const old = change.first(holder.name);
  const restored: XmlNode[] = old ? old.children.map((c) => (c.kind === 1 ? c.cloneDeep() : c)) : [];
  const keep = holder.children.filter((c) => c.kind === 1 && c !== change && kept.has(c.name));
  holder.setChildren(sortBySchema(holder.name, [...restored.filter((c) => c.kind === 1), ...keep]));
}

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
