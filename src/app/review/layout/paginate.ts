import { CLS, type HeaderFooterRef, type SectionProps } from './annotate';
import { PageFlow, type FlowBlock, type Piece } from './flow';
import { formatNumber } from './number-format';
import { freezeListNumbers } from './list-numbers';
import { numberNotes, type NoteNumbering } from './notes';
import { pageBorderStyle } from '../page-borders';
import { collapseParagraphSpacing, type BlockEnd } from './spacing-collapse';

/** What the page layout needs besides docx-preview's HTML (see render.ts). */
export interface PageContext {
  sections: readonly SectionProps[];
  /** The rendered header or footer of a section's reference, by `${section}|${kind}|${type}`. */
  headerFooter: ReadonlyMap<string, HTMLElement>;
  evenAndOddHeaders: boolean;
  /** How footnotes and endnotes are numbered (w:footnotePr, w:endnotePr). */
  notes: NoteNumbering;
}

/** When the layout gives the main thread back: `shouldYield` says a slice has run long enough, `pause` waits for the next turn. */
export interface Slicer {
  shouldYield(): boolean;
  pause(): Promise<void>;
  /** False once the layout is no longer wanted (a newer render started): it stops. */
  wanted(): boolean;
}

/** Never yields: the whole layout in one go. */
export const WHOLE: Slicer = { shouldYield: () => false, pause: () => Promise.resolve(), wanted: () => true };

/** A chunk is what docx-preview renders as one <section>: the text between explicit breaks (page breaks, section ends). */
interface Chunk {
  el: HTMLElement;
  section: number;
  startsSection: boolean;
  /** The height pages of this chunk hold (page height less its margins); a page's width, and height with the gap below it. */
  height: number;
  outerWidth: number;
  outerHeight: number;
  blocks: HTMLElement[];
  flow: FlowBlock[];
  /** Footnotes listed under the chunk, and which of them each reference points at. */
  notes: HTMLElement[];
  noteHeights: number[];
  noteIndex: Map<Element, number>;
  /** Where the chunk's blocks are measured (off-screen, at the page's width) until their page is built. */
  measurer: HTMLElement;
  article: HTMLElement;
  /** A block broken across pages: its part starting at each piece's `from` (row index or line y). */
  parts: Map<number, Map<number, HTMLElement>>;
}

interface LaidPage {
  chunk: Chunk;
  parts: { chunk: Chunk; pieces: Piece[] }[];
  section: number;
  firstOfSection: boolean;
  blank?: boolean;
  /** It opens after a natural break (not a chunk's first page): its first paragraph drops its space before. */
  natural?: boolean;
  number: number;
}

const DEFAULT_PAGE_PX = 1056; // Letter, 11 in, when a section gives no w:pgSz
/** Blocks measured together at first; the count then follows the time a block takes, for a batch of about BATCH_MS. */
const FIRST_BATCH = 40;
const BATCH_MS = 30;
/** Pages per group the browser may skip while off-screen (styles.css). */
const PAGES_PER_GROUP = 6;

const px = (v: string) => {
  const n = parseFloat(v);
  return Number.isFinite(n) ? n : 0;
};

/** The blocks of a chunk (docx-preview's section element): its articles' children. */
function blocksOf(chunk: HTMLElement): HTMLElement[] {
  return [...chunk.children].filter((c) => c.tagName === 'ARTICLE').flatMap((a) => [...a.children].filter((c): c is HTMLElement => c instanceof HTMLElement));
}

/**
 * Endnotes flow after the last block of the document (docx-preview lists them all under the last
 * chunk, in the order of their references) or, with w:endnotePr w:pos="sectEnd", after the last
 * block of the section that references them.
 */
function placeEndnotes(wrapper: HTMLElement, chunkEls: readonly HTMLElement[], atSectionEnd: boolean): void {
  if (wrapper.querySelector(`.${CLS.endnoteRef}`) === null) return;
  const lastEl = chunkEls[chunkEls.length - 1]!;
  const ol = [...lastEl.children].filter((c) => c.tagName === 'OL').pop();
  const articleOf = (chunk: HTMLElement) => [...chunk.children].filter((c) => c.tagName === 'ARTICLE').pop();
  if (!ol) return;
  ol.classList.add('rl-endnotes');
  if (!atSectionEnd) {
    articleOf(lastEl)?.append(ol);
    return;
  }
  // Each chunk's section, and the last chunk of each section.
  const lastChunkOf = new Map<number, HTMLElement>();
  const sectionOf = new Map<HTMLElement, number>();
  let section = 0;
  for (const chunk of chunkEls) {
    sectionOf.set(chunk, section);
    lastChunkOf.set(section, chunk);
    if (blocksOf(chunk).at(-1)?.classList.contains(CLS.sectionEnd)) section++;
  }
  const notes = [...ol.children];
  const bySection = new Map<number, Element[]>();
  chunkEls.flatMap((chunk) => [...chunk.querySelectorAll(`.${CLS.endnoteRef}`)].map(() => sectionOf.get(chunk)!))
    .forEach((s, i) => {
      const note = notes[i];
      if (note) bySection.set(s, [...(bySection.get(s) ?? []), note]);
    });
  for (const [s, items] of bySection) {
    const list = ol.cloneNode(false) as HTMLElement;
    list.append(...items);
    const chunk = lastChunkOf.get(s);
    const article = chunk ? articleOf(chunk) : undefined;
    // After the section's last block, which then no longer ends the section: the notes do.
    const end = chunk ? blocksOf(chunk).at(-1) : undefined;
    if (end?.classList.contains(CLS.sectionEnd)) {
      end.after(list);
      end.classList.remove(CLS.sectionEnd);
      list.classList.add(CLS.sectionEnd);
    } else article?.append(list);
  }
  ol.remove();
}

/**
 * Lays docx-preview's output out in pages as Word would: each chunk's blocks flow over pages of
 * its section's height by their measured heights (flow.ts); each page gets the header and footer
 * Word would choose, its page fields computed, its footnotes at its foot.
 *
 * Blocks are measured a batch at a time in a small off-screen copy of their page (never the
 * whole draft in one flow, which the browser would lay out in one long task), and each page is
 * built as soon as the flow has completed it; between batches the main thread is given back
 * whenever `slicer` says, so a key is answered while a long draft is laid out. `wrapper` must be
 * in the document (it is measured) at the pages' own width. Answers the number of pages, or null
 * when the slicer said the layout was no longer wanted.
 */
export async function paginate(wrapper: HTMLElement, ctx: PageContext, slicer: Slicer = WHOLE): Promise<number | null> {
  const chunkEls = [...wrapper.children].filter((el): el is HTMLElement => el instanceof HTMLElement && el.tagName === 'SECTION');
  if (chunkEls.length === 0) return 0;
  const times = { measure: 0, build: 0, slices: 0, paused: 0, batches: 0 };

  // Before anything moves: the counters are read as docx-preview laid them out, in document order.
  freezeListNumbers(wrapper);
  placeEndnotes(wrapper, chunkEls, ctx.notes.endnote.position === 'sectEnd');
  // The chunks leave the document: only their measurers are laid out while the pages are
  // measured; the pages are built out of it and join it at the end.
  wrapper.replaceChildren();
  const out = document.createDocumentFragment();
  // One Range for every measure and cut: the browser updates each live Range on every DOM change.
  const range = document.createRange();

  let ended = 0;
  let previousEnded = true;
  const chunks: Chunk[] = chunkEls.flatMap((el) => {
    const articles = [...el.children].filter((c): c is HTMLElement => c instanceof HTMLElement && c.tagName === 'ARTICLE');
    const blocks = articles.flatMap((a) => [...a.children].filter((c): c is HTMLElement => c instanceof HTMLElement));
    // A paragraph with w:pageBreakBefore that opens a page already (the document's first, or the
    // first after a page or section break) leaves docx-preview an empty chunk: Word prints no page for it.
    if (blocks.length === 0 && chunkEls.length > 1) return [];
    const ends = blocks[blocks.length - 1]?.classList.contains(CLS.sectionEnd) ? 1 : 0;
    const measurer = el.cloneNode(false) as HTMLElement;
    measurer.classList.add('rl-measurer');
    const article = (articles[0]?.cloneNode(false) as HTMLElement | undefined) ?? document.createElement('article');
    measurer.append(article);
    const list = el.querySelector(`.${CLS.footnoteRef}`) ? el.querySelector<HTMLElement>(':scope > ol') : null;
    const notes = list ? [...list.children].filter((c): c is HTMLElement => c instanceof HTMLElement) : [];
    if (list) {
      list.classList.add('rl-footnotes');
      measurer.append(list);
    }
    const noteIndex = new Map<Element, number>();
    // docx-preview lists a chunk's footnotes in the order of their references.
    el.querySelectorAll(`.${CLS.footnoteRef}`).forEach((ref, i) => noteIndex.set(ref, i));
    const chunk: Chunk = {
      el, section: Math.min(ended, ctx.sections.length - 1), startsSection: previousEnded, height: 0, outerWidth: 0, outerHeight: 0, blocks, flow: [],
      notes, noteHeights: [], noteIndex, measurer, article, parts: new Map(),
    };
    ended += ends;
    previousEnded = ends > 0;
    return [chunk];
  });

  const built: LaidPage[] = [];
  let pageNumber = 0;
  const seenInSection = new Map<number, number>();
  const pageEls: { el: HTMLElement; page: LaidPage }[] = [];
  /** The last page of the chunk before, held until the next chunk says whether it goes on on it (a continuous section). */
  let held: LaidPage | null = null;
  /** What each header and footer takes from the text (headerFooterExtra). */
  const extras = new Map<string, number>();

  const emit = (page: LaidPage) => {
    const t = performance.now();
    // Numbered as it is built (restarts from w:pgNumType; a section starting on an odd or even page gets a blank page before it).
    const sect = ctx.sections[page.section] ?? {};
    let next = (page.firstOfSection ? sect.pageNumber?.start : undefined) ?? pageNumber + 1;
    if (page.firstOfSection && built.length > 0 && ((sect.type === 'oddPage' && next % 2 === 0) || (sect.type === 'evenPage' && next % 2 === 1))) {
      const blank: LaidPage = { ...page, parts: [], blank: true, firstOfSection: false, section: built[built.length - 1]!.section, number: next };
      appendPage(blank);
      next++;
    }
    page.number = next;
    pageNumber = next;
    appendPage(page);
    times.build += performance.now() - t;
  };
  let group: { el: HTMLElement; pages: number; height: number } | null = null;
  const appendPage = (page: LaidPage) => {
    built.push(page);
    const el = buildPage(page, ctx, built.length, seenInSection);
    pageEls.push({ el, page });
    if (!group || group.pages === PAGES_PER_GROUP) {
      group = { el: document.createElement('div'), pages: 0, height: 0 };
      group.el.className = 'rl-page-group';
      out.append(group.el);
    }
    group.el.append(el);
    group.pages++;
    group.height += page.chunk.outerHeight;
    group.el.style.containIntrinsicSize = `auto ${page.chunk.outerWidth}px ${Math.round(group.height)}px`;
  };

  for (const chunk of chunks) {
    if (!slicer.wanted()) return null;
    wrapper.append(chunk.measurer);
    const t = performance.now();
    const style = getComputedStyle(chunk.measurer);
    const pageHeight = px(style.minHeight) || DEFAULT_PAGE_PX;
    chunk.height = pageHeight - px(style.paddingTop) - px(style.paddingBottom);
    chunk.outerWidth = chunk.measurer.offsetWidth;
    chunk.outerHeight = pageHeight + px(style.marginBottom);
    chunk.noteHeights = chunk.notes.map((li) => li.getBoundingClientRect().height);
    times.measure += performance.now() - t;

    const sect = ctx.sections[chunk.section] ?? {};
    const continuous = held !== null && chunk.startsSection && sect.type === 'continuous' && held.chunk.height === chunk.height;
    // Page k of this chunk holds the chunk's height less what a tall header or footer takes.
    const firstIndex = seenInSection.get(chunk.section) ?? 0;
    const firstNumber = pageNumber + (held ? 1 : 0) + 1;
    const heightOf = (k: number) => {
      const section = continuous && k === 0 && held ? held.section : chunk.section;
      const type = pageType(ctx, section, chunk.startsSection && !continuous ? k : firstIndex + k, firstNumber + k, false);
      return chunk.height - headerFooterExtra(ctx, headerFooterKey(ctx, 'header', section, type), chunk.measurer, extras) - headerFooterExtra(ctx, headerFooterKey(ctx, 'footer', section, type), chunk.measurer, extras);
    };
    // Measured now, before the blocks' reads.
    for (let k = 0; k < 2; k++) heightOf(k);
    const flow = new PageFlow(heightOf, continuous && held ? usedOn(held) : 0);
    let completed = 0;
    /** The page the flow completed as page `k` of this chunk (its first goes on the held page of a continuous section). */
    const laid = (k: number): LaidPage | null => {
      const pieces = flow.pages[k]!.pieces;
      if (k === 0 && continuous && held) {
        held.parts.push({ chunk, pieces });
        return null;
      }
      return { chunk, parts: [{ chunk, pieces }], section: chunk.section, firstOfSection: k === 0 && chunk.startsSection, natural: k > 0, number: 0 };
    };
    /** Builds the pages the flow has completed since the last call. */
    const buildCompleted = () => {
      for (; completed < flow.pages.length; completed++) {
        const page = laid(completed);
        if (!page) continue;
        if (held) emit(held);
        held = null;
        emit(page);
      }
    };

    let batch = FIRST_BATCH;
    // The end of the last block measured: its element now (a block's last part once cut) and its flow y.
    let last: { el: HTMLElement; bottom: number } | null = null;
    let spacingEnd: BlockEnd | null = null;
    for (let start = 0; start < chunk.blocks.length; ) {
      if (slicer.shouldYield()) {
        const p0 = performance.now();
        times.slices++;
        await slicer.pause();
        times.paused += performance.now() - p0;
        if (!slicer.wanted()) return null;
      }
      const sliceStart = performance.now();
      times.batches++;
      const end = Math.min(chunk.blocks.length, start + batch);
      const els = chunk.blocks.slice(start, end);
      // Writes: the batch joins the measurer, after what is not yet on a built page.
      chunk.article.append(...els);
      // Space after and before between paragraphs: the larger, as Word sets it (spacing-collapse.ts).
      spacingEnd = collapseParagraphSpacing(els, spacingEnd);
      // Reads: positions relative to the end of the block before (the flow's y goes on from it).
      const reference = last ? last.el.getBoundingClientRect().bottom : chunk.article.getBoundingClientRect().top;
      const offset = (last?.bottom ?? 0) - reference;
      let shown = -1;
      for (let i = start; i < end; i++) {
        const el = chunk.blocks[i]!;
        // A hidden block (display: none) has no box: it sits where the block before ends.
        const hidden = el.getClientRects().length === 0;
        const before = chunk.flow[i - 1]?.bottom ?? 0;
        const block = hidden ? { top: before, bottom: before, notes: [], keepNext: false } : measureBlock(chunk, el, offset, range);
        if (!hidden) shown = i;
        chunk.flow.push(block);
        flow.add(block);
      }
      // Reads: where paragraphs broken across pages are cut (still laid out as measured).
      const cuts = paragraphCuts(chunk, flow, start, end, offset, range);
      times.measure += performance.now() - sliceStart;
      const writeStart = performance.now();
      // Writes: the cuts, then the pages completed.
      for (const [i, at] of cuts) cutParagraph(chunk, i, at, range);
      for (let i = start; i < end; i++) if (chunk.flow[i]!.rows) cutTable(chunk, i, flow);
      if (shown >= 0) {
        const lastParts = chunk.parts.get(shown);
        last = { el: lastParts ? [...lastParts.values()].pop()! : chunk.blocks[shown]!, bottom: chunk.flow[shown]!.bottom };
      }
      times.measure += performance.now() - writeStart;
      buildCompleted();
      const perBlock = (performance.now() - sliceStart) / (end - start);
      batch = Math.max(4, Math.min(400, Math.round(BATCH_MS / Math.max(perBlock, 0.01))));
      start = end;
    }
    // The chunk's last page waits for the next chunk: a continuous section may go on on it.
    flow.end();
    const lastPage = laid(flow.pages.length - 1);
    if (lastPage) {
      if (held) emit(held);
      held = lastPage;
    }
    chunk.measurer.remove();
  }
  if (held) emit(held);
  // The pages' fields and notes, once their totals are known.
  const perSection = new Map<number, number>();
  for (const page of built) perSection.set(page.section, (perSection.get(page.section) ?? 0) + 1);
  const t = performance.now();
  for (const { el, page } of pageEls) fillFields(el, page, built.length, perSection.get(page.section) ?? 1, ctx);
  numberNotes(pageEls.map(({ el }) => el), ctx.notes);
  times.build += performance.now() - t;
  range.collapse(true);
  wrapper.append(out);
  wrapper.dataset.layoutPhases = [times.measure, times.build, times.slices, times.paused, times.batches].map(Math.round).join(',');
  return built.length;
}

/** A block's place in the flow (reads only); `offset` turns viewport y into flow y. */
function measureBlock(chunk: Chunk, el: HTMLElement, offset: number, range: Range): FlowBlock {
  const notesIn = (within: Element) => [...within.querySelectorAll(`.${CLS.footnoteRef}`)].map((r) => chunk.noteHeights[chunk.noteIndex.get(r) ?? -1] ?? 0);
  const r = el.getBoundingClientRect();
  const block: FlowBlock = { top: r.top + offset, bottom: r.bottom + offset, notes: notesIn(el), keepNext: el.classList.contains(CLS.keepNext) };
  // A bordered top's spacing is a margin, outside the box measured (paragraph-borders.ts): its padding is the border's space, which stays.
  if (el.tagName === 'P') {
    const style = getComputedStyle(el);
    if (!el.classList.contains('rl-bordered-top')) block.spaceBefore = px(style.paddingTop);
    // A bordered bottom's spacing is a margin, outside the box measured already.
    if (!el.classList.contains('rl-bordered-bottom')) block.spaceAfter = px(style.paddingBottom);
  }
  if (el instanceof HTMLTableElement) {
    const rows = [...el.rows];
    block.rows = rows.map((row) => {
      const rr = row.getBoundingClientRect();
      return { top: rr.top + offset, bottom: rr.bottom + offset, notes: notesIn(row) };
    });
    let header = 0;
    while (header < rows.length && rows[header]!.classList.contains(CLS.headerRow)) header++;
    block.headerRows = header;
    block.notes = [];
  } else if (el.tagName === 'P' && !el.classList.contains(CLS.keepLines) && r.height > 60) {
    // Only a paragraph the flow breaks needs its lines: read when the flow asks, before any write.
    let tops: number[] | undefined;
    Object.defineProperty(block, 'lineTops', { enumerable: true, get: () => (tops ??= lineTops(el, offset, range)) });
  }
  return block;
}

/** The tops of a paragraph's lines after its first (flow y), from its inline boxes. */
function lineTops(p: HTMLElement, offset: number, range: Range): number[] {
  range.selectNodeContents(p);
  const rects = [...range.getClientRects()].filter((r) => r.height > 0 && r.width > 0).sort((a, b) => a.top - b.top);
  const tops: number[] = [];
  let lineTop = -Infinity;
  let lineBottom = -Infinity;
  for (const r of rects) {
    // A box starting below the middle of the current line starts a new line.
    if (r.top >= (lineTop + lineBottom) / 2 && r.top > lineTop + 1) {
      if (lineTop !== -Infinity) tops.push(r.top + offset);
      lineTop = r.top;
      lineBottom = r.bottom;
    } else lineBottom = Math.max(lineBottom, r.bottom);
  }
  return tops;
}

/** The pieces of block `i` placed so far (complete pages and the page being filled). */
function piecesOf(flow: PageFlow, i: number): Piece[] {
  const out: Piece[] = [];
  for (let k = flow.pages.length - 1; k >= 0; k--) {
    const pieces = flow.pages[k]!.pieces;
    if (pieces.length > 0 && pieces[pieces.length - 1]!.block < i) break;
    out.unshift(...pieces.filter((p) => p.block === i));
  }
  out.push(...flow.current.pieces.filter((p) => p.block === i));
  return out;
}

/** For each paragraph of blocks start..end that the flow broke: the text position each later part starts at (reads). */
function paragraphCuts(chunk: Chunk, flow: PageFlow, start: number, end: number, offset: number, range: Range): Map<number, { from: number; at: { node: Text; offset: number } | null }[]> {
  const out = new Map<number, { from: number; at: { node: Text; offset: number } | null }[]>();
  for (let i = start; i < end; i++) {
    const block = chunk.flow[i]!;
    if (block.rows) continue;
    const pieces = piecesOf(flow, i).filter((p) => p.lines);
    if (pieces.length === 0) continue;
    const el = chunk.blocks[i]!;
    out.set(i, pieces.map((p) => ({ from: p.lines!.from, at: p.lines!.from <= block.top ? null : textAt(el, p.lines!.from - offset, range) })));
  }
  return out;
}

/** Cuts paragraph `i` at its positions, from the last back (earlier positions stay valid in what is left); the parts follow it in the measurer. */
function cutParagraph(chunk: Chunk, i: number, list: { from: number; at: { node: Text; offset: number } | null }[], range: Range): void {
  const el = chunk.blocks[i]!;
  const rests: { from: number; el: HTMLElement }[] = [];
  for (let k = list.length - 1; k >= 0; k--) {
    const { from, at } = list[k]!;
    if (k === 0 && !at) continue;
    rests.unshift({ from, el: at ? cutAt(el, at, range) : document.createElement('p') });
  }
  // In document order: the last part is the last value.
  const parts = new Map<number, HTMLElement>();
  if (!list[0]!.at) parts.set(list[0]!.from, el);
  for (const rest of rests) parts.set(rest.from, rest.el);
  if (rests.length > 0) el.classList.add('rl-broken');
  el.after(...rests.map((r) => r.el));
  chunk.parts.set(i, parts);
}

/** Table `i`, when the flow broke it between rows: a part per piece (under repeated header rows), in the measurer in its place. */
function cutTable(chunk: Chunk, i: number, flow: PageFlow): void {
  const pieces = piecesOf(flow, i);
  if (pieces.length <= 1) return;
  const table = chunk.blocks[i] as HTMLTableElement;
  const headerRows = chunk.flow[i]!.headerRows ?? 0;
  const rows = [...table.rows];
  const parts = new Map<number, HTMLElement>();
  const els = pieces.map((p) => {
    const part = tablePart(table, rows, p.rows!, headerRows);
    parts.set(p.rows!.from, part);
    return part;
  });
  table.replaceWith(...els);
  chunk.parts.set(i, parts);
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
function tablePart(table: HTMLTableElement, all: HTMLTableRowElement[], rows: { from: number; to: number }, headerRows: number): HTMLElement {
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

/** The used height of a laid page (for a continuous section to go on below it). */
function usedOn(page: LaidPage): number {
  let used = 0;
  for (const { chunk, pieces } of page.parts) {
    if (pieces.length === 0) continue;
    const first = pieces[0]!;
    const last = pieces[pieces.length - 1]!;
    const flow = chunk.flow;
    const top = first.lines ? first.lines.from : first.rows ? flow[first.block]!.rows![first.rows.from]!.top : flow[first.block]!.top;
    const bottom = last.lines ? last.lines.to : last.rows ? flow[last.block]!.rows![last.rows.to - 1]!.bottom : flow[last.block]!.bottom;
    used += bottom - top;
  }
  return used;
}

/** A page's element: its header, its pieces (moved out of their measurers), its footnotes, its footer. */
function buildPage(page: LaidPage, ctx: PageContext, index: number, seenInSection: Map<number, number>): HTMLElement {
  const el = page.chunk.el.cloneNode(false) as HTMLElement;
  el.dataset.pageNumber = String(index);
  // The number the page prints (its section's format, after restarts): what a citation of it says.
  el.dataset.pageLabel = formatNumber(page.number, ctx.sections[page.section]?.pageNumber?.format);
  const border = pageBorderStyle(ctx.sections[page.section]);
  if (border) Object.assign(el.style, border);
  const k = seenInSection.get(page.section) ?? 0;
  seenInSection.set(page.section, k + 1);
  const header = chooseHeaderFooter(ctx, 'header', page, k);
  if (header) el.append(header);
  const notes: HTMLElement[] = [];
  for (const part of page.parts) {
    const article = part.chunk.article.cloneNode(false) as HTMLElement;
    article.dataset.section = String(part.chunk.section);
    for (const piece of part.pieces) {
      const split = part.chunk.parts.get(piece.block);
      const node = (split && split.get(piece.rows ? piece.rows.from : piece.lines ? piece.lines.from : part.chunk.flow[piece.block]!.top)) ?? (split ? split.values().next().value : undefined) ?? part.chunk.blocks[piece.block]!;
      if (page.natural && el.childElementCount === (header ? 1 : 0) && article.childElementCount === 0 && !node.classList.contains('rl-continued')) node.classList.add('rl-page-top');
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
  return el;
}

type PageType = 'first' | 'even' | 'default';

/**
 * Which header or footer Word shows on a page: the first-page one on a section's first page when
 * it has a title page, the even one on even pages when the document has even and odd headers,
 * else the default.
 */
function pageType(ctx: PageContext, section: number, indexInSection: number, number: number, blank: boolean): PageType {
  return ctx.sections[section]?.titlePage && indexInSection === 0 && !blank ? 'first' : ctx.evenAndOddHeaders && number % 2 === 0 ? 'even' : 'default';
}

/** The template of a section's header or footer of a type; a section without one of its own inherits the previous section's. */
function headerFooterKey(ctx: PageContext, kind: 'header' | 'footer', section: number, type: PageType): string | null {
  for (let s = section; s >= 0; s--) {
    const refs: HeaderFooterRef[] | undefined = kind === 'header' ? ctx.sections[s]?.headerRefs : ctx.sections[s]?.footerRefs;
    if (refs?.some((r) => r.type === type)) return ctx.headerFooter.has(`${s}|${kind}|${type}`) ? `${s}|${kind}|${type}` : null;
  }
  return null;
}

function chooseHeaderFooter(ctx: PageContext, kind: 'header' | 'footer', page: LaidPage, indexInSection: number): HTMLElement | null {
  const key = headerFooterKey(ctx, kind, page.section, pageType(ctx, page.section, indexInSection, page.number, page.blank ?? false));
  return key ? (ctx.headerFooter.get(key)!.cloneNode(true) as HTMLElement) : null;
}

/**
 * What a header or footer takes from the text: Word moves the text down (up) when a header
 * (footer) is taller than the space between its distance from the edge and the margin, as
 * docx-preview's header does (its negative margin and minimum height are that space).
 */
function headerFooterExtra(ctx: PageContext, key: string | null, measurer: HTMLElement, cache: Map<string, number>): number {
  if (!key) return 0;
  let extra = cache.get(key);
  if (extra === undefined) {
    const el = ctx.headerFooter.get(key)!.cloneNode(true) as HTMLElement;
    measurer.append(el);
    const style = getComputedStyle(el);
    extra = Math.max(0, el.getBoundingClientRect().height + px(key.includes('|header|') ? style.marginTop : style.marginBottom));
    el.remove();
    cache.set(key, extra);
  }
  return extra;
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
