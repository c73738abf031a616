import { applyToScans } from '../revisions/apply';
import { groupChanges } from '../revisions/changes';
import { assignUniqueIds } from '../revisions/ids';
import { scanPart } from '../revisions/sites';
import { XmlDocument, XmlElement } from '../xml/tree';

/**
 * Newer's own tracked changes inside something the comparison reads whole (a paragraph's or a
 * run's properties, an equation, a content control, a hyperlink), resolved the way the engine
 * resolves them: a copy is decided by the engine's own accept or reject, so the key newer gets
 * in its rejected (accepted) view is the key older got from the engine's reject-all (accept-all).
 * Reading a property change, an inserted numbering, or an insertion inside an equation any other
 * way would show the untracked check differences between two copies of the same document.
 */
export function resolvedChildren(el: XmlElement, view: 'accepted' | 'rejected'): XmlElement[] {
  // In a paragraph of its own: not a story container, so the engine's repairs add nothing to it.
  const root = XmlElement.create('w:p', {}, [el.cloneDeep()]);
  const scan = scanPart('compare-view', 'document', new XmlDocument('', [root], root));
  if (scan.sites.length) {
    assignUniqueIds([scan]);
    const changes = groupChanges([scan]);
    const ids = changes.map((c) => c.changeId);
    applyToScans([scan], changes, view === 'accepted' ? { accept: ids, reject: [] } : { accept: [], reject: ids });
  }
  return root.elements();
}

/** Whether source text may hold revision markup the engine decides (a cheap test before resolving). */
export const MAY_HOLD_REVISIONS = /<w:(?:ins|del|moveFrom|moveTo|cellIns|cellDel|cellMerge|numberingChange|[a-zA-Z]+PrChange|tblGridChange|customXml(?:Ins|Del|MoveFrom|MoveTo)RangeStart)[\s>/]|redline:proposed:/;
