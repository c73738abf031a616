import type { TrackState } from '../../contract/track';

/** How each revision kind reads to a lawyer (Word's own words where it has them). */
export const KIND_LABEL: Record<string, string> = {
  insert: 'Insertion',
  delete: 'Deletion',
  paragraph_mark: 'Paragraph mark',
  proposed: 'Proposed',
  'r-prop-change': 'Formatting',
  'p-prop-change': 'Paragraph formatting',
  'tbl-prop-change': 'Table properties',
  'tr-prop-change': 'Table row',
  'tc-prop-change': 'Table cell',
  'sect-prop-change': 'Section properties',
  // Edits of several changes (entries.ts).
  replace: 'Replacement',
  'row-insert': 'Row inserted',
  'row-delete': 'Row deleted',
};

export function kindLabel(kind: string | null | undefined, move?: boolean): string {
  if (move) return 'Move';
  if (!kind) return 'Change';
  return KIND_LABEL[kind] ?? kind;
}

/** The state in words: colour is never the only cue (WCAG 1.4.1). */
export const STATE_LABEL: Record<TrackState, string> = { open: 'open', in: 'accepted', back: 'rejected' };

export const STATE_CLASS: Record<TrackState, string> = {
  open: 'border-open text-open bg-open-soft',
  in: 'border-insert text-insert bg-insert-soft',
  back: 'border-delete text-delete bg-delete-soft',
};

/**
 * A page as a lawyer cites it: the number the page prints (its section's format and restarts:
 * "ii" in roman front matter, "1" again after a restart) and its place in the file (1, 2, ...),
 * for a document that prints no numbers or to find it in a viewer that counts sheets.
 */
export interface PageCitation {
  label: string;
  physical: number;
}

/** Where a change is, as a lawyer cites it: "p. 12 · 7.3(a)" (the page's printed number from the layout, the clause from the engine). */
export function placeLabel(page: PageCitation | null | undefined, clause: string | null | undefined): string {
  return [page ? `p. ${page.label}` : null, clause ?? null].filter(Boolean).join(' · ');
}

/** The tooltip beside a page citation: the printed number and the page of the file when they differ. */
export function placeTitle(page: PageCitation | null | undefined): string | undefined {
  if (!page) return undefined;
  return page.label === String(page.physical) ? `Page ${page.label}` : `Page ${page.label} as printed; page ${page.physical} of the file`;
}

/**
 * The page to cite for a change: the laid-out draft's (printed numbering) when it has the change,
 * else the page Word last laid it out on (TrackItem.page), which a decided change keeps after
 * its marks have left the draft.
 */
export function citedPage(layout: PageCitation | null | undefined, wordPage: number | undefined, wordLabel?: string): PageCitation | null {
  if (layout) return layout;
  if (!wordPage) return null;
  const label = wordLabel ?? String(wordPage);
  // One object per page, so the list's memoised rows see the same page from render to render.
  const key = `${wordPage} ${label}`;
  let page = WORD_PAGES.get(key);
  if (!page) WORD_PAGES.set(key, (page = { label, physical: wordPage }));
  return page;
}

const WORD_PAGES = new Map<string, PageCitation>();
