import {
  DEFAULT_READING_LIMIT, MAX_SEARCH_HITS,
  type Block, type DocumentText, type OutlineEntry, type ParagraphBlock, type ReadingQuery, ReadingView, type SearchHit,
} from '../../contract/reading';
import { DocxError } from '../../docx';
import { EngineJobTimeoutError, type EngineThreads } from '../engine/engine-threads';
import { ProblemError } from '../http/problem';
import { ByteBudgetLru } from '../review/byte-budget-lru';
import type { ReviewService } from '../review/review-service';
import type { ContentStore } from '../store/content-store';
import { docxProblem } from '../uploads/uploads-service';
import { blocksOfChunk, paragraphsOf, type PackedTexts, type ViewRead } from './reading-work';
import { compileSearch } from './search-pattern';
import { letWaitingWorkIn } from '../http/let-waiting-work-in';

/** Who reads: a member (or an API key, which has its own budget). */
interface Actor {
  orgId: string;
  userId: string;
  apiKeyId?: string | null;
}

/** One view of one content, read once: its blocks, and its paragraphs in reading order with their table path. */
interface Reading {
  blocks: Block[];
  paragraphs: ParagraphBlock[];
  /** The paragraphs' texts, in the same order, packed: what a search posts to an engine thread. */
  texts: PackedTexts;
}

export interface ReadingOptions {
  /** How long a search may run on a document before it is ended (answered 422 search_too_slow). */
  searchTimeLimitMs: number;
  /**
   * Spends the caller's reading budget (http/heavy-limits.ts, kind "reading"); throws 429 past
   * it. Called before each piece of heavy work: a view's first reading and every search.
   */
  admit: (actor: Actor) => Promise<void>;
}

const OUTLINE_TEXT = 200;

/**
 * Reading documents: pages of blocks, search and the outline, for the HTTP route and the
 * assistant's tools alike. A view of a content is read once, on an engine thread (parsing a
 * 20,000-paragraph draft takes about a second, which on the service's thread would hold up every
 * other request), and kept by content hash, so pages, searches and outlines are cut from it; a
 * new content (a decision, an edit) is a new key, never a stale answer. Searches run on an engine
 * thread too, with a time limit. The heavy work (a first reading, a search) spends the caller's
 * reading budget; pages and outlines of a view already read are cheap and free.
 */
export class ReadingService {
  private readonly readings = new ByteBudgetLru<Reading>(96 * 1024 * 1024);
  /** First readings under way, by key: a second request for the same view waits for the same job. */
  private readonly inFlight = new Map<string, Promise<Reading>>();

  constructor(
    private readonly review: ReviewService,
    private readonly content: ContentStore,
    private readonly engine: EngineThreads,
    private readonly options: ReadingOptions,
  ) {}

  async text(actor: Actor, uploadId: string, query: ReadingQuery): Promise<DocumentText> {
    const { uploadId: id, sha, view, reading } = await this.reading(actor, uploadId, query.view);
    const from = query.cursor ? fromCursor(query.cursor, sha, view, reading.blocks.length) : 0;
    const limit = query.limit ?? DEFAULT_READING_LIMIT;
    const to = Math.min(reading.blocks.length, from + limit);
    return {
      uploadId: id,
      view,
      blocks: reading.blocks.slice(from, to),
      nextCursor: to < reading.blocks.length ? toCursor(sha, view, to) : null,
    };
  }

  async search(actor: Actor, uploadId: string, opts: { query: string; regex?: boolean; caseSensitive?: boolean; view?: ReadingView }): Promise<{ view: ReadingView; hits: SearchHit[]; count: number }> {
    const pattern = compileSearch(opts.query, { regex: opts.regex ?? false, caseSensitive: opts.caseSensitive ?? false });
    const { view, reading } = await this.reading(actor, uploadId, opts.view);
    await this.options.admit(actor);
    const limitMs = this.options.searchTimeLimitMs;
    const found = await this.engine.search(reading.texts, pattern, MAX_SEARCH_HITS, limitMs, { orgId: actor.orgId }).catch((error: unknown) => {
      throw error instanceof EngineJobTimeoutError ? tooSlow(limitMs) : error;
    });
    if (found.timedOut) throw tooSlow(limitMs);
    const hits = found.hits.map(([index, start, end]): SearchHit => {
      const p = reading.paragraphs[index]!;
      const changeIds = (p.changes ?? []).filter((c) => c.start < end && (c.end > start || (c.start === c.end && c.start >= start && c.start <= end))).map((c) => c.change_id);
      return { blockId: p.id, text: p.text, start, end, changeIds };
    });
    return { view, hits, count: found.count };
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

  private async reading(actor: Actor, uploadId: string, asked: ReadingView | undefined): Promise<{ uploadId: string; sha: string; view: ReadingView; reading: Reading }> {
    const row = await this.review.storedRow(actor, uploadId);
    const sha = row.content_sha256;
    const view: ReadingView = asked ?? (row.version_kind === 'working_draft' ? 'markup' : 'accepted');
    const key = `${sha}:${view}`;
    const kept = this.readings.get(key);
    if (kept) return { uploadId: row.id, sha, view, reading: kept };
    let pending = this.inFlight.get(key);
    if (!pending) {
      await this.options.admit(actor);
      pending = this.readOffThread(sha, view, actor.orgId).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    const reading = await pending;
    this.readings.set(key, reading, approximateBytes(reading));
    return { uploadId: row.id, sha, view, reading };
  }

  private async readOffThread(sha: string, view: ReadingView, orgId: string): Promise<Reading> {
    const bytes = await this.content.get(sha);
    try {
      return await readingOf(await this.engine.readView(bytes, view, { orgId }));
    } catch (error) {
      throw error instanceof DocxError ? docxProblem(error) : error;
    }
  }
}

function tooSlow(limitMs: number): ProblemError {
  return new ProblemError(422, 'search_too_slow', `This search ran past its time limit of ${limitMs / 1000} s on this document and was ended. Search for a plainer pattern, or for the words themselves.`);
}

/**
 * The reading of a view from what its engine thread sent: the blocks are deserialized a chunk at
 * a time, letting other requests (a health check) in between, so a long draft's reading never
 * holds this thread for more than a few milliseconds at once.
 */
async function readingOf(read: ViewRead): Promise<Reading> {
  const blocks: Block[] = [];
  for (const chunk of read.chunks) {
    await letWaitingWorkIn();
    blocks.push(...blocksOfChunk(chunk));
  }
  return { blocks, paragraphs: paragraphsOf(blocks), texts: read.texts };
}

/** About what a reading holds in memory: its text twice (UTF-16) plus the objects around it, and the packed texts. */
function approximateBytes(reading: Reading): number {
  let chars = 0;
  for (const p of reading.paragraphs) chars += p.text.length + 200 + (p.changes?.length ?? 0) * 120;
  return chars * 2 + reading.texts.units.byteLength + reading.texts.ends.byteLength;
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
