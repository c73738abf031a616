import type { ReviewListing } from '../../contract/listing-delta';
import type { Revision } from '../../contract/revision';
import type { OpenDocx } from '../../docx';
import { notFound, ProblemError } from '../http/problem';
import type { ServerTiming } from '../http/server-timing';
import type { ContentStore } from '../store/content-store';
import type { Database, Queryable } from '../store/database';
import { findUpload, toDocumentRow, UPLOAD_COLUMNS, type UploadRecord } from '../uploads/upload-rows';
import type { Analysis } from './analysis-cache';
import type { EntryGrouping } from './baseline-entries';
import type { DecisionFacts } from './decision-facts';
import { appendLogEntry, recordProposals, type DecisionLogCache, type NewLogEntry, type StoredLogEntry } from './decision-log';
import { DraftQueue } from './draft-queue';
import { recordedResult, recordResult, type IdempotentRequest, type RecordedKey } from './idempotency';
import type { ProjectionStore } from './projection-store';
import { requireWorkingDraft } from './review-problems';
import type { ReviewFaults } from './review-parts';
import { replayLog, type DecidedChange, type LogState } from './track-projection';

interface Actor {
  orgId: string;
  userId: string;
}

/** A commit that finds the draft changed under it plans again; this many times at most. */
const MAX_COMMIT_ATTEMPTS = 25;

export interface DraftSnapshot {
  row: UploadRecord;
  entries: StoredLogEntry[];
  state: LogState;
  bytes: Uint8Array;
}

export interface PlannedChange {
  /** The opened document that produced `bytes`, kept open for the next batch; null when there is none. */
  doc: OpenDocx | null;
  bytes: Uint8Array;
  /** The analysis of `bytes`, made while they were compressed; the answer awaits it. */
  analysis?: Promise<Analysis>;
  /** For a minimal answer, instead of the analysis: the revisions of `bytes`. */
  revisions?: Revision[];
  log?: Pick<NewLogEntry, 'kind' | 'undoesSeq' | 'accepted' | 'rejected' | 'decided' | 'withdrawn' | 'comment' | 'notes' | 'proposed'>;
  proposals?: { changeId: string; justification: string | null }[];
  /** The bytes were held to the upload caps where they were written (an engine thread): not checked again here. */
  capsChecked?: true;
  /** A batch of decisions the answer's listing can be stepped with from the listing it was planned on (listing-step.ts). */
  step?: DecisionStep;
}

/**
 * What a batch of decisions did, for the answer to step the listing it was planned on instead
 * of projecting the whole log again (listing-step.ts): the changes it decided, with the
 * readings the track is made with (the baseline's facts and entries, the proposals).
 */
export interface DecisionStep {
  /** The listing version the batch was planned on (and the log position and content it names), and that listing as this service answered it. */
  base: string;
  baseAt: { logSeq: number; contentSha256: string };
  previous: ReviewListing;
  decided: Readonly<Record<string, DecidedChange>>;
  facts: DecisionFacts;
  grouping: EntryGrouping;
  proposals: ReadonlyMap<string, { userId: string | null; justification: string | null }>;
}

/**
 * The step of a batch, when the listing it was planned on is held (`previous`, at `base`) and
 * the batch only decides: withdrawals take changes out of the track (their anchors move what
 * hangs on them), so those batches are projected whole.
 */
export function decisionStep(
  base: string, baseAt: DecisionStep['baseAt'], previous: ReviewListing | undefined,
  log: { decided: Record<string, DecidedChange>; withdrawn: Record<string, string | null> },
  readings: Pick<DecisionStep, 'facts' | 'grouping' | 'proposals'>,
): DecisionStep | undefined {
  if (!previous?.track?.entries || Object.keys(log.withdrawn).length > 0 || Object.keys(log.decided).length === 0) return undefined;
  return { base, baseAt, previous, decided: log.decided, ...readings };
}

export interface ChangeResult {
  row: UploadRecord;
  planned: PlannedChange | null;
  /** The decision log's state as committed with `row`. */
  state: LogState;
  /** The log entries `state` was replayed from. */
  entries: readonly StoredLogEntry[];
  /** Set when an earlier request with the same Idempotency-Key already made this change: answer its result. */
  replayed?: RecordedKey;
}

/**
 * How a draft changes: one change at a time per draft (in this process by a queue, across
 * instances by the commit's row lock), the new bytes stored first, then the row and the log
 * entry committed together, only if the draft is still what the change was planned on.
 */
export class DraftCommits {
  /** Changes to one draft, one at a time in this process. */
  readonly queue = new DraftQueue();
  /** Told the draft id after every committed change (the live event feed polls at once). */
  private readonly listeners = new Set<(uploadId: string) => void>();

  constructor(
    private readonly db: Database,
    private readonly content: ContentStore,
    private readonly logs: DecisionLogCache,
    private readonly projections: ProjectionStore,
    private readonly faults: ReviewFaults,
    private readonly requireRow: (db: Queryable, orgId: string, id: string) => Promise<UploadRecord>,
    /** Throws the problem when new bytes are past the upload caps (DOCX_MAX_PARAGRAPHS, DOCX_MAX_TEXT_BYTES). */
    private readonly checkCaps: (bytes: Uint8Array) => void,
  ) {}

  /**
   * One change to a draft. `plan` reads a snapshot (row, log, bytes) and returns the new
   * bytes with the log entry or proposals to record, or null for a no-op. The engine
   * work and the blob write happen outside any transaction (the blob is registered
   * first, so the sweep sees it even if we die now); the commit then takes the row lock
   * and writes the row and the log entry only if the draft is still exactly what the
   * plan read. Otherwise another instance got there first: plan again on the new state,
   * where a decision it already made answers 409.
   */
  async change(
    actor: Actor, uploadId: string, timing: ServerTiming, idempotency: IdempotentRequest | undefined,
    plan: (snapshot: DraftSnapshot) => Promise<PlannedChange | null>,
  ): Promise<ChangeResult> {
    const result = await this.queue.run(uploadId, async (): Promise<ChangeResult> => {
      // The draft is not quiet while it changes: its waiting projection is not stored meanwhile.
      this.projections.hold(uploadId);
      try {
        return await this.plannedAndCommitted(actor, uploadId, timing, idempotency, plan);
      } finally {
        this.projections.release(uploadId);
      }
    });
    if (result.planned) for (const listener of this.listeners) listener(uploadId);
    return result;
  }

  /** `change`'s work under the draft's queue: plan, store, commit; plan again when the draft changed meanwhile. */
  private async plannedAndCommitted(
    actor: Actor, uploadId: string, timing: ServerTiming, idempotency: IdempotentRequest | undefined,
    plan: (snapshot: DraftSnapshot) => Promise<PlannedChange | null>,
  ): Promise<ChangeResult> {
    for (let attempt = 1; ; attempt++) {
      const snapshot = await timing.measure('load', () => this.snapshot(actor.orgId, uploadId));
      // Read after the snapshot: a commit the snapshot saw has its key recorded with it, so a
      // batch that already went through is answered from its record, never planned again (409).
      const recorded = idempotency ? await recordedResult(this.db, uploadId, idempotency) : null;
      if (recorded) return { row: snapshot.row, planned: null, state: snapshot.state, entries: snapshot.entries, replayed: recorded };
      const planned = await plan(snapshot);
      if (!planned) return { row: snapshot.row, planned: null, state: snapshot.state, entries: snapshot.entries };
      // Whatever made them (edits, comments, decisions), the new bytes must open again as an upload
      // would: a draft past the caps could be downloaded but never uploaded again. Nothing is stored.
      if (!planned.capsChecked) timing.measureSync('caps', () => this.checkCaps(planned.bytes));
      const stored = await timing.measure('store', () => this.content.put(planned.bytes));
      await this.faults.afterBlobWrite?.();
      const row = await timing.measure('commit', () => this.db.transaction(async (tx) => {
        const locked = await findUpload(tx, actor.orgId, uploadId, true);
        if (!locked) throw notFound('This document');
        // Under the row lock: the same key committed meanwhile (through another instance) wins.
        const replayed = idempotency ? await recordedResult(tx, uploadId, idempotency) : null;
        if (replayed) return { replayed };
        const [{ last }] = (await tx.query<{ last: number }>(
          'SELECT coalesce(max(seq), 0)::int AS last FROM decision_batches WHERE upload_id = $1', [uploadId])) as [{ last: number }];
        if (locked.content_sha256 !== snapshot.row.content_sha256 || last !== snapshot.state.lastSeq) return null;
        const updated = await this.updateContent(tx, uploadId, stored);
        let entries = snapshot.entries;
        if (planned.log) {
          const entry = {
            ...planned.log, uploadId, seq: last + 1, userId: actor.userId,
            previousSha256: snapshot.row.content_sha256!, nextSha256: stored.sha256,
          };
          await appendLogEntry(tx, entry);
          entries = [...entries, entry];
        }
        if (planned.proposals) await recordProposals(tx, uploadId, actor.userId, planned.proposals);
        const state = planned.log ? replayLog(entries) : snapshot.state;
        if (idempotency) {
          await recordResult(tx, uploadId, actor.userId, idempotency, { logSeq: state.lastSeq, contentSha256: stored.sha256, document: toDocumentRow(updated) });
        }
        // The log as committed under the row lock: the answer's track needs no second read of it.
        return { updated, state, entries };
      }));
      if (row && 'replayed' in row) return { row: snapshot.row, planned: null, state: snapshot.state, entries: snapshot.entries, replayed: row.replayed };
      if (row) return { row: row.updated, planned, state: row.state, entries: row.entries };
      if (attempt >= MAX_COMMIT_ATTEMPTS) {
        throw new ProblemError(409, 'conflict', 'The draft kept changing while this was being applied. Reload and try again.');
      }
    }
  }

  /** Calls `listener` with the draft id after each committed change; answers a function that stops it. */
  onCommitted(listener: (uploadId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async snapshot(orgId: string, uploadId: string): Promise<DraftSnapshot> {
    const row = await this.requireRow(this.db, orgId, uploadId);
    requireWorkingDraft(row);
    if (!row.content_sha256) throw new ProblemError(409, 'conflict', 'This draft has no stored content.');
    const entries = await this.logs.load(this.db, uploadId);
    return { row, entries, state: replayLog(entries), bytes: await this.content.get(row.content_sha256) };
  }

  private async updateContent(tx: Queryable, id: string, stored: { sha256: string; storageKey: string; sizeBytes: number }): Promise<UploadRecord> {
    const rows = await tx.query<UploadRecord>(
      `UPDATE uploads SET content_sha256 = $2, storage_key = $3, size_bytes = $4, has_binary = true, updated_at = now()
       WHERE id = $1 RETURNING ${UPLOAD_COLUMNS}`, [id, stored.sha256, stored.storageKey, stored.sizeBytes]);
    return rows[0]!;
  }
}
