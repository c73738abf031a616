import type { ReviewListing } from '../../contract/listing-delta';
import type { ReviewMinimalResponse, ReviewResponse } from '../../contract/review';
import type { Revision } from '../../contract/revision';
import type { Track } from '../../contract/track';
import type { OpenDocx } from '../../docx';
import type { ServerTiming } from '../http/server-timing';
import type { ContentStore } from '../store/content-store';
import type { Database } from '../store/database';
import { toDocumentRow, type UploadRecord } from '../uploads/upload-rows';
import type { Analysis } from './analysis-cache';
import type { Baselines, Committed } from './baselines';
import { loadProposals, type DecisionLogCache } from './decision-log';
import type { ChangeResult } from './draft-commits';
import type { DraftReads } from './draft-reads';
import type { IdempotentRequest, RecordedKey } from './idempotency';
import { listingDelta, Listings, listingVersion } from './listing-delta';
import { stepListing, type SteppedListing } from './listing-step';
import type { ProjectionStore } from './projection-store';
import type { AnswerShape, ApplyAnswerOf, ReviewFaults } from './review-parts';
import { replayLog, type LogState } from './track-projection';

/**
 * The review answers: the listing (revisions and track, the track from its stored projection or
 * projected from the log), with the content for a full answer, and what a change answers (the
 * whole review, minimal, or the delta from the listing the client holds); with the listing
 * version (ETag) of each answer given.
 */
export class ReviewAnswers {
  /** Each draft's listing as last answered: what a minimal answer's delta is made against (listing-delta.ts). */
  private readonly listings = new Listings(64 * 1024 * 1024);
  /** The listing version of answers given (their ETag), by answer. */
  private readonly versions = new WeakMap<object, string>();

  constructor(
    private readonly db: Database,
    private readonly content: ContentStore,
    private readonly log: { warn(obj: object, msg: string): void },
    private readonly faults: ReviewFaults,
    private readonly reads: DraftReads,
    private readonly baselines: Baselines,
    private readonly logs: DecisionLogCache,
    /** Track projections stored, and waiting to be (projection-store.ts). */
    private readonly projections: ProjectionStore,
  ) {}

  /** The listing version (ETag) of an answer this service gave, if it has one. */
  versionOf(answer: object): string | undefined {
    return this.versions.get(answer);
  }

  /** The draft's listing at this version, if it is one this service last answered (listing-delta.ts). */
  listingAt(uploadId: string, version: string): ReviewListing | undefined {
    return this.listings.at(uploadId, version);
  }

  /** Says an answer made from a remembered listing (a delta) is at this version. */
  tagVersion(answer: object, version: string): void {
    this.versions.set(answer, version);
  }

  rememberListing(answer: ReviewMinimalResponse, version: string): void {
    this.versions.set(answer, version);
    this.listings.remember(answer.document.id, version, answer);
  }

  /**
   * The new bytes of a changed document and, at the same time, their analysis: both XML texts
   * are made on this thread, then the content and the render variant are compressed together
   * on two threads (the native codec's pool). The analysis is awaited by the answer; a commit
   * that has to plan again drops it.
   */
  async writeAndAnalyse(doc: OpenDocx, timing: ServerTiming, shape: AnswerShape = 'full'): Promise<{ bytes: Uint8Array; analysis?: Promise<Analysis>; revisions?: Revision[] }> {
    const writing = timing.measureSync('write', () => doc.toBytesAsync());
    if (shape === 'minimal') {
      // No render variant now: it is built from the draft kept open when someone asks for it.
      const revisions = timing.measureSync('revisions', () => doc.revisions());
      return { bytes: await timing.measure('compress', () => writing), revisions };
    }
    const analysis = timing.measureSync('render', () => this.reads.analyse(doc, writing));
    analysis.catch(() => {});
    return { bytes: await timing.measure('compress', () => writing), analysis };
  }

  /** The review answer after a change: the new content's analysis, then the track. */
  async answer<S extends AnswerShape = 'full'>(result: ChangeResult, timing: ServerTiming, idempotency?: IdempotentRequest, shape?: S, base?: string): Promise<ApplyAnswerOf<S>> {
    const minimal = shape === 'minimal';
    if (result.replayed) {
      if (idempotency) idempotency.replayed = true;
      const replayed = await timing.measure('replay', () => this.replay(result.row.id, result.replayed!));
      return (minimal ? withoutContent(replayed) : replayed) as ApplyAnswerOf<S>;
    }
    const version = listingVersion(result.row.content_sha256!, result.state.lastSeq);
    if (minimal) {
      const revisions = await timing.measure('revisions', () => this.reads.revisionsAfter(result));
      const stepped = await this.stepped(result, revisions, version, timing);
      const listing = stepped?.listing ?? await timing.measure('track', () => this.respondMinimal(result.row, revisions, result));
      // The client's listing (If-Match) as this service answered it: the delta from it, proportional to the batch.
      const previous = base === undefined ? undefined : this.listings.at(result.row.id, base);
      const delta = stepped && base === stepped.delta.base ? stepped.delta
        : previous && base !== undefined ? timing.measureSync('delta', () => listingDelta(base, previous, version, listing)) : null;
      this.rememberListing(listing, version);
      return (delta ?? listing) as ApplyAnswerOf<S>;
    }
    const analysis = await timing.measure('render', () => this.reads.analysisAfter(result));
    const answer = await timing.measure('track', () => this.respond(result.row, analysis, result));
    this.rememberListing(answer, version);
    return answer as ApplyAnswerOf<S>;
  }

  /**
   * The listing after a batch of decisions stepped from the one it was planned on (listing-step.ts),
   * its track stored in the background as a projected one would be; null when the batch carries no
   * step or the step cannot be exact (the whole log is projected then).
   */
  private async stepped(result: ChangeResult, engineRevisions: Revision[], version: string, timing: ServerTiming): Promise<SteppedListing | null> {
    const step = result.planned?.step;
    if (!step) return null;
    const stepped = timing.measureSync('track', () =>
      stepListing(step, result.state, toDocumentRow(result.row), withJustifications(engineRevisions, step.proposals), version));
    if (!stepped) return null;
    if (this.faults.stepped) await this.faults.stepped(stepped.listing, await this.respondMinimal(result.row, engineRevisions, result));
    try {
      await this.faults.projection?.();
    } catch {
      return null; // a failing decisions store: answered as the projection answers it (track: null)
    }
    // What the batch changed is all the stored projection needs written, when it is the one the batch was planned on.
    this.projections.storeInBackground(result.row, result.state.lastSeq, stepped.listing.track!, { base: step.baseAt, ...stepped.changed });
    return stepped;
  }

  /**
   * The answer a recorded request gave: its document row, the content it committed (with its
   * render variant and revisions) and the track as the log stood at its entry.
   */
  private async replay(uploadId: string, recorded: RecordedKey): Promise<ReviewResponse> {
    const analysis = this.reads.cached(recorded.contentSha256) ?? await this.reads.analysisFor(recorded.contentSha256, await this.content.get(recorded.contentSha256));
    const proposals = await loadProposals(this.db, uploadId);
    const revisions = withJustifications(analysis.revisions, proposals);
    const entries = (await this.logs.load(this.db, uploadId)).filter((e) => e.seq <= recorded.logSeq);
    const track = await this.baselines.track(recorded.contentSha256, { entries, state: replayLog(entries) }, revisions);
    return { document: recorded.document, revisions, contentBase64: analysis.contentBase64, renderContentBase64: analysis.renderContentBase64, track };
  }

  /**
   * The review answer. The track comes from the projection; if that fails, track is null and
   * nothing else is affected. `committed`: the log's state just committed with `row`, if known.
   */
  async respond(row: UploadRecord, analysis: Analysis, committed?: Committed): Promise<ReviewResponse> {
    const { document, revisions, track } = await this.respondMinimal(row, analysis.revisions, committed);
    return { document, revisions, contentBase64: analysis.contentBase64, renderContentBase64: analysis.renderContentBase64, track };
  }

  /** The review answer without the content (Prefer: return=minimal); as `respond`. */
  private async respondMinimal(row: UploadRecord, engineRevisions: Revision[], committed?: Committed): Promise<ReviewMinimalResponse> {
    let proposals: Awaited<ReturnType<typeof loadProposals>> = new Map();
    let track: Track | null = null;
    try {
      proposals = await loadProposals(this.db, row.id);
    } catch (error) {
      this.log.warn({ err: error }, 'loading proposals failed');
    }
    const revisions = withJustifications(engineRevisions, proposals);
    try {
      track = await this.trackOf(row, revisions, proposals, committed);
    } catch (error) {
      this.log.warn({ err: error, uploadId: row.id }, 'track projection failed; answering track: null');
    }
    return { document: toDocumentRow(row), revisions, track };
  }

  /**
   * The track of `row`. After a change (`committed` known) it is projected from that state and
   * stored in the background. Otherwise the stored projection is read when it matches the log
   * and the content, else rebuilt and stored.
   */
  private async trackOf(row: UploadRecord, revisions: Revision[], proposals: ReadonlyMap<string, { userId: string | null }>, committed?: Committed): Promise<Track> {
    if (committed) {
      const track = await this.baselines.track(row.content_sha256!, committed, revisions, proposals);
      await this.faults.projection?.();
      this.projections.storeInBackground(row, committed.state.lastSeq, track);
      return track;
    }
    await this.faults.projectionRead?.([row.id]);
    const current = await this.projections.current(row);
    if (current) return current;
    const entries = await this.logs.load(this.db, row.id);
    const state: LogState = replayLog(entries);
    const track = await this.baselines.track(row.content_sha256!, { entries, state }, revisions, proposals);
    await this.faults.projection?.();
    await this.projections.store(row, state.lastSeq, track);
    return track;
  }
}

/** The revisions with the justification each proposal recorded (the engine's own otherwise). */
export function withJustifications(revisions: Revision[], proposals: ReadonlyMap<string, { justification: string | null }>): Revision[] {
  if (proposals.size === 0) return revisions;
  return revisions.map((r) => {
    const recorded = proposals.get(r.change_id)?.justification;
    return recorded ? { ...r, justification: recorded } : r;
  });
}

/** A full answer without its content: what a minimal request gets when its recorded answer is replayed, or when it reads the review. */
export function withoutContent({ document, revisions, track }: ReviewResponse): ReviewMinimalResponse {
  return { document, revisions, track };
}
