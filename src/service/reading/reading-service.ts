import {
  DEFAULT_READING_LIMIT, MAX_SEARCH_HITS,
  type Block, type DocumentText, type OutlineEntry, type ParagraphBlock, type ReadingQuery, ReadingView, type SearchHit,
} from '../../contract/reading';
import type { OpenDocx } from '../../docx';
import { ProblemError } from '../http/problem';
import { ByteBudgetLru } from '../review/byte-budget-lru';
import type { ReviewService } from '../review/review-service';
import type { UploadRecord } from '../uploads/upload-rows';
import { compileSearch } from './search-pattern';

interface Actor {
  orgId: string;
  userId: string;
}

/** One view of one content, read once: its blocks, and its paragraphs in reading order with their table path. */
interface Reading {
  blocks: Block[];
  paragraphs: ParagraphBlock[];
}

const OUTLINE_TEXT = 200;

/**
 * Reading documents: pages of blocks, search and the outline, for the HTTP route and the
 * assistant's tools alike. A view of a content is read once (on the parsed document the review
 * keeps, for the markup view) and kept by content hash, so pages, searches and outlines are cut
 * from it; a new content (a decision, an edit) is a new key, never a stale answer.
 */
export class ReadingService {
  private readonly readings = new ByteBudgetLru<Reading>(96 * 1024 * 1024);

  constructor(private readonly review: ReviewService) {}

  async text(actor: Actor, uploadId: string, query: ReadingQuery): Promise<DocumentText> {
    const { row, view, reading } = await this.reading(actor, uploadId, query.view);
    const sha = row.content_sha256!;
    const from = query.cursor ? fromCursor(query.cursor, sha, view, reading.blocks.length) : 0;
    const limit = query.limit ?? DEFAULT_READING_LIMIT;
    const to = Math.min(reading.blocks.length, from + limit);
    return {
      uploadId: row.id,
      view,
      blocks: reading.blocks.slice(from, to),
      nextCursor: to < reading.blocks.length ? toCursor(sha, view, to) : null,
    };
  }

  async search(actor: Actor, uploadId: string, opts: { query: string; regex?: boolean; caseSensitive?: boolean; view?: ReadingView }): Promise<{ view: ReadingView; hits: SearchHit[]; count: number }> {
    const pattern = compileSearch(opts.query, { regex: opts.regex ?? false, caseSensitive: opts.caseSensitive ?? false });
    const { view, reading } = await this.reading(actor, uploadId, opts.view);
    const hits: SearchHit[] = [];
    let count = 0;
    for (const p of reading.paragraphs) {
      pattern.lastIndex = 0;
      for (let m = pattern.exec(p.text); m; m = pattern.exec(p.text)) {
        if (m[0].length === 0) {
          pattern.lastIndex++;
          continue;
        }
        count++;
        if (hits.length < MAX_SEARCH_HITS) {
          const start = m.index;
          const end = start + m[0].length;
          const changeIds = (p.changes ?? []).filter((c) => c.start < end && (c.end > start || (c.start === c.end && c.start >= start && c.start <= end))).map((c) => c.change_id);
          hits.push({ blockId: p.id, text: p.text, start, end, changeIds });
        }
      }
    }
    return { view, hits, count };
  }

  async outline(actor: Actor, uploadId: string, view?: ReadingView): Promise<{ view: ReadingView; entries: OutlineEntry[] }> {
    const { view: read, reading } = await this.reading(actor, uploadId, view);
    const entries: OutlineEntry[] = [];
    for (const p of reading.paragraphs) {
      if (p.story !== 'body' || (p.heading === undefined && p.numbering === undefined)) continue;
      if (p.numbering !== undefined && p.heading === undefined && !p.text.trim()) continue;
      entries.push({
        blockId: p.id,
        text: p.text.length > OUTLINE_TEXT ? `${p.text.slice(0, OUTLINE_TEXT - 1)}…` : p.text,
        ...(p.numbering !== undefined ? { numbering: p.numbering } : {}),
        ...(p.heading !== undefined ? { heading: p.heading } : {}),
        level: p.heading ?? p.listLevel ?? 1,
      });
    }
    return { view: read, entries };
  }

  /** A paragraph of the draft as it stands (markup view), by block id: what an anchored edit targets. */
  async paragraph(actor: Actor, uploadId: string, blockId: string): Promise<ParagraphBlock | null> {
    const { reading } = await this.reading(actor, uploadId, 'markup');
    return reading.paragraphs.find((p) => p.id === blockId) ?? null;
  }

  private async reading(actor: Actor, uploadId: string, asked: ReadingView | undefined): Promise<{ row: UploadRecord; view: ReadingView; reading: Reading }> {
    let view: ReadingView = asked ?? 'markup';
    const { row, value } = await this.review.read(actor, uploadId, (doc, found) => {
      view = asked ?? (found.version_kind === 'working_draft' ? 'markup' : 'accepted');
      const key = `${found.content_sha256}:${view}`;
      const kept = this.readings.get(key);
      if (kept) return kept;
      const reading = readingOf(view === 'markup' ? doc.blocks() : this.decidedBlocks(doc, view));
      this.readings.set(key, reading, approximateBytes(reading));
      return reading;
    });
    return { row, view, reading: value };
  }

  /** The blocks after accepting or rejecting every change, on a copy: the kept draft stays as it is. */
  private decidedBlocks(doc: OpenDocx, view: 'accepted' | 'rejected'): Block[] {
    const copy = this.review.openCopy(doc.toBytes());
    const ids = copy.changeIds();
    copy.apply(view === 'accepted' ? { accept: ids, reject: [] } : { accept: [], reject: ids });
    return copy.blocks();
  }
}

function readingOf(blocks: Block[]): Reading {
  const paragraphs: ParagraphBlock[] = [];
  const visit = (list: readonly Block[]): void => {
    for (const b of list) {
      if (b.type === 'paragraph') paragraphs.push(b);
      else for (const row of b.rows) for (const cell of row.cells) visit(cell.blocks);
    }
  };
  visit(blocks);
  return { blocks, paragraphs };
}

/** About what a reading holds in memory: its text twice (UTF-16) plus the objects around it. */
function approximateBytes(reading: Reading): number {
  let chars = 0;
  for (const p of reading.paragraphs) chars += p.text.length + 200 + (p.changes?.length ?? 0) * 120;
  return chars * 2;
}

/**
 * A cursor names the content and view it pages through: a page of another content (the draft
 * changed since) would skip or repeat blocks, so it is refused and the client starts again.
 */
function toCursor(sha: string, view: ReadingView, index: number): string {
  return Buffer.from(`${sha.slice(0, 16)}:${view}:${index}`).toString('base64url');
}

function fromCursor(cursor: string, sha: string, view: ReadingView, blockCount: number): number {
  const parts = Buffer.from(cursor, 'base64url').toString().split(':');
  const [content, cursorView, index] = parts;
  const at = Number(index);
  // toCursor writes a known view and the decimal index of a block after the first page; nothing else was given.
  if (parts.length !== 3 || !content || !ReadingView.safeParse(cursorView).success || !/^[1-9][0-9]*$/.test(index ?? '') || !Number.isSafeInteger(at)) {
    throw new ProblemError(400, 'invalid_cursor', 'This cursor is not one the service gave.', { errors: [{ path: 'cursor', message: 'not a cursor of this document' }] });
  }
  if (cursorView !== view) {
    throw new ProblemError(400, 'invalid_cursor', `This cursor pages through the ${cursorView} view; ask for that view or start again.`, { errors: [{ path: 'cursor', message: 'another view' }] });
  }
  if (content !== sha.slice(0, 16)) {
    throw new ProblemError(409, 'stale_cursor', 'The document changed since this cursor was given; read it again from the first page.');
  }
  if (at >= blockCount) {
    throw new ProblemError(400, 'invalid_cursor', 'This cursor points past the end of the document.', { errors: [{ path: 'cursor', message: 'not a position in this document' }] });
  }
  return at;
}
