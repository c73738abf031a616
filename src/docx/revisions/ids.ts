import type { PartScan, Site } from './sites';

/**
 * Gives every revision a unique id in the file. Word reuses w:id values across kinds and parts
 * (and some tools write none), so the raw value cannot name a change. Ids that are already unique
 * are kept, in document order, so the change ids of an ingested draft never change; duplicates,
 * missing and malformed ids get fresh numbers above the largest id in use.
 *
 * Returns whether anything was renumbered.
 */
export function assignUniqueIds(scans: readonly PartScan[]): boolean {
  const sites: Site[] = [];
  for (const s of scans) for (const site of s.sites) sites.push(site);
  let max = -1;
  for (const s of sites) if (s.id !== null && /^\d{1,9}$/.test(s.id)) max = Math.max(max, Number(s.id));
  const seen = new Set<string>();
  let changed = false;
  for (const s of sites) {
    // ST_DecimalNumber fits in 32 bits; a longer "id" (a hostile 1 MB attribute, say) is renumbered
    // so every change id stays short enough to name in a request.
    const ok = s.id !== null && /^(0|[1-9]\d{0,8})$/.test(s.id) && !seen.has(s.id);
    if (!ok) {
      setId(s, String(++max));
      changed = true;
    }
    seen.add(s.id!);
    for (const shadow of s.shadows) {
      if (shadow.id !== s.id) {
        setId(shadow, s.id!);
        changed = true;
      }
    }
  }
  return changed;
}

export function setId(site: Site, id: string): void {
  site.id = id;
  if (site.type === 'proposed') site.el.first('w:sdtPr')?.first('w:tag')?.setAttr('w:val', `redline:proposed:${id}`);
  else site.el.setAttr('w:id', id);
  // A tracked control boundary is a range: its end marker carries the same id.
  site.boundary?.end?.setAttr('w:id', id);
}
