import { z } from 'zod';
import { clientString } from './client-text';
import { RevisionKind } from './revision';

/**
 * Reading a document: the content model that the HTTP reading route, the assistant's MCP tools
 * and the engine share. A document reads as blocks in story order (body, headers, footers,
 * footnotes, endnotes, comments); a paragraph is its visible text as Word shows it, a table its
 * rows of cells of blocks.
 */
export const READING_VIEWS = ['markup', 'accepted', 'rejected'] as const;
export const ReadingView = z.enum(READING_VIEWS)
  .describe('markup: the draft as it stands, deleted text included and every change located; accepted / rejected: the text after accepting / rejecting every change.');
export type ReadingView = z.infer<typeof ReadingView>;

export const STORIES = ['body', 'header', 'footer', 'footnote', 'endnote', 'comment'] as const;
export const Story = z.enum(STORIES);
export type Story = z.infer<typeof Story>;

/** A change located in a paragraph's text (markup view only). */
export const BlockChange = z.object({
  change_id: z.string(),
  kind: RevisionKind,
  group: z.string().optional().describe('The group (one edit as Word shows it) the change belongs to, as the revision listing gives it.'),
  start: z.number().int().nonnegative().describe('Offset into the paragraph\'s `text` where the change starts (UTF-16 code units).'),
  end: z.number().int().nonnegative().describe('Offset where it ends (exclusive). A paragraph-mark change sits at the end of the text (start = end); a paragraph property change spans the whole paragraph.'),
  author: z.string().nullable(),
  date: z.string().nullable(),
});
export type BlockChange = z.infer<typeof BlockChange>;

const blockId = z.string().describe('Stable across reads of the same content and across decisions that do not touch the block: the paragraph\'s w14:paraId where the file has a unique one, else derived from its story and text.');
const version = z.string().describe('Changes whenever the block\'s content (text, changes, numbering, style) changes: pass it as `blockVersion` with an anchored edit to refuse stale anchors.');

/** Where a body block was when Word last laid the file out; absent elsewhere and when the file does not say (never laid out by Word). */
const pageFields = {
  page: z.number().int().positive().optional()
    .describe('Body blocks: the page (counted from the first) the block started on when Word last laid the file out (its w:lastRenderedPageBreak marks). Absent when the file does not say.'),
  pageLabel: z.string().optional()
    .describe('The number that page prints, in its section\'s format and after restarts ("iii" in roman front matter): cite this. Present whenever `page` is.'),
};

export const ParagraphBlock = z.object({
  id: blockId,
  ...pageFields,
  version,
  type: z.literal('paragraph'),
  text: z.string().describe('The visible text as Word shows it: field results (not field codes), tabs as \\t and line breaks as \\n, no markers for note or comment references; the numbering label is not part of it.'),
  numbering: z.string().optional().describe('The clause label as Word shows it ("7.3(a)"), when the paragraph is numbered.'),
  heading: z.number().int().min(1).max(9).optional().describe('Outline level (1 = top) of a heading or outline-level paragraph.'),
  listLevel: z.number().int().min(1).max(9).optional().describe('The list level (1 = top) of a numbered paragraph.'),
  style: z.string().optional().describe('The paragraph style\'s name.'),
  story: Story,
  changes: z.array(BlockChange).optional(),
});
export type ParagraphBlock = z.infer<typeof ParagraphBlock>;

export interface TableCell { id: string; blocks: Block[]; changeIds?: string[] }
export interface TableRow { id: string; cells: TableCell[]; changeIds?: string[] }
export interface TableBlock { id: string; version: string; type: 'table'; story: Story; rows: TableRow[]; changeIds?: string[]; page?: number; pageLabel?: string }
export type Block = ParagraphBlock | TableBlock;

const ChangeIdList = z.array(z.string()).optional().describe('Table, row or cell changes (inserted, deleted, merged, properties, grid) on this table, row or cell.');

export const Block: z.ZodType<Block> = z.lazy(() => z.union([ParagraphBlock, TableBlockSchema]));
const TableCellSchema: z.ZodType<TableCell> = z.lazy(() => z.object({ id: z.string(), blocks: z.array(Block), changeIds: ChangeIdList }));
const TableRowSchema: z.ZodType<TableRow> = z.object({ id: z.string(), cells: z.array(TableCellSchema), changeIds: ChangeIdList });
const TableBlockSchema: z.ZodType<TableBlock> = z.object({ id: blockId, ...pageFields, version, type: z.literal('table'), story: Story, rows: z.array(TableRowSchema), changeIds: ChangeIdList });

export const DEFAULT_READING_LIMIT = 200;
export const MAX_READING_LIMIT = 1000;

export const ReadingQuery = z.strictObject({
  view: ReadingView.optional().describe('Default: markup for working drafts, accepted for everything else.'),
  cursor: clientString().max(500).optional().describe('nextCursor of the previous page.'),
  limit: z.coerce.number().int().min(1).max(MAX_READING_LIMIT).optional().describe(`Top-level blocks per page (a table counts as one); default ${DEFAULT_READING_LIMIT}.`),
});
export type ReadingQuery = z.infer<typeof ReadingQuery>;

export const DocumentText = z.object({
  uploadId: z.string(),
  view: ReadingView,
  blocks: z.array(Block),
  nextCursor: z.string().nullable(),
});
export type DocumentText = z.infer<typeof DocumentText>;

/** An entry of the outline: a heading or a numbered clause. */
export const OutlineEntry = z.object({
  blockId: z.string(),
  text: z.string().describe('The paragraph\'s text, cut at 200 characters.'),
  numbering: z.string().optional(),
  heading: z.number().int().optional(),
  level: z.number().int().min(1).max(9).describe('Nesting level: the heading level, or the numbering level + 1.'),
});
export type OutlineEntry = z.infer<typeof OutlineEntry>;

export const SearchHit = z.object({
  blockId: z.string(),
  text: z.string().describe('The paragraph\'s whole text.'),
  start: z.number().int(),
  end: z.number().int(),
  changeIds: z.array(z.string()).describe('Changes overlapping the hit (markup view).'),
});
export type SearchHit = z.infer<typeof SearchHit>;
export const MAX_SEARCH_HITS = 100;

export const SearchQuery = z.strictObject({
  q: clientString().min(1).max(500).describe('The text (or, with regex=true, the regular expression, at most 200 characters, in RE2 syntax: no back-references or look-around) to find.'),
  regex: z.enum(['true', 'false']).optional().transform((v) => v === 'true'),
  caseSensitive: z.enum(['true', 'false']).optional().transform((v) => v === 'true'),
  view: ReadingView.optional(),
});
export type SearchQuery = z.infer<typeof SearchQuery>;

export const SearchAnswer = z.object({ view: ReadingView, hits: z.array(SearchHit), count: z.number().int().describe('Hits in all (at most 100 are listed).') });
export type SearchAnswer = z.infer<typeof SearchAnswer>;

export const OutlineQuery = z.strictObject({ view: ReadingView.optional() });
export const OutlineAnswer = z.object({ view: ReadingView, entries: z.array(OutlineEntry) });
export type OutlineAnswer = z.infer<typeof OutlineAnswer>;
