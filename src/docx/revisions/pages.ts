import type { XmlElement } from '../xml/tree';
import type { Change } from './changes';
import type { PartScan, SiteType } from './sites';
import { NOT_PAGE_CONTENT } from '../pages/recorded-pages';

const MARK_TYPES: ReadonlySet<SiteType> = new Set<SiteType>(['mark-ins', 'mark-del', 'mark-move-from', 'mark-move-to']);

/**
 * The page each change of the main document was on when Word last laid the document out: Word
 * writes a w:lastRenderedPageBreak where each page began (explicit page breaks and section breaks
 * included), so counting them in document order up to a change's first site gives its page as
 * Word showed it. A file that holds none (never laid out by Word: a generated draft, another
 * writer) gives no pages: the number would be a guess. Changes outside the main document (notes,
 * headers, styles) have none either.
 */
export function lastRenderedPages(scans: readonly PartScan[], changes: readonly Change[]): Map<string, number> {
  const out = new Map<string, number>();
  const main = scans.find((s) => s.role === 'document');
  if (!main) return out;
  // A change is where its first site is; a paragraph mark at its paragraph's end (as the listing orders it).
  const atStart = new Map<XmlElement, string[]>();
  const atEnd = new Map<XmlElement, string[]>();
  for (const c of changes) {
    const lead = c.sites.find((s) => s.part === main.part);
    if (!lead) continue;
    const mark = MARK_TYPES.has(lead.type);
    const el = mark ? lead.el.parent?.parent?.parent ?? lead.el : lead.el; // w:p / w:pPr / w:rPr / mark
    const map = mark ? atEnd : atStart;
    map.set(el, [...(map.get(el) ?? []), c.changeId]);
  }
  let page = 1;
  let breaks = 0;
  const stack: { el: XmlElement; exit: boolean }[] = [{ el: main.doc.root, exit: false }];
  while (stack.length) {
    const { el, exit } = stack.pop()!;
    if (NOT_PAGE_CONTENT.has(el.name)) continue; // counted as pages/recorded-pages.ts counts them
    if (exit) {
      for (const id of atEnd.get(el)!) out.set(id, page);
      continue;
    }
    if (el.name === 'w:lastRenderedPageBreak') {
      page++;
      breaks++;
    }
    for (const id of atStart.get(el) ?? []) out.set(id, page);
    if (atEnd.has(el)) stack.push({ el, exit: true });
    for (let i = el.children.length - 1; i >= 0; i--) {
      const child = el.children[i]!;
      if (child.kind === 1) stack.push({ el: child, exit: false });
    }
  }
  return breaks ? out : new Map();
}
