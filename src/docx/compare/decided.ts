import type { DocxPackage } from '../package/package';
import { applyToScans } from '../revisions/apply';
import { groupChanges } from '../revisions/changes';
import { editGroups } from '../revisions/groups';
import { assignUniqueIds } from '../revisions/ids';
import { scanPart, type PartScan } from '../revisions/sites';
import { XmlDocument, XmlElement, walk } from '../xml/tree';

export type DecidedView = 'accepted' | 'rejected';

/** Whether source text may hold revision markup the engine decides (a cheap test before scanning). */
export const MAY_HOLD_REVISIONS = /<w:(?:ins|del|moveFrom|moveTo|cellIns|cellDel|cellMerge|numberingChange|[a-zA-Z]+PrChange|tblGridChange|customXml(?:Ins|Del|MoveFrom|MoveTo)RangeStart)[\s>/]|redline:proposed:/;

/**
 * Accepts (or rejects) every tracked change the scans found, with the engine's own decisions.
 * `countEntries`: answer how many entries a review would have listed for them (else 0).
 */
export function decideEverything(scans: readonly PartScan[], view: DecidedView, countEntries = false): number {
  if (!scans.some((s) => s.sites.length)) return 0;
  assignUniqueIds(scans);
  const changes = groupChanges(scans);
  const entries = countEntries ? editGroups(changes).length : 0;
  const ids = changes.map((c) => c.changeId);
  applyToScans(scans, changes, view === 'accepted' ? { accept: ids, reject: [] } : { accept: [], reject: ids });
  return entries;
}

/**
 * A package's stories as the engine decides them, every element of the decided copies linked to
 * the element of the package's own tree it was copied from.
 *
 * The untracked check reads newer in its rejected view but writes what it finds into newer's own
 * tree, around newer's undecided changes. Which paragraphs that view joins, which rows, tables
 * and controls it drops, how it reads a property change or an equation: all of that is the
 * engine's (revisions/apply.ts, joins.ts, structure.ts), so the view is read from a copy the
 * engine decided rather than worked out a second time. A story with no tracked change is not
 * copied: it reads as itself.
 */
export class DecidedStories {
  /**
   * original -> copy, copy -> original, for every element of a copied story. Maps, not WeakMaps:
   * they live as long as one comparison, and on the 200-page bench draft (65,000 elements) the
   * weak ones took twice the CPU (360 against 190 ms for copying and deciding).
   */
  private readonly copies = new Map<XmlElement, XmlElement>();
  private readonly origins = new Map<XmlElement, XmlElement>();
  private readonly copyRoots = new Set<XmlElement>();

  constructor(pkg: DocxPackage, readonly view: DecidedView) {
    const scans: PartScan[] = [];
    for (const { part, doc } of pkg.stories()) {
      if (!MAY_HOLD_REVISIONS.test(doc.src)) continue;
      const root = doc.root.copyLinked((copy, original) => {
        this.copies.set(original, copy);
        this.origins.set(copy, original);
      });
      this.copyRoots.add(root);
      scans.push(scanPart(part.name, part.role, new XmlDocument(doc.src, [root], root)));
    }
    decideEverything(scans, view);
    for (const root of this.copyRoots) this.adoptMadeParagraphs(root);
  }

  /**
   * The one thing the engine makes rather than keeps is the empty paragraph a container must end
   * with (structure.ts): it adds one where newer's own container ends without (after a table, or
   * a note written empty). Word reads such a container with that paragraph too, so newer's tree
   * gets it as well, at the same place, and the view's paragraph has a paragraph of newer's to
   * stand for: the comparison can match it, or mark around it.
   */
  private adoptMadeParagraphs(root: XmlElement): void {
    const made: XmlElement[] = [];
    walk(root, (el) => {
      if (el.name === 'w:p' && !this.origins.has(el)) made.push(el);
    });
    for (const p of made) {
      const container = p.parent && this.origins.get(p.parent);
      if (!container) continue;
      const kids = p.parent!.children;
      let before: XmlElement | null = null;
      for (let i = kids.indexOf(p) - 1; i >= 0 && !before; i--) {
        const k = kids[i]!;
        if (k.kind === 1) before = this.origins.get(k) ?? null;
      }
      const own = XmlElement.create('w:p');
      if (before?.parent === container) container.insertAfter(own, before);
      else container.insertAt(0, own);
      this.copies.set(own, p);
      this.origins.set(p, own);
    }
  }

  /** Whether the mark of a paragraph of the package's tree is a tracked change the view takes away (inserted, read rejected; deleted, read accepted). */
  markGone(p: XmlElement): boolean {
    const rPr = p.first('w:pPr')?.first('w:rPr');
    if (!rPr) return false;
    return this.view === 'rejected' ? !!(rPr.first('w:ins') ?? rPr.first('w:moveTo')) : !!(rPr.first('w:del') ?? rPr.first('w:moveFrom'));
  }

  /** What the decided view reads for an element of the package's tree: its copy (itself in a story without changes). */
  read(el: XmlElement): XmlElement {
    return this.copies.get(el) ?? el;
  }

  /**
   * The element of the package's tree an element of the decided view was copied from (itself in a
   * story without changes); null for one the engine made (a mark's properties, say).
   */
  origin(el: XmlElement): XmlElement | null {
    const found = this.origins.get(el);
    if (found) return found;
    let top = el;
    while (top.parent) top = top.parent;
    return this.copyRoots.has(top) ? null : el;
  }
}
