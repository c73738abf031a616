/**
 * Sheets of a fixed paper size filled with blocks in order: a block that would run past the
 * sheet's foot starts the next sheet. The print adds these (the summary, a page's comments) and
 * lays them out itself, so each is exactly one sheet of the PDF and the PDF's page count is the
 * view's plus the sheets'.
 */
export interface Paper {
  /** The @page name the sheets print on (print-layout.ts writes its size). */
  name: string;
  /** CSS lengths, as the laid-out pages say them ("612pt"). */
  width: string;
  height: string;
}

/**
 * Appends sheets to `parent` (or after `after`) and flows `blocks` into them; `start` fills a new
 * sheet's head (a title, the column headings) and answers where its blocks go. `parent` must be
 * laid out (blocks are measured). Answers the sheets.
 */
export function flowIntoSheets(
  place: { parent: HTMLElement } | { after: Element },
  paper: Paper,
  blocks: readonly HTMLElement[],
  start: (sheet: HTMLElement, index: number) => HTMLElement,
): HTMLElement[] {
  const sheets: HTMLElement[] = [];
  let into: HTMLElement | null = null;
  let fresh = true;
  const next = () => {
    const sheet = document.createElement('div');
    sheet.className = 'rl-print-sheet';
    sheet.style.width = paper.width;
    sheet.style.height = paper.height;
    sheet.style.setProperty('--rl-sheet-height', paper.height);
    sheet.style.setProperty('page', paper.name);
    const last = sheets.at(-1);
    if (last) last.after(sheet);
    else if ('parent' in place) place.parent.append(sheet);
    else place.after.after(sheet);
    sheets.push(sheet);
    into = start(sheet, sheets.length - 1);
    fresh = true;
  };
  next();
  for (const block of blocks) {
    into!.append(block);
    if (!runsPast(sheets.at(-1)!, block)) {
      fresh = false;
      continue;
    }
    if (!fresh) {
      block.remove();
      next();
      into!.append(block);
    }
    fresh = false;
    // Alone on a sheet and still too tall: the sheet grows rather than cut what the block says.
    if (runsPast(sheets.at(-1)!, block)) sheets.at(-1)!.classList.add('rl-print-sheet-long');
  }
  return sheets;
}

/** Whether `block` ends below the sheet's foot (its height less its bottom padding). */
function runsPast(sheet: HTMLElement, block: HTMLElement): boolean {
  const foot = sheet.getBoundingClientRect().bottom - parseFloat(getComputedStyle(sheet).paddingBottom || '0');
  return block.getBoundingClientRect().bottom > foot + 0.5;
}
