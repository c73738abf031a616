import type { Comment, CommentsResponse } from '../../contract/comments';
import type { ReviewDelta } from '../../contract/listing-delta';
import type { RedlineEditsBody, ReviewMinimalResponse, ReviewResponse } from '../../contract/review';
import type { OpenDocx, OpenOptions, WorkLimits } from '../../docx';
import type { EngineThreads } from '../engine/engine-threads';
import { NO_TIMING, type ServerTiming } from '../http/server-timing';
import type { ContentStore } from '../store/content-store';
import type { Database } from '../store/database';
import type { UploadRecord } from '../uploads/upload-rows';
import { applyDecisions, type ApplyRequest } from './apply-decisions';
import { Baselines } from './baselines';
import type { CommentOp } from './comment-ops';
import { commentsOf, writeComment } from './comment-writes';
import { DecisionLogCache } from './decision-log';
import { noteDecision } from './decision-notes';
import { decisionRecord, type DecisionRecord } from './decision-record';
import { download } from './downloads';
import { DraftCommits } from './draft-commits';
import { projectionReader, type StoredCounts } from './draft-progress';
import { DraftReads } from './draft-reads';
import type { IdempotentRequest } from './idempotency';
import { ProjectionStore } from './projection-store';
import { redlineEdits } from './redline-edits';
import { renderVariant } from './render-variant';
import { ReviewAnswers } from './review-answers';
import { requireRow, type Actor, type AnswerOf, type AnswerShape, type ApplyAnswerOf, type ReviewFaults, type ReviewParts } from './review-parts';
import { readReview, readReviewSince } from './review-read';
import { undoLastBatch } from './undo-batch';
import { readUpload, storedRow } from './upload-reads';

export type { ApplyRequest } from './apply-decisions';
export type { DecisionRecord } from './decision-record';
export type { AnswerShape, ReviewFaults } from './review-parts';
export { withoutContent } from './review-answers';

/**
 * The review of a working draft: its revisions, the render variant, and the track;
 * applying decisions, undoing the last batch, and writing redline edits. A façade: each
 * operation lives in its own module (apply-decisions.ts, undo-batch.ts, redline-edits.ts,
 * decision-notes.ts, comment-writes.ts, downloads.ts, render-variant.ts, ...) over the parts
 * they share (review-parts.ts), built here once.
 *
 * Changes to one draft are serialised: in this process by a per-draft queue, across
 * instances by the commit's row lock (`SELECT ... FOR UPDATE`) and its check that the
 * draft is still what the change was computed from (see draft-commits.ts). The new bytes are
 * stored first, then the row and an append-only log entry are committed together;
 * the track projection is written after the commit, and if that fails the answer
 * carries `track: null` and the next read rebuilds it from the log.
 */
export class ReviewService {
  private readonly parts: ReviewParts;
  /** Track projections stored, and waiting to be (projection-store.ts). */
  private readonly projections: ProjectionStore;

  constructor(
    db: Database,
    content: ContentStore,
    engine: OpenOptions,
    log: { warn(obj: object, msg: string): void },
    faults: ReviewFaults = {},
    options: { analysesBytes?: number; openDraftsBytes?: number; work?: WorkLimits; threads?: EngineThreads } = {},
  ) {
    const reads = new DraftReads(content, engine, log, options.work ?? {}, options);
    const logs = new DecisionLogCache();
    this.projections = new ProjectionStore(db, log);
    const commits = new DraftCommits(db, content, logs, this.projections, faults, requireRow, (bytes) => reads.checkCaps(bytes));
    const baselines = new Baselines(content, {
      open: (bytes) => reads.open(bytes),
      openDraft: (sha256, bytes) => reads.openDraft(sha256, bytes),
      keep: (sha256, doc) => reads.openDrafts.keep(sha256, doc),
      warn: (obj, msg) => log.warn(obj, msg),
    });
    const answers = new ReviewAnswers(db, content, log, faults, reads, baselines, logs, this.projections);
    this.parts = { db, content, log, faults, reads, answers, commits, baselines, logs, threads: options.threads ?? null };
  }

  review(actor: Actor, uploadId: string, timing: ServerTiming = NO_TIMING): Promise<ReviewResponse> {
    return readReview(this.parts, actor, uploadId, timing);
  }

  /** The review listing (minimal) as the delta from the version `since` the client holds, or whole when that version is no longer held. */
  reviewSince(actor: Actor, uploadId: string, since: string, timing: ServerTiming = NO_TIMING): Promise<ReviewDelta | ReviewMinimalResponse> {
    return readReviewSince(this.parts, actor, uploadId, since, timing);
  }

  /** The listing version (ETag) of an answer this service gave, if it has one. */
  versionOf(answer: object): string | undefined {
    return this.parts.answers.versionOf(answer);
  }

  apply<S extends AnswerShape = 'full'>(actor: Actor, uploadId: string, request: ApplyRequest, timing: ServerTiming = NO_TIMING, idempotency?: IdempotentRequest, shape?: S): Promise<ApplyAnswerOf<S>> {
    return applyDecisions(this.parts, actor, uploadId, request, timing, idempotency, shape);
  }

  /** Without `ifMatch` the answer is never a delta. */
  undo<S extends AnswerShape = 'full'>(actor: Actor, uploadId: string, timing?: ServerTiming, idempotency?: IdempotentRequest, shape?: S): Promise<AnswerOf<S>>;
  undo<S extends AnswerShape = 'full'>(actor: Actor, uploadId: string, timing: ServerTiming, idempotency: IdempotentRequest | undefined, shape: S, ifMatch: string | undefined): Promise<ApplyAnswerOf<S>>;
  undo<S extends AnswerShape = 'full'>(actor: Actor, uploadId: string, timing: ServerTiming = NO_TIMING, idempotency?: IdempotentRequest, shape?: S, ifMatch?: string): Promise<ApplyAnswerOf<S>> {
    return undoLastBatch(this.parts, actor, uploadId, timing, idempotency, shape, ifMatch);
  }

  noteDecision(actor: Actor, uploadId: string, changeId: string, note: string, timing: ServerTiming = NO_TIMING): Promise<ReviewResponse> {
    return noteDecision(this.parts, actor, uploadId, changeId, note, timing);
  }

  decisionRecord(actor: Actor, uploadId: string, timing: ServerTiming = NO_TIMING): Promise<DecisionRecord> {
    return decisionRecord(this.parts, actor, uploadId, timing);
  }

  /** Without `ifMatch` the answer is never a delta. */
  redlines<S extends AnswerShape = 'full'>(
    actor: Actor, uploadId: string, body: RedlineEditsBody, timing?: ServerTiming, idempotency?: IdempotentRequest,
    threads?: readonly (readonly string[] | undefined)[], shape?: S,
  ): Promise<AnswerOf<S>>;
  redlines<S extends AnswerShape = 'full'>(
    actor: Actor, uploadId: string, body: RedlineEditsBody, timing: ServerTiming, idempotency: IdempotentRequest | undefined,
    threads: readonly (readonly string[] | undefined)[] | undefined, shape: S, ifMatch: string | undefined,
  ): Promise<ApplyAnswerOf<S>>;
  redlines<S extends AnswerShape = 'full'>(
    actor: Actor, uploadId: string, body: RedlineEditsBody, timing: ServerTiming = NO_TIMING, idempotency?: IdempotentRequest,
    threads?: readonly (readonly string[] | undefined)[], shape?: S, ifMatch?: string,
  ): Promise<ApplyAnswerOf<S>> {
    return redlineEdits(this.parts, actor, uploadId, body, timing, idempotency, threads, shape, ifMatch);
  }

  writeComment(actor: Actor, uploadId: string, makeOp: (author: string) => CommentOp, timing: ServerTiming = NO_TIMING): Promise<CommentsResponse> {
    return writeComment(this.parts, actor, uploadId, makeOp, timing);
  }

  comments(actor: Actor, uploadId: string): Promise<Comment[]> {
    return commentsOf(this.parts, actor, uploadId);
  }

  read<T>(actor: Actor, uploadId: string, read: (doc: OpenDocx, row: UploadRecord) => T): Promise<{ row: UploadRecord; value: T }> {
    return readUpload(this.parts, actor, uploadId, read);
  }

  storedRow(actor: Actor, uploadId: string): Promise<UploadRecord & { content_sha256: string }> {
    return storedRow(this.parts, actor, uploadId);
  }

  download(actor: Actor, uploadId: string, opts: { clean: boolean; removeComments: boolean }): Promise<{ fileName: string; bytes: Uint8Array }> {
    return download(this.parts, actor, uploadId, opts);
  }

  renderVariant(actor: Actor, uploadId: string, timing: ServerTiming = NO_TIMING): Promise<{ sha256: string; bytes: Uint8Array }> {
    return renderVariant(this.parts, actor, uploadId, timing);
  }

  /** Calls `listener` with the draft id after each committed change; answers a function that stops it. */
  onCommitted(listener: (uploadId: string) => void): () => void {
    return this.parts.commits.onCommitted(listener);
  }

  /** Stores the projections still waiting and waits for those being stored (before the database closes). */
  settle(): Promise<void> {
    return this.projections.settle();
  }

  /** The stored projections' counts of these drafts (the documents page reads them); throws when they cannot be read. */
  async storedCounts(uploadIds: string[]): Promise<Map<string, StoredCounts>> {
    await this.parts.faults.projectionRead?.(uploadIds);
    return projectionReader(this.parts.db)(uploadIds);
  }
}
