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
  /** A paragraph's space before (px): dropped when it opens a page after a natural break, as Word does. */
  spaceBefore?: number;
  /** A paragraph's space after (px): it need not fit on the page, as in Word, which ends the page below the text. */
  spaceAfter?: number;
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

/** Where a block's content ends: above its space after, which Word lets run past the foot of the page. */
function textBottom(b: FlowBlock): number {
  return b.bottom - (b.spaceAfter ?? 0);
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
  const flow = new PageFlow(height, startUsed);
  for (const b of blocks) flow.add(b);
  return flow.end();
}

/**
 * The same flow, fed one block at a time (the layout measures and places a slice of blocks at a
 * time): `pages` holds the pages that are complete, which later blocks never change; the page
 * being filled is complete once a block goes past it, or at `end`.
 */
export class PageFlow {
  readonly pages: FlowPage[] = [];
  private readonly blocks: FlowBlock[] = [];
  private page: FlowPage = { pieces: [], notes: 0 };
  /** The flow y at which the current page's content starts. */
  private origin = 0;
  private used: number;
  /** Rows of a table being placed on the current page, not yet pushed as a piece. */
  private pendingRows = false;

  private readonly heightOf: (page: number) => number;

  /** `height`: what each page holds, or what page k of this flow holds (a taller header takes from it). */
  constructor(height: number | ((page: number) => number), startUsed = 0) {
    this.heightOf = typeof height === 'number' ? () => height : height;
    this.used = startUsed;
  }

  /** The page being filled (its pieces so far). */
  get current(): FlowPage {
    return this.page;
  }

  /** The px used on the page being filled (for a continuous section to go on below it). */
  usedOnCurrent(): number {
    const pieces = this.page.pieces;
    if (pieces.length === 0) return this.used;
    const first = pieces[0]!;
    const last = pieces[pieces.length - 1]!;
    const top = first.lines ? first.lines.from : first.rows ? this.blocks[first.block]!.rows![first.rows.from]!.top : this.blocks[first.block]!.top;
    const bottom = last.lines ? last.lines.to : last.rows ? this.blocks[last.block]!.rows![last.rows.to - 1]!.bottom : this.blocks[last.block]!.bottom;
    return this.used + bottom - top;
  }

  add(b: FlowBlock): void {
    const i = this.blocks.push(b) - 1;
    if (i === 0) this.origin = b.top;
    if (this.fresh()) this.origin = this.pages.length > 0 ? this.openingTop(b) : b.top;
    if (this.fresh() && !b.rows && !b.lineTops) {
      this.place({ block: i }, b.notes);
      return;
    }
    if (this.fitsTo(textBottom(b), b.notes)) {
      this.place({ block: i }, b.notes);
      return;
    }
    if (b.rows && b.rows.length > 0) this.flowTable(i, b);
    else if (b.lineTops && b.lineTops.length >= 3) this.flowLines(i, b);
    else if (this.fresh()) this.place({ block: i }, b.notes);
    else {
      this.breakBefore(this.openingTop(b));
      this.place({ block: i }, b.notes);
    }
  }

  /** Completes the last page; answers every page. */
  end(): FlowPage[] {
    this.pages.push(this.page);
    this.page = { pieces: [], notes: 0 };
    return this.pages;
  }

  /** Where a block's content starts when it opens a page after a natural break: below its space before, which Word drops there. */
  private openingTop(b: FlowBlock): number {
    return b.top + (b.spaceBefore ?? 0);
  }

  private noteSpace(notes: number[], already: number): number {
    return notes.length === 0 ? 0 : notes.reduce((a, c) => a + c, 0) + (already === 0 ? NOTE_SEPARATOR_PX : 0);
  }

  private fresh(): boolean {
    return this.page.pieces.length === 0 && this.used === 0 && !this.pendingRows;
  }

  private fitsTo(bottom: number, notes: number[]): boolean {
    return bottom - this.origin + this.used + this.page.notes + this.noteSpace(notes, this.page.notes) <= this.heightOf(this.pages.length) + 0.5;
  }

  private newPage(at: number): void {
    this.pages.push(this.page);
    this.page = { pieces: [], notes: 0 };
    this.origin = at;
    this.used = 0;
    this.pendingRows = false;
  }

  private place(piece: Piece, notes: number[]): void {
    this.page.notes += this.noteSpace(notes, this.page.notes);
    this.page.pieces.push(piece);
  }

  /** Moves the keep-with-next blocks at the end of the page, and what comes, to a new page starting at `at`. */
  private breakBefore(at: number): void {
    const { blocks, page } = this;
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
    this.newPage(moved.length > 0 ? this.openingTop(blocks[moved[0]!.block]!) : at);
    for (const p of moved) this.place(p, blocks[p.block]!.notes);
  }

  private flowLines(i: number, b: FlowBlock): void {
    const tops = [b.top, ...b.lineTops!];
    let s = 0;
    for (;;) {
      if (this.fitsTo(textBottom(b), b.notes)) {
        this.place(s === 0 ? { block: i } : { block: i, lines: { from: tops[s]!, to: b.bottom } }, b.notes);
        return;
      }
      // Break before the last line that fits, with two lines on each side (widow and orphan control).
      let j = -1;
      for (let k = tops.length - 2; k >= s + 2; k--) {
        if (this.fitsTo(tops[k]!, [])) {
          j = k;
          break;
        }
      }
      if (j < 0) {
        if (this.fresh()) {
          this.place(s === 0 ? { block: i } : { block: i, lines: { from: tops[s]!, to: b.bottom } }, b.notes);
          return;
        }
        if (s === 0) this.breakBefore(this.openingTop(b));
        else this.newPage(tops[s]!);
        continue;
      }
      this.place({ block: i, lines: { from: tops[s]!, to: tops[j]! } }, []);
      this.newPage(tops[j]!);
      s = j;
    }
  }

  private flowTable(i: number, b: FlowBlock): void {
    const rows = b.rows!;
    const headerRows = Math.min(b.headerRows ?? 0, rows.length);
    const headerHeight = headerRows > 0 ? rows[headerRows - 1]!.bottom - rows[0]!.top : 0;
    let from = 0;
    if (this.fresh()) this.origin = rows[0]!.top;
    for (let k = 0; k < rows.length; ) {
      const row = rows[k]!;
      if (this.fresh() || this.fitsTo(row.bottom, row.notes)) {
        this.page.notes += this.noteSpace(row.notes, this.page.notes);
        this.pendingRows = true;
        k++;
        continue;
      }
      if (k > from) this.page.pieces.push({ block: i, rows: { from, to: k } });
      if (k === 0) this.breakBefore(row.top);
      // The rest on the next page, under the repeated header rows.
      else this.newPage(row.top - (k >= headerRows ? headerHeight : 0));
      from = k;
    }
    this.page.pieces.push({ block: i, rows: { from, to: rows.length } });
    this.pendingRows = false;
  }
}
