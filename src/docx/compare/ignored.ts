import { applyToScans } from '../revisions/apply';
import { groupChanges, type Change } from '../revisions/changes';
import { editGroups } from '../revisions/groups';
import type { PartScan, SiteType } from '../revisions/sites';
import { walk, type XmlElement } from '../xml/tree';

/** What Word's compare options let a comparison leave out: differences of case, of white space, of formatting. */
export interface IgnoredDifferences {
  /** Text that differs only in upper and lower case. */
  ignoreCase?: boolean;
  /** Text that differs only in the amount or kind of white space (spaces, tabs, non-breaking spaces, line breaks): a run of it reads as one space. */
  ignoreWhitespace?: boolean;
  /** Formatting: run, paragraph, table, row, cell and section properties, and numbering. */
  ignoreFormatting?: boolean;
}

const TEXT_TYPES: ReadonlySet<SiteType> = new Set<SiteType>(['run-ins', 'run-del']);
const FORMAT_TYPES: ReadonlySet<SiteType> = new Set<SiteType>([
  'rpr-change', 'ppr-change', 'tblpr-change', 'tblgrid-change', 'tblprex-change', 'trpr-change', 'tcpr-change', 'sectpr-change', 'numbering-change', 'num-ins',
]);

/**
 * Accepts, in the redline, the comparison's own entries (what a review lists as one edit) that the
 * options leave out, so newer's text stands there unmarked: a formatting change; an edit of text
 * alone whose deleted and inserted words read the same once case is folded or white space is
 * collapsed. Accept-all still gives newer; reject-all gives older except for what was left out.
 * Whether anything was accepted (the scans are then stale).
 */
export function dropIgnoredDifferences(scans: readonly PartScan[], ours: ReadonlySet<XmlElement>, options: IgnoredDifferences): boolean {
  if (!options.ignoreCase && !options.ignoreWhitespace && !options.ignoreFormatting) return false;
  const changes = groupChanges(scans);
  const byId = new Map(changes.map((c) => [c.changeId, c]));
  const accept: string[] = [];
  for (const group of editGroups(changes)) {
    const members = group.members.map((id) => byId.get(id)!);
    if (!ours.has(members[0]!.sites[0]!.el)) continue;
    if (ignored(members, options)) accept.push(...group.members);
  }
  if (!accept.length) return false;
  applyToScans(scans, changes, { accept, reject: [] });
  return true;
}

function ignored(entry: readonly Change[], options: IgnoredDifferences): boolean {
  const types = entry.flatMap((c) => c.sites.map((s) => s.type));
  if (options.ignoreFormatting && types.every((t) => FORMAT_TYPES.has(t))) return true;
  if (!options.ignoreCase && !options.ignoreWhitespace) return false;
  if (!types.every((t) => TEXT_TYPES.has(t))) return false;
  const side = (type: SiteType) => entry.flatMap((c) => c.sites.filter((s) => s.type === type).map((s) => textWithSpaces(s.el))).join('');
  const normal = (text: string) => {
    let t = options.ignoreWhitespace ? text.replace(/\s+/g, ' ') : text;
    if (options.ignoreCase) t = t.toLowerCase();
    return t;
  };
  const deleted = side('run-del');
  const inserted = side('run-ins');
  return deleted !== inserted && normal(deleted) === normal(inserted);
}

/** The text of a tracked run, tabs and breaks as the white space they are (preview.ts reads them all as spaces). */
function textWithSpaces(el: XmlElement): string {
  let s = '';
  walk(el, (e) => {
    if (e.name === 'w:t' || e.name === 'w:delText') {
      for (const c of e.children) if (c.kind === 2) s += c.text;
      return false;
    }
    if (e.name === 'w:tab' || e.name === 'w:ptab') s += '\t';
    else if (e.name === 'w:br' || e.name === 'w:cr') s += '\n';
    else if (e.name === 'w:noBreakHyphen') s += '-';
    return e.name !== 'w:rPr' && e.name !== 'mc:Fallback';
  });
  return s;
}
