/**
 * Where the pages break, from measured heights (pure: the DOM is measured and rebuilt in
 * paginate.ts). Heights are CSS pixels in one column of flow, as docx-preview laid the blocks
 * out on one long page: a block's top and bottom are where it sat there.
 */
export interface FlowRow {
  top: number;
  bottom: number;
  /** Heights of the footnotes whose references are in this row. */
  notes: number[];
}

export interface FlowBlock {
  top: number;
  bottom: number;
  notes: number[];
  /** w:keepNext: stays on the page of the block after it. */
  keepNext: boolean;
  /** A table, which may break between its rows; its leading header rows repeat on each page. */
  rows?: FlowRow[];
  headerRows?: number;
  /**
   * A paragraph that may break between lines (not w:keepLines): the tops of its lines after the
   * first, where it may break. Word's widow and orphan control keeps two lines on each side.
   */
  lineTops?: number[];
}

/** A block, or the part of it on one page (rows from..to of a table, or lines of a paragraph from a y to a y). */
export interface Piece {
  block: number;
  rows?: { from: number; to: number };
  lines?: { from: number; to: number } /* y range within the block's flow, to split a paragraph at */;
}

export interface FlowPage {
  pieces: Piece[];
  notes: number;
}

/** The space the footnote separator and gap take above the notes. */
export const NOTE_SEPARATOR_PX = 14;

/**
 * Fills pages of `height` px with the blocks in order. A block that does not fit goes to the next
 * page, with the blocks before it that keep with it; a table breaks between rows (repeating its
 * header rows), a paragraph between lines; a footnote takes space on the page of its reference.
 * A block taller than a whole page stays whole on a page of its own (it is not cut).
 * `startUsed`: px already used on the first page (a continuous section starting mid-page).
 */
export function flowPages(blocks: readonly FlowBlock[], height: number, startUsed = 0): FlowPage[] {
  const pages: FlowPage[] = [];
  let page: FlowPage = { pieces: [], notes: 0 };
  let origin = blocks[0]?.top ?? 0; // the flow y at which the current page's content starts
  let used = startUsed;
  /** Rows of a table being placed on the current page, not yet pushed as a piece. */
  let pendingRows = false;
  const noteSpace = (notes: number[], already: number) => (notes.length === 0 ? 0 : notes.reduce((a, b) => a + b, 0) + (already === 0 ? NOTE_SEPARATOR_PX : 0));
  const fresh = () => page.pieces.length === 0 && used === 0 && !pendingRows;
  const fitsTo = (bottom: number, notes: number[]) => bottom - origin + used + page.notes + noteSpace(notes, page.notes) <= height + 0.5;
  const newPage = (at: number) => {
    pages.push(page);
    page = { pieces: [], notes: 0 };
    origin = at;
    used = 0;
    pendingRows = false;
  };
  const place = (piece: Piece, notes: number[]) => {
    page.notes += noteSpace(notes, page.notes);
    page.pieces.push(piece);
  };
  /** Moves the keep-with-next blocks at the end of the page, and what comes, to a new page starting at `at`. */
  const breakBefore = (at: number) => {
    const moved: Piece[] = [];
    while (page.pieces.length > 1) {
      const last = page.pieces[page.pieces.length - 1]!;
      if (last.rows || last.lines || !blocks[last.block]!.keepNext) break;
      moved.unshift(page.pieces.pop()!);
    }
    // A page that is one chain of keep-with-next blocks breaks where it is full, as in Word.
    const head = page.pieces[0];
    if (moved.length > 0 && page.pieces.length === 1 && head && !head.rows && !head.lines && blocks[head.block]!.keepNext) {
      page.pieces.push(...moved);
      moved.length = 0;
    }
    const notes = moved.flatMap((p) => blocks[p.block]!.notes);
    page.notes = Math.max(0, page.notes - notes.reduce((a, c) => a + c, 0));
    newPage(moved.length > 0 ? blocks[moved[0]!.block]!.top : at);
    for (const p of moved) place(p, blocks[p.block]!.notes);
  };

  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    if (fresh()) origin = b.top;
    if (fresh() && !b.lineTops && !b.rows) {
      place({ block: i }, b.notes);
      continue;
    }
    if (fitsTo(b.bottom, b.notes)) {
      place({ block: i }, b.notes);
      continue;
    }
    if (b.rows && b.rows.length > 0) flowTable(i, b);
    else if (b.lineTops && b.lineTops.length >= 3) flowLines(i, b);
    else if (fresh()) place({ block: i }, b.notes);
    else {
      breakBefore(b.top);
      place({ block: i }, b.notes);
    }
  }
  pages.push(page);
  return pages;

  function flowLines(i: number, b: FlowBlock): void {
    const tops = [b.top, ...b.lineTops!];
    let s = 0;
    for (;;) {
      if (fitsTo(b.bottom, b.notes)) {
        place(s === 0 ? { block: i } : { block: i, lines: { from: tops[s]!, to: b.bottom } }, b.notes);
        return;
      }
      // Break before the last line that fits, with two lines on each side (widow and orphan control).
      let j = -1;
      for (let k = tops.length - 2; k >= s + 2; k--) {
        if (fitsTo(tops[k]!, [])) {
          j = k;
          break;
        }
      }
      if (j < 0) {
        if (fresh()) {
          place(s === 0 ? { block: i } : { block: i, lines: { from: tops[s]!, to: b.bottom } }, b.notes);
          return;
        }
        if (s === 0) breakBefore(b.top);
        else newPage(tops[s]!);
        continue;
      }
      place({ block: i, lines: { from: tops[s]!, to: tops[j]! } }, []);
      newPage(tops[j]!);
      s = j;
    }
  }

  function flowTable(i: number, b: FlowBlock): void {
    const rows = b.rows!;
    const headerRows = Math.min(b.headerRows ?? 0, rows.length);
    const headerHeight = headerRows > 0 ? rows[headerRows - 1]!.bottom - rows[0]!.top : 0;
    let from = 0;
    if (fresh()) origin = rows[0]!.top;
    for (let k = 0; k < rows.length; ) {
      const row = rows[k]!;
      if (fresh() || fitsTo(row.bottom, row.notes)) {
        page.notes += noteSpace(row.notes, page.notes);
        pendingRows = true;
        k++;
        continue;
      }
      if (k > from) page.pieces.push({ block: i, rows: { from, to: k } });
      if (k === 0) breakBefore(row.top);
      // The rest on the next page, under the repeated header rows.
      else newPage(row.top - (k >= headerRows ? headerHeight : 0));
      from = k;
    }
    page.pieces.push({ block: i, rows: { from, to: rows.length } });
    pendingRows = false;
  }
}
