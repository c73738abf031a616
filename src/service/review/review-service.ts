import type { RedlineEditsBody, ReviewResponse } from '../../contract/review';
import type { Revision } from '../../contract/revision';
import type { Track } from '../../contract/track';
import { ConflictingChangeIdsError, DocxError, EditNotFoundError, openDocx, UnknownChangeIdsError, type OpenDocx, type OpenOptions } from '../../docx';
import { findUserById } from '../auth/directory';
import { notFound, ProblemError } from '../http/problem';
import { NO_TIMING, type ServerTiming } from '../http/server-timing';
import type { ContentStore } from '../store/content-store';
import type { Database, Queryable } from '../store/database';
import { findUpload, toDocumentRow, UPLOAD_COLUMNS, type UploadRecord } from '../uploads/upload-rows';
import { docxProblem } from '../uploads/uploads-service';
import { analyse, AnalysisCache, type Analysis } from './analysis-cache';
import { appendLogEntry, loadLog, loadProposals, recordProposals, type NewLogEntry, type StoredLogEntry } from './decision-log';
import { DraftQueue } from './draft-queue';
import { OpenDrafts } from './open-drafts';
import { predecessors, projectTrack, replayLog, type DecidedChange, type LogState } from './track-projection';

/**
 * Test-only fault hooks. Production passes none; tests use them to prove that a
 * failing projection or a crash between blob write and commit loses nothing.
 */
export interface ReviewFaults {
  /** Called before the track projection is written; throwing simulates a failing decisions store. */
  projection?: () => void | Promise<void>;
  /** Called after the new content is stored and before the transaction commits. */
  afterBlobWrite?: () => void | Promise<void>;
}

export interface ApplyRequest {
  accept: string[];
  reject: string[];
  recordDecision: boolean;
}

interface Actor {
  orgId: string;
  userId: string;
}

const uniq = (ids: readonly string[]) => [...new Set(ids)];

/** A commit that finds the draft changed under it plans again; this many times at most. */
const MAX_COMMIT_ATTEMPTS = 25;

interface DraftSnapshot {
  row: UploadRecord;
  entries: StoredLogEntry[];
  state: LogState;
  bytes: Uint8Array;
}

interface PlannedChange {
  /** The opened document that produced `bytes`, kept open for the next batch; null when there is none. */
  doc: OpenDocx | null;
  bytes: Uint8Array;
  /** The analysis of `bytes`, made while they were compressed; the answer awaits it. */
  analysis?: Promise<Analysis>;
  log?: Pick<NewLogEntry, 'kind' | 'undoesSeq' | 'accepted' | 'rejected' | 'decided' | 'withdrawn'>;
  proposals?: { changeId: string; justification: string | null }[];
}

interface ChangeResult {
  row: UploadRecord;
  planned: PlannedChange | null;
  /** The decision log's state as committed with `row`. */
  state: LogState;
}

/**
 * The review of a working draft: its revisions, the render variant, and the track;
 * applying decisions, undoing the last batch, and writing redline edits.
 *
 * Changes to one draft are serialised: in this process by a per-draft queue, across
 * instances by the commit's row lock (`SELECT ... FOR UPDATE`) and its check that the
 * draft is still what the change was computed from (see `change`). The new bytes are
 * stored first, then the row and an append-only log entry are committed together;
 * the track projection is written after the commit, and if that fails the answer
 * carries `track: null` and the next read rebuilds it from the log.
 */
export class ReviewService {
  private readonly cache: AnalysisCache;
  private readonly queue = new DraftQueue();
  private readonly openDrafts: OpenDrafts;
  private readonly projectionWrites = new Set<Promise<void>>();

  constructor(
    private readonly db: Database,
    private readonly content: ContentStore,
    private readonly engine: OpenOptions,
    private readonly log: { warn(obj: object, msg: string): void },
    private readonly faults: ReviewFaults = {},
    memory: { analysesBytes?: number; openDraftsBytes?: number } = {},
  ) {
    this.cache = new AnalysisCache(memory.analysesBytes ?? 256 * 1024 * 1024);
    this.openDrafts = new OpenDrafts(memory.openDraftsBytes ?? 512 * 1024 * 1024);
  }

  async review(actor: Actor, uploadId: string, timing: ServerTiming = NO_TIMING): Promise<ReviewResponse> {
    const row = await timing.measure('load', () => this.requireRow(this.db, actor.orgId, uploadId));
    const analysis = await timing.measure('analyse', () => this.analysisOf(row));
    return timing.measure('track', () => this.respond(row, analysis));
  }

  async apply(actor: Actor, uploadId: string, request: ApplyRequest, timing: ServerTiming = NO_TIMING): Promise<ReviewResponse> {
    const accept = uniq(request.accept);
    const reject = uniq(request.reject);
    const both = accept.filter((id) => reject.includes(id));
    if (both.length > 0) {
      throw new ProblemError(400, 'conflicting_change_ids', `These changes are both accepted and rejected: ${both.join(', ')}. Nothing was applied.`, { ids: both });
    }
    const requested = [...accept, ...reject];
    await timing.measure('load', () => this.requireDraft(actor, uploadId));

    const result = await this.change(actor, uploadId, timing, async ({ row, state, bytes }) => {
      const analysis = await timing.measure('analyse', () => this.analysisFor(row.content_sha256!, bytes));
      const present = new Set(analysis.revisions.map((r) => r.change_id));
      const decidedAlready = requested.filter((id) => !present.has(id) && (state.decided.has(id) || state.withdrawn.has(id)));
      if (decidedAlready.length > 0) {
        throw new ProblemError(409, 'already_decided', `These changes were already decided: ${decidedAlready.join(', ')}. Nothing was applied.`, { ids: decidedAlready });
      }
      const unknown = requested.filter((id) => !present.has(id));
      if (unknown.length > 0) {
        throw new ProblemError(422, 'unknown_change_ids', `This draft has no changes with these ids: ${unknown.join(', ')}. Nothing was applied.`, { ids: unknown });
      }
      const proposals = await timing.measure('load', () => loadProposals(this.db, uploadId));
      if (!request.recordDecision) {
        const notOwn = requested.filter((id) => proposals.get(id)?.userId !== actor.userId);
        if (notOwn.length > 0) {
          throw new ProblemError(403, 'not_own_proposal', `Only your own proposals can be withdrawn without recording a decision; these are not: ${notOwn.join(', ')}.`, { ids: notOwn });
        }
      }
      if (requested.length === 0) return null;

      const doc = timing.measureSync('open', () => this.openDraft(row.content_sha256!, bytes));
      try {
        timing.measureSync('apply', () => doc.apply({ accept, reject }));
      } catch (error) {
        throw engineProblem(error);
      }
      const before = projectTrack(state, this.withJustifications(analysis.revisions, proposals));
      const anchors = predecessors(before);
      const byId = new Map(before.items.map((item) => [item.id, item]));
      const verdicts = new Map<string, 'in' | 'back'>([...accept.map((id) => [id, 'in'] as const), ...reject.map((id) => [id, 'back'] as const)]);
      // Changes the batch resolved without naming them: the tracked edits inside an
      // inserted or deleted row, or inside a rejected insertion, go with their container,
      // which is the nearest decided change before them in document order.
      const remaining = new Set(doc.changeIds());
      let container: 'in' | 'back' | null = null;
      for (const revision of analysis.revisions) {
        const verdict = verdicts.get(revision.change_id);
        if (verdict) container = verdict;
        else if (!remaining.has(revision.change_id) && container) verdicts.set(revision.change_id, container);
      }
      const now = new Date().toISOString();
      const decided: Record<string, DecidedChange> = {};
      const withdrawn: Record<string, string | null> = {};
      for (const [id, verdict] of verdicts) {
        if (!request.recordDecision) {
          withdrawn[id] = anchors.get(id) ?? null;
          continue;
        }
        const item = byId.get(id)!;
        decided[id] = {
          state: verdict, kind: item.kind ?? null, textPreview: item.textPreview ?? '', author: item.author ?? null,
          decidedAt: now, decidedByUserId: actor.userId, after: anchors.get(id) ?? null,
        };
      }
      return { doc, ...(await this.writeAndAnalyse(doc, timing)), log: { kind: 'decide', undoesSeq: null, accepted: accept, rejected: reject, decided, withdrawn } };
    });
    return this.answer(result, timing);
  }

  /** Undoes the newest batch still in effect: its author only, and only if the draft has not changed since. */
  async undo(actor: Actor, uploadId: string, timing: ServerTiming = NO_TIMING): Promise<ReviewResponse> {
    await timing.measure('load', () => this.requireDraft(actor, uploadId));
    const result = await this.change(actor, uploadId, timing, async ({ row, entries, state }) => {
      const lastSeq = state.effective[state.effective.length - 1];
      const last = entries.find((e) => e.seq === lastSeq);
      if (!last) throw new ProblemError(409, 'nothing_to_undo', 'There is no batch of decisions to undo.');
      if (last.userId !== actor.userId) throw new ProblemError(409, 'conflict', 'The last batch was decided by someone else; only its author can undo it.');
      if (last.nextSha256 !== row.content_sha256) {
        throw new ProblemError(409, 'conflict', 'The draft has changed since the last batch (edits or a saved draft), so it can no longer be undone.');
      }
      const previous = await timing.measure('load', () => this.content.get(last.previousSha256));
      return { doc: null, bytes: previous, log: { kind: 'undo', undoesSeq: last.seq, accepted: [], rejected: [], decided: {}, withdrawn: {} } };
    });
    return this.answer(result, timing);
  }

  /** Writes tracked changes on the user's behalf, recording each one's justification. */
  async redlines(actor: Actor, uploadId: string, body: RedlineEditsBody, timing: ServerTiming = NO_TIMING): Promise<ReviewResponse> {
    await timing.measure('load', () => this.requireDraft(actor, uploadId));
    const author = body.author ?? (await findUserById(this.db, actor.userId))?.name ?? 'Redline user';
    const result = await this.change(actor, uploadId, timing, async ({ row, bytes }) => {
      const doc = timing.measureSync('open', () => this.openDraft(row.content_sha256!, bytes));
      let changes: { editIndex: number; changeIds: string[] }[];
      try {
        changes = timing.measureSync('redline', () => doc.writeRedlines(body.edits, { author, date: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') }));
      } catch (error) {
        throw engineProblem(error);
      }
      const proposals = changes.flatMap((c) => c.changeIds.map((changeId) => ({ changeId, justification: body.edits[c.editIndex]?.justification ?? null })));
      return { doc, ...(await this.writeAndAnalyse(doc, timing)), proposals };
    });
    return this.answer(result, timing);
  }

  /**
   * The new bytes of a changed document and, at the same time, their analysis: both XML texts
   * are made on this thread, then the content and the render variant are compressed together
   * on two threads (the native codec's pool). The analysis is awaited by the answer; a commit
   * that has to plan again drops it.
   */
  private async writeAndAnalyse(doc: OpenDocx, timing: ServerTiming): Promise<{ bytes: Uint8Array; analysis: Promise<Analysis> }> {
    const writing = timing.measureSync('write', () => doc.toBytesAsync());
    const analysis = timing.measureSync('render', () => this.analyse(doc, writing));
    analysis.catch(() => {});
    return { bytes: await timing.measure('compress', () => writing), analysis };
  }

  /** The review answer after a change: the new content's analysis, then the track. */
  private async answer(result: ChangeResult, timing: ServerTiming): Promise<ReviewResponse> {
    const analysis = await timing.measure('render', () => this.analysisAfter(result));
    return timing.measure('track', () => this.respond(result.row, analysis, result.state));
  }

  /**
   * One change to a draft. `plan` reads a snapshot (row, log, bytes) and returns the new
   * bytes with the log entry or proposals to record, or null for a no-op. The engine
   * work and the blob write happen outside any transaction (the blob is registered
   * first, so the sweep sees it even if we die now); the commit then takes the row lock
   * and writes the row and the log entry only if the draft is still exactly what the
   * plan read. Otherwise another instance got there first: plan again on the new state,
   * where a decision it already made answers 409.
   */
  private async change(actor: Actor, uploadId: string, timing: ServerTiming, plan: (snapshot: DraftSnapshot) => Promise<PlannedChange | null>): Promise<ChangeResult> {
    return this.queue.run(uploadId, async () => {
      for (let attempt = 1; ; attempt++) {
        const snapshot = await timing.measure('load', () => this.snapshot(actor.orgId, uploadId));
        const planned = await plan(snapshot);
        if (!planned) return { row: snapshot.row, planned: null, state: snapshot.state };
        const stored = await timing.measure('store', () => this.content.put(planned.bytes));
        await this.faults.afterBlobWrite?.();
        const row = await timing.measure('commit', () => this.db.transaction(async (tx) => {
          const locked = await findUpload(tx, actor.orgId, uploadId, true);
          if (!locked) throw notFound('This document');
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
          // The log as committed under the row lock: the answer's track needs no second read of it.
          return { updated, state: planned.log ? replayLog(entries) : snapshot.state };
        }));
        if (row) return { row: row.updated, planned, state: row.state };
        if (attempt >= MAX_COMMIT_ATTEMPTS) {
          throw new ProblemError(409, 'conflict', 'The draft kept changing while this was being applied. Reload and try again.');
        }
      }
    });
  }

  private async snapshot(orgId: string, uploadId: string): Promise<DraftSnapshot> {
    const row = await this.requireRow(this.db, orgId, uploadId);
    if (!row.content_sha256) throw new ProblemError(409, 'conflict', 'This draft has no stored content.');
    const entries = await loadLog(this.db, uploadId);
    return { row, entries, state: replayLog(entries), bytes: await this.content.get(row.content_sha256) };
  }

  /**
   * The analysis of what a change produced, from the document it already has open (no second
   * parse); that document is then kept open for the draft's next batch.
   */
  private async analysisAfter(result: ChangeResult): Promise<Analysis> {
    const sha = result.row.content_sha256!;
    const planned = result.planned;
    if (!planned?.doc || !planned.analysis) return this.analysisOf(result.row);
    const analysis = this.remember(sha, await planned.analysis);
    this.openDrafts.keep(sha, planned.doc);
    return analysis;
  }

  /**
   * The review answer. The track comes from the projection; if that fails, track is null and
   * nothing else is affected. `committed`: the log's state just committed with `row`, if known.
   */
  private async respond(row: UploadRecord, analysis: Analysis, committed?: LogState): Promise<ReviewResponse> {
    let proposals: Awaited<ReturnType<typeof loadProposals>> = new Map();
    let track: Track | null = null;
    try {
      proposals = await loadProposals(this.db, row.id);
    } catch (error) {
      this.log.warn({ err: error }, 'loading proposals failed');
    }
    const revisions = this.withJustifications(analysis.revisions, proposals);
    try {
      track = await this.trackOf(row, revisions, committed);
    } catch (error) {
      this.log.warn({ err: error, uploadId: row.id }, 'track projection failed; answering track: null');
    }
    return { document: toDocumentRow(row), revisions, contentBase64: analysis.contentBase64, renderContentBase64: analysis.renderContentBase64, track };
  }

  /**
   * The track of `row`. After a change (`committed` known) it is projected from that state and
   * stored in the background. Otherwise the stored projection is read when it matches the log
   * and the content, else rebuilt and stored.
   */
  private async trackOf(row: UploadRecord, revisions: Revision[], committed?: LogState): Promise<Track> {
    if (committed) {
      const track = projectTrack(committed, revisions);
      await this.faults.projection?.();
      this.storeInBackground(row, committed.lastSeq, track);
      return track;
    }
    // The stored track (a megabyte on a large draft) is fetched only once it is known to be current.
    const [stored] = await this.db.query<{ log_seq: number | null; content_sha256: string | null; last_seq: number }>(
      `SELECT p.log_seq, p.content_sha256,
              (SELECT coalesce(max(seq), 0) FROM decision_batches d WHERE d.upload_id = $1)::int AS last_seq
       FROM (SELECT 1) one LEFT JOIN track_projection p ON p.upload_id = $1`, [row.id]);
    if (stored && stored.log_seq === stored.last_seq && stored.content_sha256 === row.content_sha256) {
      const [current] = await this.db.query<{ track: Track }>(
        'SELECT track FROM track_projection WHERE upload_id = $1 AND log_seq = $2 AND content_sha256 = $3', [row.id, stored.log_seq, row.content_sha256]);
      if (current) return current.track;
    }
    const state: LogState = replayLog(await loadLog(this.db, row.id));
    const track = projectTrack(state, revisions);
    await this.faults.projection?.();
    await this.storeProjection(row, state.lastSeq, track);
    return track;
  }

  /**
   * Stores a projection without making the answer wait for it (a megabyte of JSON on a large
   * draft). Losing it costs nothing but a rebuild: readers use a stored track only when its log
   * seq and content hash are current. `settle` awaits what is still being written.
   */
  private storeInBackground(row: UploadRecord, logSeq: number, track: Track): void {
    const write = this.storeProjection(row, logSeq, track)
      .catch((error: unknown) => this.log.warn({ err: error, uploadId: row.id }, 'storing the track projection failed; the next read rebuilds it'))
      .finally(() => this.projectionWrites.delete(write));
    this.projectionWrites.add(write);
  }

  private async storeProjection(row: UploadRecord, logSeq: number, track: Track): Promise<void> {
    // An older projection never overwrites a newer one (background writes may finish out of order).
    await this.db.query(
      `INSERT INTO track_projection (upload_id, log_seq, content_sha256, track, updated_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (upload_id) DO UPDATE SET log_seq = EXCLUDED.log_seq, content_sha256 = EXCLUDED.content_sha256,
         track = EXCLUDED.track, updated_at = now()
       WHERE track_projection.log_seq <= EXCLUDED.log_seq`,
      [row.id, logSeq, row.content_sha256, JSON.stringify(track)]);
  }

  /** Waits for projections still being stored (before the database closes). */
  async settle(): Promise<void> {
    while (this.projectionWrites.size > 0) await Promise.all([...this.projectionWrites]);
  }

  private withJustifications(revisions: Revision[], proposals: Map<string, { justification: string | null }>): Revision[] {
    if (proposals.size === 0) return revisions;
    return revisions.map((r) => {
      const recorded = proposals.get(r.change_id)?.justification;
      return recorded ? { ...r, justification: recorded } : r;
    });
  }

  private async analysisOf(row: UploadRecord): Promise<Analysis> {
    if (!row.content_sha256) throw new ProblemError(409, 'conflict', 'This upload has no stored content.');
    const cached = this.cache.get(row.content_sha256);
    if (cached) return cached;
    return this.analysisFor(row.content_sha256, await this.content.get(row.content_sha256));
  }

  private async analysisFor(sha256: string, bytes: Uint8Array): Promise<Analysis> {
    const cached = this.cache.get(sha256);
    if (cached) return cached;
    const doc = this.openDraft(sha256, bytes);
    const analysis = this.remember(sha256, await this.analyse(doc, bytes));
    // Kept open: a review read is usually followed by the reviewer's first batch.
    this.openDrafts.keep(sha256, doc);
    return analysis;
  }

  /** `analyse`, logging a render variant that cannot be built (the answer then carries null). */
  private analyse(doc: OpenDocx, bytes: Uint8Array | Promise<Uint8Array>): Promise<Analysis> {
    return analyse(doc, bytes, (error) => this.log.warn({ err: error }, 'render variant failed'));
  }

  /** The draft with this content, parsed: kept open from an earlier batch or read, else opened now. The caller owns it. */
  private openDraft(sha256: string, bytes: Uint8Array): OpenDocx {
    return this.openDrafts.take(sha256) ?? this.open(bytes);
  }

  private remember(sha256: string, analysis: Analysis): Analysis {
    this.cache.set(sha256, analysis);
    return analysis;
  }

  private open(bytes: Uint8Array): OpenDocx {
    try {
      return openDocx(bytes, this.engine);
    } catch (error) {
      throw engineProblem(error);
    }
  }

  private async requireRow(db: Queryable, orgId: string, id: string): Promise<UploadRecord> {
    const row = await findUpload(db, orgId, id);
    if (!row) throw notFound('This document');
    return row;
  }

  /** Checked before taking the lock so a wrong id or an original answers without waiting. */
  private async requireDraft(actor: Actor, uploadId: string): Promise<void> {
    const row = await this.requireRow(this.db, actor.orgId, uploadId);
    if (row.version_kind !== 'working_draft') {
      throw new ProblemError(409, 'not_working_draft', 'Decisions and edits apply only to a working draft; start one from this version first.');
    }
  }

  private async updateContent(tx: Queryable, id: string, stored: { sha256: string; storageKey: string; sizeBytes: number }): Promise<UploadRecord> {
    const rows = await tx.query<UploadRecord>(
      `UPDATE uploads SET content_sha256 = $2, storage_key = $3, size_bytes = $4, has_binary = true, updated_at = now()
       WHERE id = $1 RETURNING ${UPLOAD_COLUMNS}`, [id, stored.sha256, stored.storageKey, stored.sizeBytes]);
    return rows[0]!;
  }
}

function engineProblem(error: unknown): unknown {
  if (error instanceof UnknownChangeIdsError) {
    return new ProblemError(422, 'unknown_change_ids', `This draft has no changes with these ids: ${error.ids.join(', ')}. Nothing was applied.`, { ids: error.ids });
  }
  if (error instanceof ConflictingChangeIdsError) {
    return new ProblemError(400, 'conflicting_change_ids', `These changes are both accepted and rejected: ${error.ids.join(', ')}.`, { ids: error.ids });
  }
  if (error instanceof EditNotFoundError) {
    return new ProblemError(422, 'edit_not_found',
      `Edit ${error.editIndex + 1} found no "${error.find.length > 80 ? `${error.find.slice(0, 80)}…` : error.find}" in the draft. Nothing was changed.`,
      { errors: [{ path: `edits.${error.editIndex}.find`, message: 'matches nothing in the draft' }] });
  }
  if (error instanceof DocxError) return docxProblem(error);
  return error;
}
