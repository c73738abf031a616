import type { XmlElement } from '../xml/tree';
import type { Change } from './changes';
import { joinDirections, mayVanish, paragraphsMaybeBefore, type Step } from './joins';
import { boundedBy, MOVE_TYPES, type Site, type SiteType } from './sites';

/**
 * Which decisions take other changes with them. A change is "taken" by another when deciding the
 * other one way removes the element that holds all of it: a rejected insertion (or move
 * destination, or proposed content) removes what it holds; an accepted deletion (or move
 * source) likewise; a rejected inserted row or cell and an accepted deleted one remove the row or
 * cell; a paragraph mark that goes removes the paragraph's properties (its property, numbering
 * and mark-format changes), while the content joins the next paragraph and stays. The other way
 * (an accepted inserted row, a rejected deleted one) removes nothing and takes nothing: what is
 * inside stays open.
 *
 * The service records, with every decided change, what could take it; the track shows a decided
 * change as its taker's verdict once that taker is decided that way, whichever was decided first.
 * A change no one change takes may still go with several (every cell of its row; each half of a
 * move with its own container): goneWhenOf says when, and the track then shows it as goneAs.
 */
export interface Taker {
  changeId: string;
  /** The verdict of the taker that removes the change. */
  removedOn: 'accept' | 'reject';
  /**
   * Only when this holds too: a mark that joins backward reaches a paragraph further back only
   * through the paragraphs between, when their marks go as well (joins.ts, paragraphsMaybeBefore).
   */
  when?: GoneWhen;
}

/** `keepsMarks`: a paragraph joined backward into the next loses its properties, but its tracked mark moves on (joins.ts, joinBackward). */
type Removal = { el: XmlElement; on: 'accept' | 'reject'; when?: GoneWhen; keepsMarks?: true };

/**
 * What a join waits on, as conditions: `markGoes`, when a paragraph's tracked mark goes (any of
 * its mark revisions decided the way that removes it); `along`, when one of a join's ways
 * (joins.ts, Directions) is open: every control or revision around paragraphs on it unwrapped or
 * removed as the way needs (SETTLES); `wayOf`, when any of several is. Null: never.
 */
interface JoinPath {
  markGoes(p: XmlElement): GoneWhen;
  /** When every block on one way is settled as it needs (none: always). */
  along(way: readonly Step[]): GoneWhen;
  wayOf(ways: readonly Step[][]): GoneWhen | null;
}

/** The elements a site's decision removes, and on which verdict; none when no verdict removes anything of others. */
function removedBy(site: Site, path: JoinPath): Removal[] {
  const el = site.el;
  switch (site.type) {
    case 'run-ins':
    case 'move-to':
    case 'run-del':
    case 'move-from': {
      const on = site.type === 'run-ins' || site.type === 'move-to' ? 'reject' : 'accept';
      // Around whole paragraphs, their marks go too (apply.ts, removeParagraphs): the last one may join the paragraph before.
      const block = el.elements().some((c) => c.name === 'w:p');
      return [{ el, on }, ...(block ? joinRemoves(el, null, on, path) : [])];
    }
    case 'proposed':
      return [{ el, on: 'reject' }];
    case 'ppr-change': {
      // Rejecting it restores the old properties, numbering included: the live w:numPr (and the
      // numbering change or insertion recorded in it) goes.
      const numPr = el.parent?.name === 'w:pPr' ? el.parent.first('w:numPr') : null;
      return numPr ? [{ el: numPr, on: 'reject' }] : [];
    }
    case 'row-ins':
    case 'row-del': {
      const row = el.parent?.parent;
      return row?.name === 'w:tr' ? [{ el: row, on: site.type === 'row-ins' ? 'reject' : 'accept' }] : [];
    }
    case 'cell-ins':
    case 'cell-del': {
      const cell = el.parent?.parent;
      return cell?.name === 'w:tc' ? [{ el: cell, on: site.type === 'cell-ins' ? 'reject' : 'accept' }] : [];
    }
    case 'mark-ins':
    case 'mark-move-to':
    case 'mark-del':
    case 'mark-move-from': {
      const pPr = el.parent?.parent;
      const p = pPr?.parent;
      if (pPr?.name !== 'w:pPr' || p?.name !== 'w:p') return [];
      return joinRemoves(p, pPr, site.type === 'mark-del' || site.type === 'mark-move-from' ? 'accept' : 'reject', path);
    }
    default:
      return [];
  }
}

/**
 * What a paragraph mark that goes may remove (joins.ts, joinDirections): joining forward drops
 * the paragraph's own properties (`own`); joining backward, a paragraph before it joins it and
 * loses its properties: the one right before, or, across blocks a later decision may unwrap or
 * remove, any it may then meet (paragraphsMaybeBefore), through paragraphs whose marks go too.
 * First in its container, or alone between controls and tables, and possibly empty, it may vanish
 * with its own properties (mayVanish).
 * Each removal carries the condition under which the join goes that way (the controls and
 * revisions on the way unwrapped, the marks between gone); where no condition can say it yet (a
 * table that may lose every row) it is over-approximated: the service reads these once, on the
 * draft before its first decision (decision-facts.ts), and a take that cannot be known yet must
 * be there for every order of the later decisions.
 */
function joinRemoves(block: XmlElement, own: XmlElement | null, on: 'accept' | 'reject', path: JoinPath): Removal[] {
  const directions = joinDirections(block);
  const forward = path.wayOf(directions.forward);
  const backward = path.wayOf(directions.backward);
  const out: Removal[] = forward && own ? [{ el: own, on, ...when(forward) }] : [];
  // Vanishing needs no way to join: alone between controls and tables it goes with none (joins.ts, standsAlone).
  if (own && !forward && mayVanish(block)) out.push({ el: own, on, ...(backward ? when(backward) : {}) });
  if (!backward || own?.first('w:sectPr')) return out;
  for (const { p: before, through, across } of paragraphsMaybeBefore(block)) {
    const beforePPr = before.first('w:pPr');
    if (!beforePPr || beforePPr.first('w:sectPr')) continue;
    const conditions = [backward, ...through.map((p) => path.markGoes(p)), path.along(across)].filter((c) => !isAlways(c));
    out.push({ el: beforePPr, on, keepsMarks: true, ...(conditions.length ? { when: allOf(conditions) } : {}) });
  }
  return out;
}

/** A removal's condition, left out when it always holds. */
const when = (condition: GoneWhen): { when?: GoneWhen } => (isAlways(condition) ? {} : { when: condition });

/**
 * A move that has lost its source or its destination (to an earlier decision around that half):
 * what holds the rest does not hold the move, which was one change across both places.
 */
function isPartialMove(change: Change): boolean {
  const lead = change.sites[0]!;
  if (!MOVE_TYPES.has(lead.type)) return false;
  const from = change.sites.some((s) => s.type === 'move-from' || s.type === 'mark-move-from');
  const to = change.sites.some((s) => s.type === 'move-to' || s.type === 'mark-move-to');
  return !(from && to);
}

/** A change that removes an element; `markOf` is the paragraph whose mark it is, for a mark. */
type Remover = Taker & { markOf: XmlElement | null; keepsMarks?: true };

/** The verdict that unwraps a block (its content stays) and the one that removes it, by the site type of its revision (apply.ts). */
const SETTLES: Partial<Record<SiteType, { unwrap?: 'accept' | 'reject'; remove?: 'accept' | 'reject' }>> = {
  'control-ins': { unwrap: 'reject' },
  'control-del': { unwrap: 'accept' },
  'control-move-from': { remove: 'accept' },
  'control-move-to': { remove: 'reject' },
  proposed: { unwrap: 'accept', remove: 'reject' },
  'run-ins': { unwrap: 'accept', remove: 'reject' },
  'move-to': { unwrap: 'accept', remove: 'reject' },
  'run-del': { unwrap: 'reject', remove: 'accept' },
  'move-from': { unwrap: 'reject', remove: 'accept' },
};

const MARK_GOES_ON: Partial<Record<SiteType, 'accept' | 'reject'>> = { 'mark-del': 'accept', 'mark-move-from': 'accept', 'mark-ins': 'reject', 'mark-move-to': 'reject' };

function markOf(site: Site): XmlElement | null {
  return site.type.startsWith('mark-') ? site.el.parent?.parent?.parent ?? null : null;
}

/**
 * A paragraph mark whose paragraph joins another travels with it: no mark takes another
 * paragraph's mark, and a paragraph joined backward into the next keeps its tracked mark there
 * (joinBackward moves it), whatever joined it. Two revisions on one mark (inserted, then deleted) go together: the one
 * that removes the mark takes the other.
 */
function travelsWith(remover: Remover, site: Site): boolean {
  const mark = markOf(site);
  if (mark !== null && remover.keepsMarks) return true;
  return remover.markOf !== null && mark !== null && remover.markOf !== mark;
}

/**
 * Each element some decision removes, with the changes that remove it. Several changes may remove
 * one element (a paragraph's properties go when its own mark goes, and when the next paragraph's
 * mark goes before a table): each of them takes what it holds.
 */
function removersOf(changes: readonly Change[]): Map<XmlElement, Remover[]> {
  const removing = new Map<XmlElement, Remover[]>();
  // Which verdicts take each tracked mark away, and which unwrap or remove each block (apply.ts):
  // a tracked boundary unwraps or removes its control one way; a proposed control and a revision
  // around paragraphs go one way or the other.
  const marks = new Map<XmlElement, GoneWhen[]>();
  const settlers = new Map<XmlElement, { unwrap: GoneWhen[]; remove: GoneWhen[] }>();
  for (const change of changes) {
    for (const site of change.sites) {
      const id = change.changeId;
      const markOn = MARK_GOES_ON[site.type];
      const p = markOf(site);
      if (markOn && p) marks.set(p, [...(marks.get(p) ?? []), { id, on: markOn }]);
      const how = SETTLES[site.type];
      const block = how && (site.type.startsWith('control-') ? boundedBy(site.el) : site.el);
      if (!how || !block) continue;
      const entry = settlers.get(block) ?? { unwrap: [], remove: [] };
      if (how.unwrap) entry.unwrap.push({ id, on: how.unwrap });
      if (how.remove) entry.remove.push({ id, on: how.remove });
      settlers.set(block, entry);
    }
  }
  const settles = (step: Step): GoneWhen => {
    const entry = settlers.get(step.block);
    return entry ? anyOf(entry[step.how]) : ALWAYS;
  };
  const along = (way: readonly Step[]): GoneWhen => {
    const conditions = way.map(settles).filter((c) => !isAlways(c));
    return conditions.length ? allOf(conditions) : ALWAYS;
  };
  const path: JoinPath = {
    markGoes: (p) => anyOf(marks.get(p) ?? []),
    along,
    wayOf: (ways) => {
      if (!ways.length) return null;
      const each = ways.map(along);
      return each.some(isAlways) ? ALWAYS : anyOf(each);
    },
  };
  for (const change of changes) {
    for (const site of change.sites) {
      for (const r of removedBy(site, path)) {
        const list = removing.get(r.el) ?? [];
        list.push({ changeId: change.changeId, removedOn: r.on, markOf: markOf(site), ...(r.when ? { when: r.when } : {}), ...(r.keepsMarks ? { keepsMarks: true as const } : {}) });
        removing.set(r.el, list);
      }
    }
  }
  return removing;
}

/**
 * For every change that something could take, its takers, innermost first. Only changes whose
 * every site lies inside one element a taker removes count (a move with one half in a rejected
 * row is not taken: its other half stays, and the move with it; nor is what is left of a move).
 */
export function takersOf(changes: readonly Change[], removing = removersOf(changes)): Map<string, Taker[]> {
  const out = new Map<string, Taker[]>();
  if (!removing.size) return out;
  for (const change of changes) {
    if (isPartialMove(change)) continue;
    let common: Taker[] | null = null;
    for (const site of change.sites) {
      const mine: Taker[] = [];
      for (let p = site.el.parent; p; p = p.parent) {
        // A paragraph mark whose paragraph joins another travels with it (travelsWith).
        for (const t of removing.get(p) ?? []) {
          if (t.changeId !== change.changeId && !travelsWith(t, site)) mine.push({ changeId: t.changeId, removedOn: t.removedOn, ...(t.when ? { when: t.when } : {}) });
        }
      }
      common = common === null ? mine : common.filter((t) => mine.some((m) => m.changeId === t.changeId));
      if (!common.length) break;
    }
    if (common?.length) out.set(change.changeId, common);
  }
  return out;
}

/**
 * When a change is gone whatever its own verdict: a condition on other changes' verdicts (a leaf
 * holds when that change is decided `on` that way). A change is gone when every one of its sites
 * is removed; a site is removed when an element around it is (a taker of that element decided
 * its way), or when a row around it loses every cell (apply.ts drops a row left without cells).
 */
export type GoneWhen = { all: GoneWhen[] } | { any: GoneWhen[] } | { id: string; on: 'accept' | 'reject' };

const NEVER: GoneWhen = { any: [] };
/** No condition: always holds. */
const ALWAYS: GoneWhen = { all: [] };
const isAlways = (c: GoneWhen) => 'all' in c && c.all.length === 0;
const isNever = (c: GoneWhen) => 'any' in c && c.any.length === 0;
const anyOf = (cs: GoneWhen[]): GoneWhen => {
  // The same taker may remove several elements around one site (a paragraph and its row).
  const seen = new Set<string>();
  const live = cs.filter((c) => !isNever(c) && !seen.has(JSON.stringify(c)) && !!seen.add(JSON.stringify(c)));
  return live.length === 1 ? live[0]! : { any: live };
};
const allOf = (cs: GoneWhen[]): GoneWhen => (cs.some(isNever) || !cs.length ? NEVER : cs.length === 1 ? cs[0]! : { all: cs });

/** Whether a condition turns on this change's verdict. */
export function mentions(condition: GoneWhen, id: string): boolean {
  if ('all' in condition) return condition.all.some((c) => mentions(c, id));
  if ('any' in condition) return condition.any.some((c) => mentions(c, id));
  return condition.id === id;
}

/** Whether a condition holds for these verdicts. */
export function holds(condition: GoneWhen, verdictOf: (id: string) => 'accept' | 'reject' | undefined): boolean {
  if ('all' in condition) return condition.all.every((c) => holds(c, verdictOf));
  if ('any' in condition) return condition.any.some((c) => holds(c, verdictOf));
  return verdictOf(condition.id) === condition.on;
}

/**
 * For every change that other decisions could make vanish whatever its own verdict, the condition
 * (GoneWhen) under which they do. The service records it with every decided change, so a change
 * decided in the same batch as (or before) the decisions that take it away is shown the way a
 * change that vanished as their side effect is (goneAs), whichever order they came in.
 */
export function goneWhenOf(changes: readonly Change[], removing = removersOf(changes)): Map<string, GoneWhen> {
  const out = new Map<string, GoneWhen>();
  if (!removing.size) return out;
  for (const change of changes) {
    const self = change.changeId;
    const leaves = (el: XmlElement, site: Site | null): GoneWhen[] =>
      (removing.get(el) ?? []).filter((t) => t.changeId !== self && !(site && travelsWith(t, site)))
        .map((t): GoneWhen => (t.when ? allOf([{ id: t.changeId, on: t.removedOn }, t.when]) : { id: t.changeId, on: t.removedOn }));
    const rowGoes = (row: XmlElement): GoneWhen => allOf(row.elements().filter((c) => c.name === 'w:tc').map((tc) => anyOf(leaves(tc, null))));
    const sites = change.sites.map((site) => {
      const ways: GoneWhen[] = [];
      for (let p = site.el.parent; p; p = p.parent) {
        ways.push(...leaves(p, site));
        if (p.name === 'w:tr') ways.push(rowGoes(p));
      }
      return anyOf(ways);
    });
    const condition = allOf(sites);
    if (!isNever(condition)) out.set(self, condition);
  }
  return out;
}

/** Both takersOf and goneWhenOf, from one reading of what each decision removes. */
export function containmentOf(changes: readonly Change[]): { takers: Map<string, Taker[]>; goneWhen: Map<string, GoneWhen> } {
  const removing = removersOf(changes);
  return { takers: takersOf(changes, removing), goneWhen: goneWhenOf(changes, removing) };
}

const GONE_AS_REJECTED: ReadonlySet<SiteType> = new Set(['run-ins', 'move-to', 'mark-ins', 'mark-move-to', 'row-ins', 'cell-ins', 'num-ins', 'proposed']);

/**
 * What a change's disappearance amounts to when no decision named it or took it (its row lost its
 * last cell; both halves of a move went with two different containers): an insertion that is gone
 * was rejected, anything else that is gone was accepted; a move, whose halves may go either way,
 * counts as rejected. Fixed by the change's kind, so the same whichever batch it vanished in.
 */
export function goneAs(change: Change): 'accept' | 'reject' {
  const lead = change.sites[0]!;
  if (MOVE_TYPES.has(lead.type) && change.sites.length > 1) return 'reject';
  if (MOVE_TYPES.has(lead.type) && lead.moveName !== null) return 'reject';
  return GONE_AS_REJECTED.has(lead.type) ? 'reject' : 'accept';
}
