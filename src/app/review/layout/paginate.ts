import { CLS, type HeaderFooterRef, type SectionProps } from './annotate';
import { flowPages, type FlowBlock, type FlowPage, type Piece } from './flow';
import { formatNumber } from './number-format';
import { pageBorderStyle } from '../page-borders';

/** What the page layout needs besides docx-preview's HTML (see render.ts). */
export interface PageContext {
  sections: readonly SectionProps[];
  /** The rendered header or footer of a section's reference, by `${section}|${kind}|${type}`. */
  headerFooter: ReadonlyMap<string, HTMLElement>;
  evenAndOddHeaders: boolean;
  footnoteFormat?: string;
  endnoteFormat?: string;
}

/** A chunk is what docx-preview renders as one <section>: the text between explicit breaks (page breaks, section ends). */
interface Chunk {
  el: HTMLElement;
  section: number;
  startsSection: boolean;
  height: number;
  blocks: HTMLElement[];
  flow: FlowBlock[];
  /** Where a paragraph splits: line top (chunk flow y) → the text position it starts at. */
  notes: HTMLElement[];
  /** For each block, the indexes (into `notes`) of the footnotes referenced in it, and per row of a table. */
  noteIndex: Map<Element, number>;
}

interface LaidPage {
  chunk: Chunk;
  parts: { chunk: Chunk; pieces: Piece[] }[];
  section: number;
  firstOfSection: boolean;
  blank?: boolean;
  number: number;
}

const DEFAULT_PAGE_PX = 1056; // Letter, 11 in, when a section gives no w:pgSz

const px = (v: string) => {
  const n = parseFloat(v);
  return Number.isFinite(n) ? n : 0;
};

/**
 * Lays docx-preview's output out in pages as Word would: each chunk's blocks flow over pages of
 * its section's height by their measured heights (flow.ts); each page gets the header and footer
 * Word would choose, its page fields computed, its footnotes at its foot. `wrapper` must be in
 * the document (it is measured) at the pages' own width. Answers the number of pages.
 */
export function paginate(wrapper: HTMLElement, ctx: PageContext): number {
  const chunkEls = [...wrapper.children].filter((el): el is HTMLElement => el instanceof HTMLElement && el.tagName === 'SECTION');
  if (chunkEls.length === 0) return 0;

  // ---- prepare (writes): endnotes flow after the last block; footnote lists classed.
  const hasEndnotes = wrapper.querySelector(`.${CLS.endnoteRef}`) !== null;
  const lastEl = chunkEls[chunkEls.length - 1]!;
  if (hasEndnotes) {
    const ol = [...lastEl.children].filter((c) => c.tagName === 'OL').pop();
    const article = [...lastEl.children].filter((c) => c.tagName === 'ARTICLE').pop();
    if (ol && article) {
      ol.classList.add('rl-endnotes');
      article.append(ol);
    }
  }
  for (const el of chunkEls) {
    if (el.querySelector(`.${CLS.footnoteRef}`)) el.querySelector(':scope > ol')?.classList.add('rl-footnotes');
  }
  wrapper.classList.add('rl-measuring');

  const t0 = performance.now();
  // One Range for every measure and cut: the browser updates each live Range on every DOM change,
  // and a Range per paragraph made moving 15,000 blocks into pages take minutes.
  const range = document.createRange();
  // ---- measure (reads only).
  let ended = 0;
  let previousEnded = true;
  const chunks: Chunk[] = chunkEls.map((el) => {
    const articles = [...el.children].filter((c): c is HTMLElement => c instanceof HTMLElement && c.tagName === 'ARTICLE');
    const blocks = articles.flatMap((a) => [...a.children].filter((c): c is HTMLElement => c instanceof HTMLElement));
    const last = blocks[blocks.length - 1];
    const ends = last?.classList.contains(CLS.sectionEnd) ? 1 : 0;
    const chunk: Chunk = { el, section: Math.min(ended, ctx.sections.length - 1), startsSection: previousEnded, height: 0, blocks, flow: [], notes: [], noteIndex: new Map() };
    ended += ends;
    previousEnded = ends > 0;
    return chunk;
  });
  for (const chunk of chunks) measure(chunk, range);
  const t1 = performance.now();

  // ---- flow: pages of each chunk; a continuous section goes on where the last one stopped.
  const laid: LaidPage[] = [];
  for (const chunk of chunks) {
    const sect = ctx.sections[chunk.section] ?? {};
    const previous = laid[laid.length - 1];
    const continuous = chunk.startsSection && sect.type === 'continuous' && previous && previous.chunk.height === chunk.height;
    const startUsed = continuous ? usedOn(previous) : 0;
    const pages = flowPages(chunk.flow, chunk.height, startUsed);
    pages.forEach((page: FlowPage, k) => {
      if (k === 0 && continuous) {
        previous.parts.push({ chunk, pieces: page.pieces });
        return;
      }
      laid.push({ chunk, parts: [{ chunk, pieces: page.pieces }], section: chunk.section, firstOfSection: k === 0 && chunk.startsSection, number: 0 });
    });
  }

  // ---- number the pages (restarts from w:pgNumType; a section starting on an odd or even page gets a blank page before it).
  const pages: LaidPage[] = [];
  let n = 0;
  for (const page of laid) {
    const sect = ctx.sections[page.section] ?? {};
    const start = page.firstOfSection ? sect.pageNumber?.start : undefined;
    let next = start ?? n + 1;
    if (page.firstOfSection && pages.length > 0 && ((sect.type === 'oddPage' && next % 2 === 0) || (sect.type === 'evenPage' && next % 2 === 1))) {
      pages.push({ ...page, parts: [], blank: true, firstOfSection: false, section: pages[pages.length - 1]!.section, number: next });
      next++;
    }
    page.number = next;
    n = next;
    pages.push(page);
  }
  const perSection = new Map<number, number>();
  for (const page of pages) perSection.set(page.section, (perSection.get(page.section) ?? 0) + 1);

  // ---- build (writes): the pages, then the page fields and note numbers.
  const t2 = performance.now();
  const splits = splitParagraphs(pages, range);
  const t3 = performance.now();
  const fragment = document.createDocumentFragment();
  const seenInSection = new Map<number, number>();
  pages.forEach((page, index) => {
    const el = page.chunk.el.cloneNode(false) as HTMLElement;
    el.dataset.pageNumber = String(index + 1);
    const border = pageBorderStyle(ctx.sections[page.section]);
    if (border) Object.assign(el.style, border);
    const k = seenInSection.get(page.section) ?? 0;
    seenInSection.set(page.section, k + 1);
    const header = chooseHeaderFooter(ctx, 'header', page, k);
    if (header) el.append(header);
    const notes: HTMLElement[] = [];
    for (const part of page.parts) {
      const article = part.chunk.el.querySelector(':scope > article')!.cloneNode(false) as HTMLElement;
      for (const piece of part.pieces) {
        const block = part.chunk.blocks[piece.block]!;
        const node = piece.rows ? tablePart(block as HTMLTableElement, piece.rows, part.chunk.flow[piece.block]!.headerRows ?? 0) : piece.lines ? splits.get(block)!.get(piece.lines.from)! : block;
        article.append(node);
        for (const ref of node.querySelectorAll(`.${CLS.footnoteRef}`)) {
          const i = part.chunk.noteIndex.get(ref);
          const li = i === undefined ? undefined : part.chunk.notes[i];
          if (li) notes.push(li);
        }
      }
      el.append(article);
    }
    if (notes.length > 0) {
      const ol = document.createElement('ol');
      ol.className = 'rl-footnotes';
      ol.append(...notes);
      el.append(ol);
    }
    const footer = chooseHeaderFooter(ctx, 'footer', page, k);
    if (footer) el.append(footer);
    fillFields(el, page, pages.length, perSection.get(page.section) ?? 1, ctx);
    fragment.append(el);
  });
  numberNotes(fragment, ctx);
  wrapper.replaceChildren(fragment);
  wrapper.classList.remove('rl-measuring');
  range.collapse(true);
  // Where the layout's time goes (read by benchmarks): measure, flow, cut paragraphs, build.
  wrapper.dataset.layoutPhases = [t1 - t0, t2 - t1, t3 - t2, performance.now() - t3].map(Math.round).join(',');
  return pages.length;
}

function measure(chunk: Chunk, range: Range): void {
  const style = getComputedStyle(chunk.el);
  const pageHeight = px(style.minHeight) || DEFAULT_PAGE_PX;
  chunk.height = pageHeight - px(style.paddingTop) - px(style.paddingBottom);
  const base = chunk.el.getBoundingClientRect().top;
  const list = chunk.el.querySelector(':scope > ol.rl-footnotes');
  chunk.notes = list ? [...list.children].filter((c): c is HTMLElement => c instanceof HTMLElement) : [];
  const noteHeights = chunk.notes.map((li) => li.getBoundingClientRect().height);
  // docx-preview lists a chunk's footnotes in the order of their references.
  chunk.el.querySelectorAll(`.${CLS.footnoteRef}`).forEach((ref, i) => chunk.noteIndex.set(ref, i));
  const notesIn = (el: Element) => [...el.querySelectorAll(`.${CLS.footnoteRef}`)].map((r) => noteHeights[chunk.noteIndex.get(r) ?? -1] ?? 0);
  chunk.flow = chunk.blocks.map((el) => {
    const r = el.getBoundingClientRect();
    const block: FlowBlock = { top: r.top - base, bottom: r.bottom - base, notes: notesIn(el), keepNext: el.classList.contains(CLS.keepNext) };
    if (el instanceof HTMLTableElement) {
      const rows = [...el.rows];
      block.rows = rows.map((row) => {
        const rr = row.getBoundingClientRect();
        return { top: rr.top - base, bottom: rr.bottom - base, notes: notesIn(row) };
      });
      let header = 0;
      while (header < rows.length && rows[header]!.classList.contains(CLS.headerRow)) header++;
      block.headerRows = header;
      block.notes = [];
    } else if (el.tagName === 'P' && !el.classList.contains(CLS.keepLines) && r.height > 60) {
      block.lineTops = lineTops(el, base, range);
    }
    return block;
  });
}

/** The tops of a paragraph's lines after its first (flow y), from its inline boxes. */
function lineTops(p: HTMLElement, base: number, range: Range): number[] {
  range.selectNodeContents(p);
  const rects = [...range.getClientRects()].filter((r) => r.height > 0 && r.width > 0).sort((a, b) => a.top - b.top);
  const tops: number[] = [];
  let lineTop = -Infinity;
  let lineBottom = -Infinity;
  for (const r of rects) {
    // A box starting below the middle of the current line starts a new line.
    if (r.top >= (lineTop + lineBottom) / 2 && r.top > lineTop + 1) {
      if (lineTop !== -Infinity) tops.push(r.top - base);
      lineTop = r.top;
      lineBottom = r.bottom;
    } else lineBottom = Math.max(lineBottom, r.bottom);
  }
  return tops;
}

/** The used height of a laid page's last part (for a continuous section to go on below it). */
function usedOn(page: LaidPage): number {
  const part = page.parts[page.parts.length - 1];
  if (!part || part.pieces.length === 0) return 0;
  const first = part.pieces[0]!;
  const last = part.pieces[part.pieces.length - 1]!;
  const top = first.lines ? first.lines.from : first.rows ? part.chunk.flow[first.block]!.rows![first.rows.from]!.top : part.chunk.flow[first.block]!.top;
  const bottom = last.lines ? last.lines.to : last.rows ? part.chunk.flow[last.block]!.rows![last.rows.to - 1]!.bottom : part.chunk.flow[last.block]!.bottom;
  return bottom - top + (page.parts.length > 1 ? usedOn({ ...page, parts: page.parts.slice(0, -1) }) : 0);
}

/**
 * Paragraphs that break across pages, cut at their line tops (found while the draft is still
 * laid out as measured): answers, per paragraph, its part starting at each `from`.
 */
function splitParagraphs(pages: readonly LaidPage[], range: Range): Map<HTMLElement, Map<number, HTMLElement>> {
  const cuts = new Map<HTMLElement, { chunk: Chunk; froms: number[] }>();
  for (const page of pages) {
    for (const part of page.parts) {
      for (const piece of part.pieces) {
        if (!piece.lines) continue;
        const el = part.chunk.blocks[piece.block]!;
        const entry = cuts.get(el) ?? { chunk: part.chunk, froms: [] };
        entry.froms.push(piece.lines.from);
        cuts.set(el, entry);
      }
    }
  }
  // Positions first (reads), then the cuts (writes).
  const positions = new Map<HTMLElement, { from: number; at: { node: Text; offset: number } | null }[]>();
  for (const [el, { chunk, froms }] of cuts) {
    const base = chunk.el.getBoundingClientRect().top;
    positions.set(el, froms.map((from, i) => ({ from, at: i === 0 ? null : textAt(el, from + base, range) })));
  }
  const out = new Map<HTMLElement, Map<number, HTMLElement>>();
  for (const [el, list] of positions) {
    const parts = new Map<number, HTMLElement>();
    // From the last cut back: earlier positions stay valid in what is left.
    for (let i = list.length - 1; i >= 1; i--) {
      const { from, at } = list[i]!;
      const rest = at ? cutAt(el, at, range) : null;
      if (rest) parts.set(from, rest);
      else parts.set(from, document.createElement('p'));
    }
    if (list.length > 1) el.classList.add('rl-broken');
    parts.set(list[0]!.from, el);
    out.set(el, parts);
  }
  return out;
}

/** The first character of the line whose top is at viewport y `y`. */
function textAt(p: HTMLElement, y: number, range: Range): { node: Text; offset: number } | null {
  const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    range.selectNodeContents(node);
    const rects = range.getClientRects();
    const lastRect = rects[rects.length - 1];
    if (!lastRect || lastRect.bottom <= y + 1) continue;
    // Binary search: the first offset whose character starts at or below y.
    let lo = 0;
    let hi = node.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      range.setStart(node, mid);
      range.setEnd(node, Math.min(node.length, mid + 1));
      const r = range.getBoundingClientRect();
      if (r.top >= y - 1) hi = mid;
      else lo = mid + 1;
    }
    if (lo < node.length) return { node, offset: lo };
  }
  return null;
}

/** Cuts `p` at a text position: `p` keeps what is before, the answer (a copy of `p`) holds the rest. */
function cutAt(p: HTMLElement, at: { node: Text; offset: number }, range: Range): HTMLElement {
  const path: number[] = [];
  for (let n: Node = at.node; n !== p; n = n.parentNode!) path.unshift([...n.parentNode!.childNodes].indexOf(n as ChildNode));
  const rest = p.cloneNode(true) as HTMLElement;
  let twin: Node = rest;
  for (const i of path) twin = twin.childNodes[i]!;
  range.setStart(at.node, at.offset);
  range.setEnd(p, p.childNodes.length);
  range.deleteContents();
  range.setStart(rest, 0);
  range.setEnd(twin, at.offset);
  range.deleteContents();
  rest.classList.add('rl-continued');
  rest.classList.remove('rl-broken');
  for (const el of rest.querySelectorAll('[id]')) if (p.querySelector(`#${CSS.escape(el.id)}`)) el.removeAttribute('id');
  return rest;
}

/** Rows from..to of a table, under copies of its header rows when they are not among them. */
function tablePart(table: HTMLTableElement, rows: { from: number; to: number }, headerRows: number): HTMLElement {
  const all = [...table.rows];
  if (rows.from === 0 && rows.to === all.length) return table;
  const part = table.cloneNode(false) as HTMLTableElement;
  for (const col of table.querySelectorAll(':scope > colgroup')) part.append(col.cloneNode(true));
  if (rows.from >= headerRows && rows.from > 0) {
    for (const row of all.slice(0, headerRows)) {
      const copy = row.cloneNode(true) as HTMLElement;
      for (const el of copy.querySelectorAll('[id]')) el.removeAttribute('id');
      part.append(copy);
    }
  }
  part.append(...all.slice(rows.from, rows.to));
  return part;
}

/**
 * The header or footer Word shows on a page: the first-page one on a section's first page when
 * it has a title page, the even one on even pages when the document has even and odd headers,
 * else the default; a section without one of its own inherits the previous section's.
 */
function chooseHeaderFooter(ctx: PageContext, kind: 'header' | 'footer', page: LaidPage, indexInSection: number): HTMLElement | null {
  const sect = ctx.sections[page.section] ?? {};
  const type = sect.titlePage && indexInSection === 0 && !page.blank ? 'first' : ctx.evenAndOddHeaders && page.number % 2 === 0 ? 'even' : 'default';
  for (let s = page.section; s >= 0; s--) {
    const refs: HeaderFooterRef[] | undefined = kind === 'header' ? ctx.sections[s]?.headerRefs : ctx.sections[s]?.footerRefs;
    if (refs?.some((r) => r.type === type)) {
      const template = ctx.headerFooter.get(`${s}|${kind}|${type}`);
      return template ? (template.cloneNode(true) as HTMLElement) : null;
    }
  }
  return null;
}

function fillFields(el: HTMLElement, page: LaidPage, total: number, inSection: number, ctx: PageContext): void {
  const sectionFormat = ctx.sections[page.section]?.pageNumber?.format;
  for (const field of el.querySelectorAll<HTMLElement>(`.${CLS.field}`)) {
    const format = [...field.classList].find((c) => c.startsWith('rl-fmt-'))?.slice('rl-fmt-'.length);
    const value = field.classList.contains('rl-field-page') ? page.number : field.classList.contains('rl-field-numpages') ? total : inSection;
    // PAGE takes the section's format unless its own switch says; the counts are decimal unless switched.
    const fmt = format === 'section' ? (field.classList.contains('rl-field-page') ? sectionFormat : 'decimal') : format;
    field.textContent = formatNumber(value, fmt);
  }
}

/** Footnotes numbered through the document (Word's default), endnotes likewise, in their formats. */
function numberNotes(root: DocumentFragment, ctx: PageContext): void {
  const number = (refSelector: string, listSelector: string, format: string) => {
    const refs = [...root.querySelectorAll<HTMLElement>(refSelector)];
    const labels = refs.map((_, i) => formatNumber(i + 1, format));
    refs.forEach((ref, i) => {
      const sup = ref.querySelector('sup') ?? ref;
      sup.textContent = labels[i]!;
    });
    return labels;
  };
  const footLabels = number(`.${CLS.footnoteRef}`, 'ol.rl-footnotes', ctx.footnoteFormat ?? 'decimal');
  let i = 0;
  for (const li of root.querySelectorAll<HTMLElement>('ol.rl-footnotes > li')) label(li, footLabels[i++]);
  const endLabels = number(`.${CLS.endnoteRef}`, 'ol.rl-endnotes', ctx.endnoteFormat ?? 'lowerRoman');
  i = 0;
  for (const li of root.querySelectorAll<HTMLElement>('ol.rl-endnotes > li')) label(li, endLabels[i++]);
}

function label(li: HTMLElement, text: string | undefined): void {
  if (text === undefined) return;
  li.dataset.note = text;
  const mark = document.createElement('sup');
  mark.className = 'rl-note-label';
  mark.textContent = text;
  const target = li.querySelector('p') ?? li;
  target.prepend(mark);
}
