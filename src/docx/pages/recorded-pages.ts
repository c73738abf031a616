import { pageNumberText } from '../../contract/number-text';
import type { XmlElement } from '../xml/tree';

/**
 * The main document's pages as Word last laid them out, for citations the service gives without
 * laying anything out itself (the report, the reading API, the assistant's tools): Word writes a
 * w:lastRenderedPageBreak where each page began, so counting them in document order gives each
 * block's page, and the sections' page numbering (w:pgNumType: w:fmt, w:start) gives the label
 * that page prints ("iii" in roman front matter, "1" again after a restart).
 *
 * A file that holds no such break (never laid out by Word: a generated draft, another writer)
 * has no recorded pages: a number would be a guess. Text boxes and mc:Fallback copies are not
 * counted: their breaks are the text box's or a copy's, not the page's.
 */
export interface RecordedPages {
  /** How many pages Word laid out (breaks + 1). */
  count: number;
  /** The label each page prints, by page (index 0 = page 1), in its section's format and after restarts. */
  labels: readonly string[];
  /** The page each block of the body that is not inside a table (a paragraph, a table) starts on: where its first content is. */
  blockPage: ReadonlyMap<XmlElement, number>;
}

/** Elements whose page breaks are not the page's (see above). */
export const NOT_PAGE_CONTENT: ReadonlySet<string> = new Set(['mc:Fallback', 'w:txbxContent']);

/** What starts a block's content: the first of these in a block is where the block shows on a page. */
const CONTENT = new Set(['w:t', 'w:delText', 'w:tab', 'w:drawing', 'w:pict', 'w:object', 'w:sym', 'w:fldChar', 'w:instrText', 'w:delInstrText', 'w:noBreakHyphen']);

interface SectionNumbering {
  format: string | undefined;
  start: number | undefined;
  /** A section that starts on an odd (even) page: Word leaves a blank page, which takes a number, when the next page would be even (odd). */
  parity: 'odd' | 'even' | undefined;
}

function numberingOf(sectPr: XmlElement | null): SectionNumbering {
  const pgNumType = sectPr?.first('w:pgNumType') ?? null;
  const start = pgNumType?.attr('w:start') ?? null;
  const type = sectPr?.first('w:type')?.attr('w:val');
  return {
    format: pgNumType?.attr('w:fmt') ?? undefined,
    start: start !== null && /^-?\d{1,9}$/.test(start) ? Number(start) : undefined,
    parity: type === 'oddPage' ? 'odd' : type === 'evenPage' ? 'even' : undefined,
  };
}

/** The recorded pages of a main document part's root (w:document), or null when Word recorded none. */
export function recordedPages(root: XmlElement): RecordedPages | null {
  const body = root.first('w:body');
  if (!body) return null;
  const sections: XmlElement[] = [];
  /** The section each page starts in (index 0 = page 1). */
  const pageSection: number[] = [0];
  const blockPage = new Map<XmlElement, number>();
  let page = 1;
  let section = 0;
  let open: XmlElement | null = null; // the block whose first content is not seen yet
  let tables = 0; // how many tables the walk is inside: their paragraphs are the table's

  const visit = (el: XmlElement): void => {
    if (NOT_PAGE_CONTENT.has(el.name)) return;
    if (el.name === 'w:lastRenderedPageBreak') {
      page++;
      pageSection.push(section);
      return;
    }
    if (open && CONTENT.has(el.name)) {
      blockPage.set(open, page);
      open = null;
    }
    if (tables === 0 && (el.name === 'w:p' || el.name === 'w:tbl')) open = el;
    if (el.name === 'w:tbl') tables++;
    for (const child of el.children) if (child.kind === 1) visit(child);
    if (el.name === 'w:tbl') tables--;
    if (el === open) {
      blockPage.set(el, page); // no content (an empty paragraph): the page it ends on
      open = null;
    }
    if (el.name === 'w:p') {
      // A paragraph holding w:sectPr ends its section; the body's own w:sectPr is the last one.
      const sectPr = el.first('w:pPr')?.first('w:sectPr');
      if (sectPr) {
        sections.push(sectPr);
        section++;
      }
    }
  };
  for (const child of body.children) {
    if (child.kind !== 1) continue;
    if (child.name === 'w:sectPr') sections.push(child);
    else visit(child);
  }
  if (page === 1) return null;

  const labels: string[] = [];
  let number = 0;
  for (let i = 0; i < pageSection.length; i++) {
    const own = numberingOf(sections[pageSection[i]!] ?? null);
    const first = i === 0 || pageSection[i] !== pageSection[i - 1];
    number = (first ? own.start : undefined) ?? number + 1;
    if (first && i > 0 && ((own.parity === 'odd' && number % 2 === 0) || (own.parity === 'even' && number % 2 === 1))) number++;
    labels.push(pageNumberText(number, own.format));
  }
  return { count: pageSection.length, labels, blockPage };
}
