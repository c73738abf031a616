import type { ReviewMinimalResponse, ReviewResponse } from '../../contract/review';
import type { ReviewDelta } from '../../contract/listing-delta';
import type { EngineThreads } from '../engine/engine-threads';
import { notFound } from '../http/problem';
import type { ContentStore } from '../store/content-store';
import type { Database, Queryable } from '../store/database';
import { findUpload, type UploadRecord } from '../uploads/upload-rows';
import type { Baselines } from './baselines';
import type { DecisionLogCache } from './decision-log';
import type { DraftCommits } from './draft-commits';
import type { DraftReads } from './draft-reads';
import { requireWorkingDraft } from './review-problems';
import type { ReviewAnswers } from './review-answers';

/**
 * What every review operation (apply-decisions.ts, undo-batch.ts, redline-edits.ts, ...) works
 * with: the stores, the drafts kept parsed, how answers are made and how changes are committed.
 * One set per service (review-service.ts builds it), so the operations share their caches.
 */
export interface ReviewParts {
  db: Database;
  content: ContentStore;
  log: { warn(obj: object, msg: string): void };
  faults: ReviewFaults;
  /** Drafts parsed and analysed, kept by content hash (draft-reads.ts). */
  reads: DraftReads;
  /** The review answers and listing versions given (review-answers.ts). */
  answers: ReviewAnswers;
  /** How the draft's changes are committed (draft-commits.ts). */
  commits: DraftCommits;
  /** What drafts' baselines say: decision facts and entries (baselines.ts). */
  baselines: Baselines;
  /** Drafts' decision logs as last read: a batch reads only the entries since. */
  logs: DecisionLogCache;
  /** The engine's worker threads, where heavy batches of edits are written (null: all in process). */
  threads: EngineThreads | null;
}

/**
 * Test-only fault hooks. Production passes none; tests use them to prove that a
 * failing projection or a crash between blob write and commit loses nothing.
 */
export interface ReviewFaults {
  /** Called before the track projection is written; throwing simulates a failing decisions store. */
  projection?: () => void | Promise<void>;
  /** Called before stored track projections of these drafts are read; throwing simulates a decisions store that cannot be read. */
  projectionRead?: (uploadIds: string[]) => void | Promise<void>;
  /** Called after the new content is stored and before the transaction commits. */
  afterBlobWrite?: () => void | Promise<void>;
  /** Called with a listing stepped after a batch (listing-step.ts) and the listing projected from the whole log, to compare them. */
  stepped?: (stepped: ReviewMinimalResponse, rebuilt: ReviewMinimalResponse) => void | Promise<void>;
}

export interface Actor {
  orgId: string;
  userId: string;
}

/**
 * What a change answers: the whole review ('full', the interface's default), or without the
 * content and its render variant ('minimal': `Prefer: return=minimal`), which then need not be
 * encoded, and the render variant not even built until someone asks for it.
 */
export type AnswerShape = 'full' | 'minimal';
export type AnswerOf<S extends AnswerShape> = S extends 'minimal' ? ReviewMinimalResponse : ReviewResponse;
/** A change's answer (apply, undo, redline edits): minimal ones may be the delta from the listing the client holds (If-Match). */
export type ApplyAnswerOf<S extends AnswerShape> = S extends 'minimal' ? ReviewMinimalResponse | ReviewDelta : ReviewResponse;

export async function requireRow(db: Queryable, orgId: string, id: string): Promise<UploadRecord> {
  const row = await findUpload(db, orgId, id);
  if (!row) throw notFound('This document');
  return row;
}

/** Checked before taking the lock so a wrong id or an original answers without waiting. */
export async function requireDraft(parts: ReviewParts, actor: Actor, uploadId: string): Promise<void> {
  requireWorkingDraft(await requireRow(parts.db, actor.orgId, uploadId));
}

/**
 * `requireDraft` when the draft's queue has work waiting, so a wrong id or an original answers
 * without waiting behind it; with nothing queued there is no wait, and the change's snapshot
 * checks the same (one query fewer per batch).
 */
export async function requireDraftIfQueued(parts: ReviewParts, actor: Actor, uploadId: string): Promise<void> {
  if (parts.commits.queue.has(uploadId)) await requireDraft(parts, actor, uploadId);
}

export const uniq = (ids: readonly string[]) => [...new Set(ids)];
