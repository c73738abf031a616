import type { Revision } from '../../contract/revision';
import { checkWrittenWork, openDocx, type OpenDocx, type OpenOptions, type WorkLimits } from '../../docx';
import { ProblemError } from '../http/problem';
import { NO_TIMING, type ServerTiming } from '../http/server-timing';
import type { ContentStore } from '../store/content-store';
import type { UploadRecord } from '../uploads/upload-rows';
import { analyse, AnalysisCache, type Analysis } from './analysis-cache';
import { ByteBudgetLru } from './byte-budget-lru';
import type { ChangeResult } from './draft-commits';
import { OpenDrafts } from './open-drafts';
import { engineProblem } from './review-problems';

/**
 * Drafts parsed and analysed, by content hash: the analyses (revisions and render variant), the
 * revisions alone of content answered minimal, and the drafts kept parsed between batches (one
 * parse per draft, issue 36.2). What a change reads its draft from and leaves it in.
 */
export class DraftReads {
  private readonly cache: AnalysisCache;
  /** Revisions by content hash, also of content answered minimal (no analysis made): what the next batch checks its ids against. */
  private readonly revisionsBySha = new ByteBudgetLru<Revision[]>(64 * 1024 * 1024);
  readonly openDrafts: OpenDrafts;
  /**
   * Analyses under way, by content hash. A review page asks for the review, the render variant
   * and the pages around its first change at once; without this each would parse and analyse the
   * same draft (three parses of a long draft where one does).
   */
  private readonly analysing = new Map<string, Promise<Analysis>>();

  constructor(
    private readonly content: ContentStore,
    private readonly engine: OpenOptions,
    private readonly log: { warn(obj: object, msg: string): void },
    /** The caps an upload is held to (DOCX_MAX_PARAGRAPHS, DOCX_MAX_TEXT_BYTES): every change's result is held to them too. */
    private readonly work: WorkLimits,
    options: { analysesBytes?: number; openDraftsBytes?: number },
  ) {
    this.cache = new AnalysisCache(options.analysesBytes ?? 256 * 1024 * 1024);
    this.openDrafts = new OpenDrafts(options.openDraftsBytes ?? 512 * 1024 * 1024);
  }

  /** The analysis of this content, if one is cached. */
  cached(sha256: string): Analysis | undefined {
    return this.cache.get(sha256);
  }

  /**
   * The analysis of what a change produced, from the document it already has open (no second
   * parse); that document is then kept open for the draft's next batch.
   */
  async analysisAfter(result: ChangeResult): Promise<Analysis> {
    const sha = result.row.content_sha256!;
    const planned = result.planned;
    if (!planned?.analysis) return this.analysisOf(result.row);
    const analysis = this.remember(sha, await planned.analysis);
    // A change made on an engine thread leaves no document open here.
    if (planned.doc) this.openDrafts.keep(sha, planned.doc);
    return analysis;
  }

  /** The revisions of what a change produced (minimal answer); the document it has open is kept for the draft's next batch. */
  async revisionsAfter(result: ChangeResult): Promise<Revision[]> {
    const sha = result.row.content_sha256!;
    const planned = result.planned;
    if (!planned?.revisions) return this.revisionsFor(sha, await this.content.get(sha));
    this.revisionsBySha.set(sha, planned.revisions, revisionsBytes(planned.revisions));
    if (planned.doc) this.openDrafts.keep(sha, planned.doc);
    return planned.revisions;
  }

  /**
   * The revisions of a content: remembered, or from its analysis, else read on the draft (kept
   * open, or opened now and kept), without building its render variant.
   */
  async revisionsFor(sha256: string, bytes: Uint8Array): Promise<Revision[]> {
    const known = this.revisionsBySha.get(sha256) ?? this.cache.get(sha256)?.revisions;
    if (known) return known;
    const doc = this.openDraft(sha256, bytes);
    const revisions = doc.revisions();
    this.revisionsBySha.set(sha256, revisions, revisionsBytes(revisions));
    this.openDrafts.keep(sha256, doc);
    return revisions;
  }

  async analysisOf(row: UploadRecord, timing: ServerTiming = NO_TIMING): Promise<Analysis> {
    if (!row.content_sha256) throw new ProblemError(409, 'conflict', 'This upload has no stored content.');
    const known = this.cache.get(row.content_sha256) ?? this.underWay(row.content_sha256, timing);
    if (known) return known;
    return this.analysisFor(row.content_sha256, await this.content.get(row.content_sha256), timing);
  }

  /** The analysis of this content: cached, under way (shared), or made now and kept open for the first batch. */
  analysisFor(sha256: string, bytes: Uint8Array, timing: ServerTiming = NO_TIMING): Promise<Analysis> {
    const known = this.cache.get(sha256);
    if (known) return Promise.resolve(known);
    const underWay = this.underWay(sha256, timing);
    if (underWay) return underWay;
    const made = (async () => {
      const doc = this.openDraft(sha256, bytes, timing);
      const analysis = this.remember(sha256, await this.analyse(doc, bytes));
      // Kept open: a review read is usually followed by the reviewer's first batch.
      this.openDrafts.keep(sha256, doc);
      return analysis;
    })().finally(() => this.analysing.delete(sha256));
    this.analysing.set(sha256, made);
    return made;
  }

  /** The analysis another request is making of this content, which this one then waits for (Server-Timing `analyse;desc="shared"`). */
  private underWay(sha256: string, timing: ServerTiming): Promise<Analysis> | undefined {
    const made = this.analysing.get(sha256);
    if (made) timing.describe('analyse', 'shared');
    return made;
  }

  /** `analyse`, logging a render variant that cannot be built (the answer then carries null). */
  analyse(doc: OpenDocx, bytes: Uint8Array | Promise<Uint8Array>): Promise<Analysis> {
    return analyse(doc, bytes, (error) => this.log.warn({ err: error }, 'render variant failed'));
  }

  /**
   * The draft with this content, parsed: kept open from an earlier batch or read, else opened
   * now; `timing`'s `open` says which (desc "hit" or "parse") and how long it took. The caller owns it.
   */
  openDraft(sha256: string, bytes: Uint8Array, timing: ServerTiming = NO_TIMING): OpenDocx {
    const kept = this.openDrafts.take(sha256);
    timing.describe('open', kept ? 'hit' : 'parse');
    return kept ?? timing.measureSync('open', () => this.open(bytes));
  }

  /**
   * Leaves a working draft parsed in the open drafts after its review read, for the reviewer's
   * first batch (issue 36.2): a read whose analysis was cached (another draft of the same
   * content, an earlier read) parsed nothing, and the first batch would parse it instead.
   */
  async leaveOpen(row: UploadRecord, timing: ServerTiming): Promise<void> {
    const sha256 = row.content_sha256;
    if (row.version_kind !== 'working_draft' || !sha256 || this.openDrafts.has(sha256)) return;
    const bytes = await timing.measure('load', () => this.content.get(sha256));
    this.openDrafts.keep(sha256, this.openDraft(sha256, bytes, timing));
  }

  checkCaps(bytes: Uint8Array): void {
    try {
      checkWrittenWork(bytes, this.work, this.engine.codec);
    } catch (error) {
      throw engineProblem(error);
    }
  }

  remember(sha256: string, analysis: Analysis): Analysis {
    this.cache.set(sha256, analysis);
    this.revisionsBySha.set(sha256, analysis.revisions, revisionsBytes(analysis.revisions));
    return analysis;
  }

  open(bytes: Uint8Array): OpenDocx {
    try {
      return openDocx(bytes, this.engine);
    } catch (error) {
      throw engineProblem(error);
    }
  }
}

/** Roughly what a list of revisions holds in memory (for the cache's byte budget). */
function revisionsBytes(revisions: readonly Revision[]): number {
  return 200 * revisions.length;
}
