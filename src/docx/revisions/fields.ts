import { changeClock, lastChanged, type XmlElement } from '../xml/tree';
import type { Site } from './sites';

/** What this module merges: a change as changes.ts groups it, seen only through its sites. */
interface SiteGroup {
  sites: Site[];
}

/**
 * Complex fields decided as units (issue 17.3). Word writes a field deleted (or inserted) under
 * tracking as several w:del (w:ins) wrappers when part of its code stayed untracked, such as a
 * ` \* MERGEFORMAT ` switch between the wrapper holding the begin and the one holding the end.
 * Word treats the whole field as one tracked unit. So when a field's begin and end lie in two
 * wrappers of the same kind, and everything between them is either in wrappers of that kind or an
 * untracked run holding only field code, the wrappers' changes become one change, and each such
 * untracked run joins it as a field-code site (removed when the field is, kept when it stays).
 * Fields are followed within one paragraph level (the wrappers' common parent).
 */
export function mergeFieldUnits<C extends SiteGroup>(changes: C[]): C[] {
  const owner = new Map<XmlElement, C>();
  for (const c of changes) {
    if (c.sites.length === 1 && (c.sites[0]!.type === 'run-del' || c.sites[0]!.type === 'run-ins')) owner.set(c.sites[0]!.el, c);
  }
  if (owner.size < 2) return changes;
  const absorbed = new Set<C>();
  for (const c of changes) {
    if (absorbed.has(c) || !owner.has(c.sites[0]!.el)) continue;
    const lead = c.sites[0]!;
    if (!opensField(lead.el)) continue;
    const unit = fieldUnitFrom(lead, owner);
    if (!unit) continue;
    for (const other of unit.wrappers) {
      const oc = owner.get(other)!;
      c.sites.push(...oc.sites);
      absorbed.add(oc);
    }
    const type = lead.type === 'run-del' ? 'field-code-del' : 'field-code-ins';
    unit.fragments.forEach((run, i) => {
      c.sites.push({ ...lead, type, el: run, id: null, pre: lead.pre + (i + 1) / (unit.fragments.length + 1), shadows: [] });
    });
  }
  return absorbed.size ? changes.filter((c) => !absorbed.has(c)) : changes;
}

/**
 * Whether each wrapper opened a field when last asked, and when: every listing asks it of every
 * inserted and deleted run, and a batch changes a few of them (its answer depends only on the
 * wrapper's own subtree, so it holds while nothing in that changed).
 */
const opensFieldMemo = new WeakMap<XmlElement, { at: number; opens: boolean }>();

/** Whether a wrapper holds a field begin whose end is not inside it. */
function opensField(wrapper: XmlElement): boolean {
  const known = opensFieldMemo.get(wrapper);
  if (known && lastChanged(wrapper) <= known.at) return known.opens;
  const opens = readOpensField(wrapper);
  opensFieldMemo.set(wrapper, { at: changeClock(), opens });
  return opens;
}

function readOpensField(wrapper: XmlElement): boolean {
  let depth = 0;
  let opened = false;
  for (const type of fldCharTypes(wrapper)) {
    if (type === 'begin') {
      depth++;
      opened = true;
    } else if (type === 'end' && depth > 0) depth--;
  }
  return opened && depth > 0;
}

function fldCharTypes(el: XmlElement): string[] {
  const out: string[] = [];
  for (const r of el.elements()) {
    if (r.name !== 'w:r') continue;
    for (const c of r.elements()) if (c.name === 'w:fldChar') out.push(c.attr('w:fldCharType') ?? '');
  }
  return out;
}

/** A run holding nothing but field code (and its properties). */
function isCodeOnly(run: XmlElement): boolean {
  const kids = run.elements().filter((c) => c.name !== 'w:rPr');
  return kids.length > 0 && kids.every((c) => c.name === 'w:instrText');
}

function fieldUnitFrom(lead: Site, owner: ReadonlyMap<XmlElement, SiteGroup>): { wrappers: XmlElement[]; fragments: XmlElement[] } | null {
  const parent = lead.el.parent;
  if (!parent) return null;
  let depth = 0;
  for (const type of fldCharTypes(lead.el)) depth += type === 'begin' ? 1 : type === 'end' ? -1 : 0;
  const wrappers: XmlElement[] = [];
  const fragments: XmlElement[] = [];
  const kids = parent.children;
  for (let i = kids.indexOf(lead.el) + 1; i < kids.length && depth > 0; i++) {
    const k = kids[i]!;
    if (k.kind !== 1) continue;
    if (k.name === lead.el.name && owner.has(k)) {
      wrappers.push(k);
      for (const type of fldCharTypes(k)) depth += type === 'begin' ? 1 : type === 'end' ? -1 : 0;
    } else if (k.name === 'w:r' && isCodeOnly(k)) fragments.push(k);
    else if (k.name === 'w:proofErr' || k.name === 'w:bookmarkStart' || k.name === 'w:bookmarkEnd') continue;
    else return null;
  }
  return depth <= 0 && wrappers.length > 0 && fragments.length > 0 ? { wrappers, fragments } : null;
}
