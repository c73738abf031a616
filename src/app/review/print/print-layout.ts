import { changeBookmarkName } from '../../../contract/bookmark';
import { commentRangeBookmarks } from '../../../contract/comments';
import { flowIntoSheets, type Paper } from './sheets';
import type { PrintNote, PrintSummary } from './summary';
import './print.css';

/**
 * The printed redline, built from the pages the view has laid out: a copy of them (the view
 * stays as it is), each on paper of its own size, after summary sheets that say what the
 * document is and list its entries, with each comment numbered in the margin where its range
 * starts and its thread after the page it is on. The browser prints it (window.print, or a
 * headless browser's PDF): `html.rl-printing` makes it all that prints.
 */
export interface PrintLayout {
  root: HTMLElement;
  /** The view's pages printed, and the sheets added (summary, comments): the PDF has their sum. */
  pages: number;
  sheets: number;
  dispose(): void;
}

export interface PrintContent {
  /** The summary, given the printed page label of a change (null: not on the pages). */
  summary(pageOf: (changeId: string) => string | null): PrintSummary;
  /** The comment threads as notes, numbered in the order of `placeOf` (a place in the pages, or null). */
  notes(placeOf: (commentId: string) => number | null): PrintNote[];
}

/** Paper for the summary when the view has no page (an empty draft): US Letter. */
const LETTER: Omit<Paper, 'name'> = { width: '612pt', height: '792pt' };

/** Builds the print layout from `rendered` (DocumentView's host, laid out in pages). */
export function buildPrintLayout(rendered: HTMLElement, content: PrintContent): PrintLayout {
  const startedAt = performance.now();
  const root = document.createElement('div');
  root.className = 'rl-print-root doc-view';
  root.setAttribute('aria-hidden', 'true');
  root.dataset.testid = 'print-root';
  const cover = document.createElement('div');
  cover.className = 'rl-print-cover';
  const body = [...rendered.children].find((el) => el.querySelector('.docx-wrapper'))?.cloneNode(true) as HTMLElement | undefined;
  root.append(cover);
  if (body) root.append(body);
  document.body.append(root);

  // The copy's ids are looked up here, then dropped: the view's own must stay the only ones.
  // (In document order: an id's index is its place in the pages.)
  const byId = new Map<string, { el: HTMLElement; at: number }>();
  let at = 0;
  for (const el of root.querySelectorAll<HTMLElement>('[id]')) {
    if (!byId.has(el.id)) byId.set(el.id, { el, at: at++ });
    el.removeAttribute('id');
  }
  for (const el of root.querySelectorAll('.rl-here, .rl-here-mark')) el.classList.remove('rl-here', 'rl-here-mark');

  const papers = new Map<string, Paper>();
  const paperOf = (width: string, height: string): Paper => {
    const key = `${width} ${height}`;
    let paper = papers.get(key);
    if (!paper) papers.set(key, (paper = { name: `rl-paper-${papers.size}`, width, height }));
    return paper;
  };
  const pages = [...root.querySelectorAll<HTMLElement>('section.docx[data-page-number]')];
  const pagePaper = new Map<HTMLElement, Paper>();
  for (const page of pages) {
    const paper = paperOf(page.style.width || LETTER.width, page.style.minHeight || LETTER.height);
    page.classList.add('rl-print-page');
    page.style.setProperty('page', paper.name);
    pagePaper.set(page, paper);
  }
  const pageOfElement = (el: Element | undefined) => el?.closest<HTMLElement>('section.rl-print-page') ?? null;

  // Comments: numbered in the order their ranges start in the pages.
  const starts = new Map<string, HTMLElement>();
  const numbered = content.notes((commentId) => {
    const start = byId.get(commentRangeBookmarks(commentId).start);
    if (!start || !pageOfElement(start.el)) return null;
    starts.set(commentId, start.el);
    return start.at;
  });

  const firstPaper = pagePaper.get(pages[0]!) ?? paperOf(LETTER.width, LETTER.height);
  const pageLabelOf = (changeId: string) => pageOfElement(byId.get(changeBookmarkName(changeId))?.el)?.dataset.pageLabel ?? null;
  const summary = content.summary(pageLabelOf);
  const unplaced = numbered.filter((n) => !starts.has(n.commentId));
  const { head, headings, rows } = summaryBlocks(summary);
  // The column headings on every sheet of the list: the first has them under its title.
  if (rows.length > 0) head.append(headings);
  const coverSheets = flowIntoSheets({ parent: cover }, firstPaper, [head, ...rows], (sheet, i) => {
    if (i > 0) sheet.append(text('p', `${summary.title} (continued)`, 'rl-print-who'), headings.cloneNode(true));
    return sheet;
  });
  if (unplaced.length > 0) {
    coverSheets.push(...flowIntoSheets({ parent: cover }, firstPaper, notesBlocks(unplaced), (sheet) => {
      sheet.append(text('h2', 'Comments with no place in the pages'));
      return sheet;
    }));
  }

  // Each page's comments: a number in its margin, the threads on sheets right after it.
  const byPage = new Map<HTMLElement, PrintNote[]>();
  for (const note of numbered) {
    const start = starts.get(note.commentId);
    const page = pageOfElement(start);
    if (!start || !page) continue;
    const mark = text('span', String(note.number), 'rl-print-note-mark');
    mark.style.top = `${Math.max(0, start.getBoundingClientRect().top - page.getBoundingClientRect().top)}px`;
    page.append(mark);
    const end = byId.get(commentRangeBookmarks(note.commentId).end)?.el;
    if (end) shadeRange(start, end);
    byPage.set(page, [...(byPage.get(page) ?? []), note]);
  }
  let noteSheets = 0;
  for (const [page, list] of byPage) {
    const label = page.dataset.pageLabel ?? page.dataset.pageNumber ?? '';
    noteSheets += flowIntoSheets({ after: page }, pagePaper.get(page)!, notesBlocks(list), (sheet) => {
      sheet.append(text('h2', `Comments on page ${label}`));
      return sheet;
    }).length;
  }

  const css = document.createElement('style');
  css.textContent = [...papers.values()].map((p) => `@page ${p.name} { size: ${p.width} ${p.height}; margin: 0; }`).join('\n');
  root.prepend(css);
  root.dataset.pages = String(pages.length);
  root.dataset.sheets = String(coverSheets.length + noteSheets);
  root.dataset.coverSheets = String(coverSheets.length);
  // What building it costs before the print dialog opens (the figure in docs/review-app.md).
  root.dataset.buildMs = String(Math.round(performance.now() - startedAt));
  document.documentElement.classList.add('rl-printing');
  return {
    root,
    pages: pages.length,
    sheets: coverSheets.length + noteSheets,
    dispose: () => {
      root.remove();
      document.documentElement.classList.remove('rl-printing');
    },
  };
}

/** The most text nodes one comment's range shades (a range over a whole long draft stops there). */
const MAX_SHADED_NODES = 5000;

/**
 * Shades a comment's range in the copy, as Word shades it: each text node between its bookmarks
 * wrapped in a span with a background (no box of its own: the lines break as they did).
 */
function shadeRange(start: Element, end: Element): void {
  const walker = document.createTreeWalker(start.ownerDocument.body, NodeFilter.SHOW_TEXT);
  walker.currentNode = start;
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node && texts.length < MAX_SHADED_NODES; node = walker.nextNode()) {
    if (end.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING) break;
    if (node.textContent?.trim() && !node.parentElement?.closest('header, footer')) texts.push(node as Text);
  }
  for (const node of texts) {
    const shade = document.createElement('span');
    shade.className = 'rl-print-commented';
    node.before(shade);
    shade.append(node);
  }
}

function text(tag: string, value: string, className?: string): HTMLElement {
  const el = document.createElement(tag);
  el.textContent = value;
  if (className) el.className = className;
  return el;
}

/** The summary's blocks: its title, facts and legend as one, then a row per entry; and the column headings. */
function summaryBlocks(summary: PrintSummary): { head: HTMLElement; headings: HTMLElement; rows: HTMLElement[] } {
  const head = document.createElement('div');
  head.append(text('h1', summary.title));
  const facts = document.createElement('dl');
  facts.className = 'rl-print-facts';
  for (const [label, value] of summary.facts) facts.append(text('dt', label), text('dd', value));
  const legend = document.createElement('p');
  legend.className = 'rl-print-legend';
  legend.append('In the pages that follow: ', text('ins', 'inserted text'), ', ', text('del', 'deleted text'), '; a number in the margin is a comment, listed after its page.');
  head.append(facts, legend, text('h2', summary.counts));
  const row = (cells: readonly string[], className: string) => {
    const el = document.createElement('div');
    el.className = className;
    for (const cell of cells) el.append(text('span', cell));
    return el;
  };
  return {
    head,
    headings: row(['Entry', 'Page', 'Clause', 'Kind', 'By', 'State', 'Text'], 'rl-print-row rl-print-head'),
    rows: summary.entries.map((e) => row([e.label, e.page ?? '–', e.clause ?? '', e.kind, e.author, e.state, e.text], 'rl-print-row')),
  };
}

/** Each note as a block: its number, each comment of the thread (who, when, what), what it is on. */
function notesBlocks(notes: readonly PrintNote[]): HTMLElement[] {
  return notes.map((note) => {
    const el = document.createElement('div');
    el.className = 'rl-print-note';
    el.append(text('span', String(note.number), 'rl-print-note-number'));
    const thread = document.createElement('div');
    note.lines.forEach((line, i) => {
      const p = document.createElement('p');
      if (i > 0) p.className = 'rl-print-reply';
      p.append(text('span', `${line.who}${note.resolved && i === 0 ? ' (resolved)' : ''}: `, 'rl-print-who'), line.text);
      thread.append(p);
    });
    if (note.on) thread.append(text('p', `On: “${note.on}”`, 'rl-print-who'));
    el.append(thread);
    return el;
  });
}
