import type { RevisionKind } from '../../contract/revision';
import { isWithin, type XmlElement } from '../xml/tree';
import { mergeFieldUnits } from './fields';
import { KIND_OF, MOVE_TYPES, type PartScan, type Site } from './sites';

/**
 * A change is what the reviewer decides: usually one site, but a move is one change made of all
 * its halves (every w:moveFrom/w:moveTo and moved paragraph mark in ranges of the same move name),
 * so accepting or rejecting either half decides the whole move. A move is listed once, where its
 * first half appears in document order, with the kind of that half (delete for the source,
 * insert for the destination) and a "Moved: ..." preview.
 *
 * A proposed content control (tag `redline:proposed:<id>`) is one change together with the tracked
 * insertions inside it: accepting keeps the content, rejecting removes it, control and all.
 *
 * change_id is `c<w:id>` of the change's first site; ingest made ids unique, so it is stable.
 */
export interface Change {
  changeId: string;
  kind: RevisionKind;
  sites: Site[];
}

export function changeIdOf(site: Site): string {
  return `c${site.id ?? ''}`;
}

export function groupChanges(scans: readonly PartScan[]): Change[] {
  const out: Change[] = [];
  const moves = new Map<string, Change>();
  const proposals = new Map<XmlElement, Change>();
  const controls = new Map<XmlElement, Change>();
  for (const scan of scans) {
    const ordered = [...scan.sites].sort((a, b) => a.order - b.order);
    for (const site of ordered) {
      if (proposals.size && (site.type === 'run-ins' || site.type === 'mark-ins')) {
        const owner = enclosingProposal(site.el, proposals);
        if (owner) {
          owner.sites.push(site);
          continue;
        }
      }
      if (site.type === 'proposed') {
        const change: Change = { changeId: changeIdOf(site), kind: 'proposed', sites: [site] };
        proposals.set(site.el, change);
        out.push(change);
        continue;
      }
      if (MOVE_TYPES.has(site.type) && site.moveName !== null) {
        const key = site.moveName;
        const existing = moves.get(key);
        if (existing) {
          existing.sites.push(site);
          continue;
        }
        const kind: RevisionKind = site.type === 'move-from' || site.type === 'mark-move-from' ? 'delete' : 'insert';
        const change: Change = { changeId: changeIdOf(site), kind, sites: [site] };
        moves.set(key, change);
        out.push(change);
        continue;
      }
      if (site.boundary) {
        // Both tracked boundaries of one control are one change (issue 17.2).
        const key = site.boundary.target ?? site.el;
        const existing = controls.get(key);
        if (existing && existing.sites[0]!.type === site.type) {
          existing.sites.push(site);
          continue;
        }
        const change: Change = { changeId: changeIdOf(site), kind: KIND_OF[site.type], sites: [site] };
        controls.set(key, change);
        out.push(change);
        continue;
      }
      let kind = KIND_OF[site.type];
      if (site.type === 'mark-move-from') kind = 'paragraph_mark';
      out.push({ changeId: changeIdOf(site), kind, sites: [site] });
    }
  }
  return mergeFieldUnits(joinMovedControls(out, moves));
}

/**
 * A moved content control's boundaries belong to the move of the content inside it: they are
 * decided with it, so the control disappears with the move's source or destination.
 */
function joinMovedControls(out: Change[], moves: ReadonlyMap<string, Change>): Change[] {
  if (!moves.size) return out;
  const joined = new Set<Change>();
  for (const c of out) {
    const lead = c.sites[0]!;
    const target = lead.boundary?.target;
    if (!target || (lead.type !== 'control-move-from' && lead.type !== 'control-move-to')) continue;
    const half = lead.type === 'control-move-from' ? ['move-from', 'mark-move-from'] : ['move-to', 'mark-move-to'];
    for (const move of moves.values()) {
      if (move.sites.some((s) => half.includes(s.type) && isWithin(s.el, target))) {
        move.sites.push(...c.sites);
        joined.add(c);
        break;
      }
    }
  }
  return joined.size ? out.filter((c) => !joined.has(c)) : out;
}

function enclosingProposal(el: XmlElement, proposals: ReadonlyMap<XmlElement, Change>): Change | null {
  for (let p = el.parent; p; p = p.parent) {
    if (p.name === 'w:sdt') {
      const c = proposals.get(p);
      if (c) return c;
    }
  }
  return null;
}
