import type { Comment, CommentsResponse } from '../../contract/comments';
import type { ReviewDelta } from '../../contract/listing-delta';
import { type RedlineEditsBody, type ReviewMinimalResponse, type ReviewResponse } from '../../contract/review';
import type { Revision } from '../../contract/revision';
import type { Track } from '../../contract/track';
import { checkWrittenWork, openDocx, type OpenDocx, type OpenOptions, type WorkLimits } from '../../docx';
import { findUserById } from '../auth/directory';
import type { EngineThreads, RedlineWritten } from '../engine/engine-threads';
import { notFound, ProblemError, type ProblemExtras } from '../http/problem';
import { NO_TIMING, type ServerTiming } from '../http/server-timing';
import { sha256Hex, type ContentStore } from '../store/content-store';
import type { Database, Queryable } from '../store/database';
import { findUpload, toDocumentRow, type UploadRecord } from '../uploads/upload-rows';
import { projectionReader, type StoredCounts } from './draft-progress';
import { analyse, AnalysisCache, toBase64, type Analysis } from './analysis-cache';
import { commentProblem, commentsToReplay } from './comment-problems';
import { addThreadsToEdits, performCommentOp, type CommentOp } from './comment-ops';
import { appendLogEntry, DecisionLogCache, loadLog, loadProposals, type NewLogEntry } from './decision-log';
import { batchVerdicts, namedVerdicts, recordOf } from './implied-decisions';
import { ByteBudgetLru } from './byte-budget-lru';
import { regrouped } from './baseline-entries';
import type { IdempotentRequest, RecordedKey } from './idempotency';
import { Baselines, type Committed } from './baselines';
import { DraftCommits, type ChangeResult } from './draft-commits';
import { OpenDrafts } from './open-drafts';
import { listingDelta, Listings, listingVersion } from './listing-delta';
import { checkNotes, engineProblem, requireWorkingDraft } from './review-problems';
import { ProjectionStore } from './projection-store';
import { predecessors, projectTrack, replayLog, type DecidedChange, type LogState } from './track-projection';

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
}

export interface ApplyRequest {
  accept: string[];
  reject: string[];
  recordDecision: boolean;
  /** Notes recorded with this batch's decisions, by change id (only ids it names). */
  notes?: Record<string, string>;
  /** If-Match: the listing version the client holds; the batch applies only to it, and a minimal answer is the delta from it. */
  ifMatch?: string;
}

/** What the decision report reads: the review as it stands, and what the log remembers of each decided change. */
export interface DecisionRecord {
  review: ReviewResponse;
  decided: ReadonlyMap<string, DecidedChange>;
  /** The draft's comments as it stands. */
  comments: readonly Comment[];
  /** The change each comment written on a change through the review was written on (by comment id): it still names it once the change is decided. */
  commentOn: ReadonlyMap<string, string>;
}

/**
 * What a change answers: the whole review ('full', the interface's default), or without the
 * content and its render variant ('minimal': `Prefer: return=minimal`), which then need not be
 * encoded, and the render variant not even built until someone asks for it.
 */
export type AnswerShape = 'full' | 'minimal';
type AnswerOf<S extends AnswerShape> = S extends 'minimal' ? ReviewMinimalResponse : ReviewResponse;
/** An apply's answer: minimal ones may be the delta from the listing the client holds (If-Match). */
type ApplyAnswerOf<S extends AnswerShape> = S extends 'minimal' ? ReviewMinimalResponse | ReviewDelta : ReviewResponse;

interface Actor {
  orgId: string;
  userId: string;
}

const uniq = (ids: readonly string[]) => [...new Set(ids)];

/**
 * Batches of at least this many edits are written on an engine thread: the batch's own work is
 * small (each story is indexed once), but reading the draft's blocks, writing it and building its
 * render variant take a second or more on a long draft, which would hold every other request.
 * Smaller batches are written here, on the draft kept open, which answers sooner.
 */
const HEAVY_EDIT_BATCH = 50;

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
  /** What drafts' baselines say: decision facts and entries (baselines.ts). */
  private readonly baselines: Baselines;
  /** Revisions by content hash, also of content answered minimal (no analysis made): what the next batch checks its ids against. */
  private readonly revisionsBySha = new ByteBudgetLru<Revision[]>(64 * 1024 * 1024);
  /** Drafts' decision logs as last read: a batch reads only the entries since. */
  private readonly logs = new DecisionLogCache();
  private readonly openDrafts: OpenDrafts;
  /** Each draft's listing as last answered: what a minimal answer's delta is made against (listing-delta.ts). */
  private readonly listings = new Listings(64 * 1024 * 1024);
  /** The listing version of answers given (their ETag), by answer. */
  private readonly versions = new WeakMap<object, string>();
  /** Track projections stored, and waiting to be (projection-store.ts). */
  private readonly projections: ProjectionStore;
  /** The caps an upload is held to (DOCX_MAX_PARAGRAPHS, DOCX_MAX_TEXT_BYTES): every change's result is held to them too. */
  private readonly work: WorkLimits;
  /** The engine's worker threads, where heavy batches of edits are written (null: all in process). */
  private readonly threads: EngineThreads | null;
  /** How the draft's changes are committed (draft-commits.ts). */
  private readonly commits: DraftCommits;

  constructor(
    private readonly db: Database,
    private readonly content: ContentStore,
    private readonly engine: OpenOptions,
    private readonly log: { warn(obj: object, msg: string): void },
    private readonly faults: ReviewFaults = {},
    options: { analysesBytes?: number; openDraftsBytes?: number; work?: WorkLimits; threads?: EngineThreads } = {},
  ) {
    this.cache = new AnalysisCache(options.analysesBytes ?? 256 * 1024 * 1024);
    this.openDrafts = new OpenDrafts(options.openDraftsBytes ?? 512 * 1024 * 1024);
    this.projections = new ProjectionStore(db, log);
    this.commits = new DraftCommits(db, content, this.logs, this.projections, faults, (q, orgId, id) => this.requireRow(q, orgId, id),
      (bytes) => this.checkCaps(bytes));
    this.baselines = new Baselines(content, {
      open: (bytes) => this.open(bytes),
      openDraft: (sha256, bytes) => this.openDraft(sha256, bytes),
      keep: (sha256, doc) => this.openDrafts.keep(sha256, doc),
      warn: (obj, msg) => this.log.warn(obj, msg),
    });
    this.work = options.work ?? {};
    this.threads = options.threads ?? null;
  }

  async review(actor: Actor, uploadId: string, timing: ServerTiming = NO_TIMING): Promise<ReviewResponse> {
    const row = await timing.measure('load', () => this.requireRow(this.db, actor.orgId, uploadId));
    const analysis = await timing.measure('analyse', () => this.analysisOf(row, timing));
    await this.leaveOpen(row, timing);
    // The log's seq before the track: a change committed meanwhile leaves a version no draft has (If-Match then answers 412), never a wrong listing under a right one.
    const logSeq = row.content_sha256 ? replayLog(await timing.measure('load', () => this.logs.load(this.db, row.id))).lastSeq : 0;
    const answer = await timing.measure('track', () => this.respond(row, analysis));
    if (row.content_sha256) this.rememberListing(answer, listingVersion(row.content_sha256, logSeq));
    return answer;
  }

  /** The listing version (ETag) of an answer this service gave, if it has one. */
  versionOf(answer: object): string | undefined {
    return this.versions.get(answer);
  }

  private rememberListing(answer: ReviewMinimalResponse, version: string): void {
    this.versions.set(answer, version);
    this.listings.remember(answer.document.id, version, answer);
  }

  async apply<S extends AnswerShape = 'full'>(actor: Actor, uploadId: string, request: ApplyRequest, timing: ServerTiming = NO_TIMING, idempotency?: IdempotentRequest, shape?: S): Promise<ApplyAnswerOf<S>> {
    const accept = uniq(request.accept);
    const reject = uniq(request.reject);
    const both = accept.filter((id) => reject.includes(id));
    if (both.length > 0) {
      throw new ProblemError(400, 'conflicting_change_ids', `These changes are both accepted and rejected: ${both.join(', ')}. Nothing was applied.`, { ids: both });
    }
    const requested = [...accept, ...reject];
    const notes = checkNotes(request.notes ?? {}, new Set(requested), request.recordDecision);
    await timing.measure('load', () => this.requireDraftIfQueued(actor, uploadId));

    const result = await this.commits.change(actor, uploadId, timing, idempotency, async ({ row, entries, state, bytes }) => {
      if (request.ifMatch !== undefined && request.ifMatch !== listingVersion(row.content_sha256!, state.lastSeq)) {
        throw new ProblemError(412, 'listing_changed', 'The draft has changed since the listing this batch was decided on. Nothing was applied; read the review again.');
      }
      const revisions = await timing.measure('analyse', () => this.revisionsFor(row.content_sha256!, bytes));
      const present = new Set(revisions.map((r) => r.change_id));
      const decidedAlready = requested.filter((id) => !present.has(id) && (state.decided.has(id) || state.withdrawn.has(id)));
      if (decidedAlready.length > 0) {
        throw new ProblemError(409, 'already_decided', `These changes were already decided: ${decidedAlready.join(', ')}. Nothing was applied.`,
          { ids: decidedAlready, decisions: await this.howDecided(decidedAlready, state) });
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

      const doc = this.openDraft(row.content_sha256!, bytes, timing);
      const facts = await timing.measure('facts', () => this.baselines.decisionFacts(entries, row.content_sha256!, doc.changeIds(), () => doc));
      const grouping = await timing.measure('facts', () => this.baselines.entryGrouping(entries, row.content_sha256!, () => doc));
      try {
        timing.measureSync('apply', () => doc.apply({ accept, reject }));
      } catch (error) {
        throw engineProblem(error);
      }
      const before = projectTrack(state, regrouped(this.withJustifications(revisions, proposals), grouping));
      const revisionById = new Map(revisions.map((r) => [r.change_id, r]));
      const anchors = predecessors(before);
      const byId = new Map(before.items.map((item) => [item.id, item]));
      const named = new Map<string, 'in' | 'back'>([...accept.map((id) => [id, 'in'] as const), ...reject.map((id) => [id, 'back'] as const)]);
      // Named changes, and those the batch took with them (implied-decisions.ts).
      const verdicts = batchVerdicts(revisions, named, new Set(doc.changeIds()), facts, namedVerdicts(state.decided));
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
          ...recordOf(verdict), kind: item.kind ?? null, textPreview: item.textPreview ?? '', author: item.author ?? null,
          decidedAt: now, decidedByUserId: actor.userId, after: anchors.get(id) ?? null,
          date: revisionById.get(id)?.date ?? null, justification: item.justification ?? null,
          ...(item.group ? { group: item.group, groupSummary: item.groupSummary ?? item.textPreview ?? '' } : {}),
          ...(item.clause ? { clause: item.clause } : {}),
          ...(item.move ? { move: true as const } : {}),
        };
      }
      return { doc, ...(await this.writeAndAnalyse(doc, timing, shape)), log: { kind: 'decide', undoesSeq: null, accepted: accept, rejected: reject, decided, withdrawn, notes } };
    });
    return this.answer(result, timing, idempotency, shape, request.ifMatch);
  }

  /** Who decided each of these changes and how (for a 409 the reviewer can read); withdrawn ones are left out. */
  private async howDecided(ids: string[], state: LogState): Promise<NonNullable<ProblemExtras['decisions']>> {
    const names = new Map<string, string | null>();
    const decisions: NonNullable<ProblemExtras['decisions']> = [];
    for (const id of ids) {
      const d = state.decided.get(id);
      if (!d) continue;
      if (d.decidedByUserId && !names.has(d.decidedByUserId)) names.set(d.decidedByUserId, (await findUserById(this.db, d.decidedByUserId))?.name ?? null);
      decisions.push({ id, state: d.state, decidedAt: d.decidedAt, decidedByUserId: d.decidedByUserId, decidedByName: d.decidedByUserId ? names.get(d.decidedByUserId) ?? null : null });
    }
    return decisions;
  }

  /** Undoes the newest batch still in effect: its author only, and only if the draft has not changed since. */
  async undo<S extends AnswerShape = 'full'>(actor: Actor, uploadId: string, timing: ServerTiming = NO_TIMING, idempotency?: IdempotentRequest, shape?: S): Promise<AnswerOf<S>> {
    await timing.measure('load', () => this.requireDraftIfQueued(actor, uploadId));
    const result = await this.commits.change(actor, uploadId, timing, idempotency, async ({ row, entries, state }) => {
      const lastSeq = state.effective[state.effective.length - 1];
      const last = entries.find((e) => e.seq === lastSeq);
      if (!last) throw new ProblemError(409, 'nothing_to_undo', 'There is no batch of decisions to undo.');
      if (last.userId !== actor.userId) throw new ProblemError(409, 'conflict', 'The last batch was decided by someone else; only its author can undo it.');
      // Comments written since the batch are written again on the content it restores.
      const replay = commentsToReplay(entries, last, row.content_sha256!);
      if (!replay) {
        throw new ProblemError(409, 'conflict', 'The draft has changed since the last batch (edits or a saved draft), so it can no longer be undone.');
      }
      const previous = await timing.measure('load', () => this.content.get(last.previousSha256));
      const log = { kind: 'undo' as const, undoesSeq: last.seq, accepted: [], rejected: [], decided: {}, withdrawn: {} };
      if (replay.length === 0) return { doc: null, bytes: previous, log };
      const doc = this.open(previous);
      for (const op of replay) {
        let id: string;
        try {
          id = performCommentOp(doc, op);
        } catch {
          throw new ProblemError(409, 'conflict', 'A comment written since the last batch cannot be placed on the draft without it, so the batch can no longer be undone.');
        }
        if (id !== op.commentId) throw new ProblemError(409, 'conflict', 'The comments written since the last batch cannot be written again as they were, so the batch can no longer be undone.');
      }
      return { doc, ...(await this.writeAndAnalyse(doc, timing, shape)), log };
    });
    return this.answer(result, timing, idempotency, shape) as Promise<AnswerOf<S>>; // no base: never a delta
  }

  /**
   * Records a note on a decision already in effect (empty text removes it): an appended log
   * entry of kind 'note' that leaves the content as it is, so an undo still finds its batch.
   */
  async noteDecision(actor: Actor, uploadId: string, changeId: string, note: string, timing: ServerTiming = NO_TIMING): Promise<ReviewResponse> {
    checkNotes({ [changeId]: note }, new Set([changeId]), true);
    await timing.measure('load', () => this.requireDraft(actor, uploadId));
    const { row, state } = await this.commits.queue.run(uploadId, () => timing.measure('commit', () => this.db.transaction(async (tx) => {
      const locked = await findUpload(tx, actor.orgId, uploadId, true);
      if (!locked) throw notFound('This document');
      const entries = await loadLog(tx, uploadId);
      const before = replayLog(entries);
      if (!before.decided.has(changeId)) {
        throw new ProblemError(422, 'note_without_decision', `${changeId} has no recorded decision to note. Decide it first (or send the note with its decision).`, { ids: [changeId] });
      }
      const entry: NewLogEntry = {
        uploadId, seq: before.lastSeq + 1, kind: 'note', undoesSeq: null, userId: actor.userId, accepted: [], rejected: [],
        decided: {}, withdrawn: {}, notes: { [changeId]: note.trim() }, previousSha256: locked.content_sha256!, nextSha256: locked.content_sha256!,
      };
      await appendLogEntry(tx, entry);
      const committed = [...entries, entry];
      return { row: locked, state: { entries: committed, state: replayLog(committed) } };
    })));
    const analysis = await timing.measure('analyse', () => this.analysisOf(row));
    return timing.measure('track', () => this.respond(row, analysis, state));
  }

  /** The review and the log's memory of every decided change, for the decision report. */
  async decisionRecord(actor: Actor, uploadId: string, timing: ServerTiming = NO_TIMING): Promise<DecisionRecord> {
    const row = await timing.measure('load', () => this.requireRow(this.db, actor.orgId, uploadId));
    const [analysis, entries] = await timing.measure('analyse', () => Promise.all([this.analysisOf(row), this.logs.load(this.db, uploadId)]));
    const state = replayLog(entries);
    const review = await timing.measure('track', () => this.respond(row, analysis, { entries, state }));
    const { value: comments } = await this.read(actor, uploadId, (doc) => doc.comments());
    const commentOn = new Map<string, string>();
    for (const entry of entries) {
      const op = entry.comment;
      if (entry.kind === 'comment' && op?.op === 'add' && 'changeId' in op.target) commentOn.set(op.commentId, op.target.changeId);
    }
    return { review, decided: state.decided, comments, commentOn };
  }

  /** Writes tracked changes on the user's behalf, recording each one's justification. */
  async redlines<S extends AnswerShape = 'full'>(
    actor: Actor, uploadId: string, body: RedlineEditsBody, timing: ServerTiming = NO_TIMING, idempotency?: IdempotentRequest,
    threads?: readonly (readonly string[] | undefined)[], shape?: S,
  ): Promise<AnswerOf<S>> {
    await timing.measure('load', () => this.requireDraft(actor, uploadId));
    const author = body.author ?? (await findUserById(this.db, actor.userId))?.name ?? 'Redline user';
    const result = await this.commits.change(actor, uploadId, timing, idempotency, async ({ row, bytes }) => {
      const date = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      const proposalsOf = (changes: { editIndex: number; changeIds: string[] }[]) =>
        changes.flatMap((c) => c.changeIds.map((changeId) => ({ changeId, justification: body.edits[c.editIndex]?.justification ?? null })));
      // A log entry too, so the draft's viewers see the new changes arrive like any other change.
      const logOf = (proposals: { changeId: string }[]) =>
        ({ kind: 'redline' as const, undoesSeq: null, accepted: [], rejected: [], decided: {}, withdrawn: {}, proposed: proposals.map((p) => p.changeId) });
      if (this.threads && body.edits.length >= HEAVY_EDIT_BATCH) {
        // Off this thread: the draft is read, edited, written and analysed on an engine thread.
        let written: RedlineWritten;
        try {
          written = await timing.measure('redline', () => this.threads!.redline(bytes, body.edits, { author, date }, threads ? [...threads] : null, shape !== 'minimal', { orgId: actor.orgId }));
          // The engine thread's own time (reading, editing, writing and analysing the draft); the rest of `redline` waited for it.
          timing.add('engine', written.engineMs);
        } catch (error) {
          throw engineProblem(error);
        }
        const proposals = proposalsOf(written.changes);
        // The track's readings of the new content, read there: the answer opens nothing here.
        this.baselines.remember(sha256Hex(written.bytes), written.readings);
        const analysis = shape === 'minimal' ? undefined
          : Promise.resolve({ revisions: written.revisions, contentBase64: toBase64(written.bytes), renderContentBase64: written.render && toBase64(written.render) });
        return { doc: null, bytes: written.bytes, capsChecked: true, ...(analysis ? { analysis } : { revisions: written.revisions }), proposals, log: logOf(proposals) };
      }
      const doc = this.openDraft(row.content_sha256!, bytes, timing);
      let changes: { editIndex: number; changeIds: string[] }[];
      try {
        changes = timing.measureSync('redline', () => doc.writeRedlines(body.edits, { author, date }));
        // Comment threads the assistant gave its proposals (MCP propose_redlines), in the same commit.
        if (threads) timing.measureSync('comment', () => addThreadsToEdits(doc, changes, threads, { author, date }));
      } catch (error) {
        throw engineProblem(error);
      }
      const proposals = proposalsOf(changes);
      return { doc, ...(await this.writeAndAnalyse(doc, timing, shape)), proposals, log: logOf(proposals) };
    });
    return this.answer(result, timing, idempotency, shape) as Promise<AnswerOf<S>>; // no base: never a delta
  }

  // ---- comments (issue 14; routes in routes/comment-routes.ts) ----------------------------------

  /**
   * A comment write: `makeOp` (given the signed-in user's name as author) says what to write; it is
   * performed on the open draft, and the new content is committed like a batch, through the same
   * per-draft queue and row-locked commit, and recorded in the decision log as a 'comment' entry
   * (no decisions), so undo can write it again on the content an undo restores. Bad input (an
   * unknown change or comment, an anchor that does not occur) changes nothing.
   */
  async writeComment(actor: Actor, uploadId: string, makeOp: (author: string) => CommentOp, timing: ServerTiming = NO_TIMING): Promise<CommentsResponse> {
    await timing.measure('load', () => this.requireDraft(actor, uploadId));
    const op = makeOp((await findUserById(this.db, actor.userId))?.name ?? 'Redline user');
    let written = '';
    let comments: Comment[] = [];
    const result = await this.commits.change(actor, uploadId, timing, undefined, async ({ row, bytes }) => {
      const doc = this.openDraft(row.content_sha256!, bytes, timing);
      try {
        written = timing.measureSync('comment', () => performCommentOp(doc, op));
      } catch (error) {
        throw commentProblem(error) ?? engineProblem(error);
      }
      comments = timing.measureSync('comment', () => doc.comments());
      const logged: CommentOp = op.op === 'resolve' ? op : { ...op, commentId: written };
      return { doc, ...(await this.writeAndAnalyse(doc, timing)), log: { kind: 'comment', undoesSeq: null, accepted: [], rejected: [], decided: {}, withdrawn: {}, comment: logged } };
    });
    return { ...(await this.answer(result, timing)), comments, commentId: written };
  }

  /** The comments of a document (any version: an original's comments are readable too). */
  async comments(actor: Actor, uploadId: string): Promise<Comment[]> {
    return (await this.read(actor, uploadId, (doc) => doc.comments())).value;
  }

  /**
   * Reads an upload of the caller's organisation (any version, a playbook too) on its parsed
   * document: the draft kept open for its batches when there is one (and kept open after), so a
   * read next to a review parses nothing. `read` must not change the document.
   */
  async read<T>(actor: Actor, uploadId: string, read: (doc: OpenDocx, row: UploadRecord) => T): Promise<{ row: UploadRecord; value: T }> {
    const row = await this.requireRow(this.db, actor.orgId, uploadId);
    if (!row.content_sha256) throw new ProblemError(409, 'conflict', 'This upload has no stored content.');
    const doc = this.openDraft(row.content_sha256, await this.content.get(row.content_sha256));
    try {
      return { row, value: read(doc, row) };
    } finally {
      this.openDrafts.keep(row.content_sha256, doc);
    }
  }

  /** An upload of the caller's organisation with stored content (any version, a playbook too), unparsed: for work done off this thread. */
  async storedRow(actor: Actor, uploadId: string): Promise<UploadRecord & { content_sha256: string }> {
    const row = await this.requireRow(this.db, actor.orgId, uploadId);
    if (!row.content_sha256) throw new ProblemError(409, 'conflict', 'This upload has no stored content.');
    return { ...row, content_sha256: row.content_sha256 };
  }

  /**
   * A download of the document: as it stands, or a clean copy (every open change accepted); with
   * its comments, or without any. Made on a fresh parse, so the draft kept open is not touched.
   */
  async download(actor: Actor, uploadId: string, opts: { clean: boolean; removeComments: boolean }): Promise<{ fileName: string; bytes: Uint8Array }> {
    const row = await this.requireRow(this.db, actor.orgId, uploadId);
    if (!row.content_sha256) throw new ProblemError(409, 'conflict', 'This upload has no stored content.');
    const bytes = await this.content.get(row.content_sha256);
    const fileName = opts.clean ? row.file_name.replace(/(\.docx)?$/i, ' (clean).docx') : row.file_name;
    if (!opts.clean && !opts.removeComments) return { fileName, bytes };
    const doc = this.open(bytes);
    try {
      if (opts.clean) doc.apply({ accept: doc.changeIds(), reject: [] });
      if (opts.removeComments) doc.removeComments();
    } catch (error) {
      throw engineProblem(error);
    }
    return { fileName, bytes: await doc.toBytesAsync() };
  }

  /**
   * The new bytes of a changed document and, at the same time, their analysis: both XML texts
   * are made on this thread, then the content and the render variant are compressed together
   * on two threads (the native codec's pool). The analysis is awaited by the answer; a commit
   * that has to plan again drops it.
   */
  private async writeAndAnalyse(doc: OpenDocx, timing: ServerTiming, shape: AnswerShape = 'full'): Promise<{ bytes: Uint8Array; analysis?: Promise<Analysis>; revisions?: Revision[] }> {
    const writing = timing.measureSync('write', () => doc.toBytesAsync());
    if (shape === 'minimal') {
      // No render variant now: it is built from the draft kept open when someone asks for it.
      const revisions = timing.measureSync('revisions', () => doc.revisions());
      return { bytes: await timing.measure('compress', () => writing), revisions };
    }
    const analysis = timing.measureSync('render', () => this.analyse(doc, writing));
    analysis.catch(() => {});
    return { bytes: await timing.measure('compress', () => writing), analysis };
  }

  /** The review answer after a change: the new content's analysis, then the track. */
  private async answer<S extends AnswerShape = 'full'>(result: ChangeResult, timing: ServerTiming, idempotency?: IdempotentRequest, shape?: S, base?: string): Promise<ApplyAnswerOf<S>> {
    const minimal = shape === 'minimal';
    if (result.replayed) {
      if (idempotency) idempotency.replayed = true;
      const replayed = await timing.measure('replay', () => this.replay(result.row.id, result.replayed!));
      return (minimal ? withoutContent(replayed) : replayed) as ApplyAnswerOf<S>;
    }
    const version = listingVersion(result.row.content_sha256!, result.state.lastSeq);
    if (minimal) {
      const revisions = await timing.measure('revisions', () => this.revisionsAfter(result));
      const listing = await timing.measure('track', () => this.respondMinimal(result.row, revisions, result));
      // The client's listing (If-Match) as this service answered it: the delta from it, proportional to the batch.
      const previous = base === undefined ? undefined : this.listings.at(result.row.id, base);
      const delta = previous && base !== undefined ? timing.measureSync('delta', () => listingDelta(base, previous, version, listing)) : null;
      this.rememberListing(listing, version);
      return (delta ?? listing) as ApplyAnswerOf<S>;
    }
    const analysis = await timing.measure('render', () => this.analysisAfter(result));
    const answer = await timing.measure('track', () => this.respond(result.row, analysis, result));
    this.rememberListing(answer, version);
    return answer as ApplyAnswerOf<S>;
  }

  /** The render variant of a draft as it stands (its content when the variant cannot be built), with the content hash it shows. */
  async renderVariant(actor: Actor, uploadId: string, timing: ServerTiming = NO_TIMING): Promise<{ sha256: string; bytes: Uint8Array }> {
    const row = await timing.measure('load', () => this.requireRow(this.db, actor.orgId, uploadId));
    const analysis = await timing.measure('render', () => this.analysisOf(row));
    return { sha256: row.content_sha256!, bytes: new Uint8Array(Buffer.from(analysis.renderContentBase64 ?? analysis.contentBase64, 'base64')) };
  }

  /** Calls `listener` with the draft id after each committed change; answers a function that stops it. */
  onCommitted(listener: (uploadId: string) => void): () => void {
    return this.commits.onCommitted(listener);
  }

  /**
   * The answer a recorded request gave: its document row, the content it committed (with its
   * render variant and revisions) and the track as the log stood at its entry.
   */
  private async replay(uploadId: string, recorded: RecordedKey): Promise<ReviewResponse> {
    const analysis = this.cache.get(recorded.contentSha256) ?? await this.analysisFor(recorded.contentSha256, await this.content.get(recorded.contentSha256));
    const proposals = await loadProposals(this.db, uploadId);
    const revisions = this.withJustifications(analysis.revisions, proposals);
    const entries = (await this.logs.load(this.db, uploadId)).filter((e) => e.seq <= recorded.logSeq);
    const track = await this.baselines.track(recorded.contentSha256, { entries, state: replayLog(entries) }, revisions);
    return { document: recorded.document, revisions, contentBase64: analysis.contentBase64, renderContentBase64: analysis.renderContentBase64, track };
  }

  /**
   * The analysis of what a change produced, from the document it already has open (no second
   * parse); that document is then kept open for the draft's next batch.
   */
  private async analysisAfter(result: ChangeResult): Promise<Analysis> {
    const sha = result.row.content_sha256!;
    const planned = result.planned;
    if (!planned?.analysis) return this.analysisOf(result.row);
    const analysis = this.remember(sha, await planned.analysis);
    // A change made on an engine thread leaves no document open here.
    if (planned.doc) this.openDrafts.keep(sha, planned.doc);
    return analysis;
  }

  /** The revisions of what a change produced (minimal answer); the document it has open is kept for the draft's next batch. */
  private async revisionsAfter(result: ChangeResult): Promise<Revision[]> {
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
  private async revisionsFor(sha256: string, bytes: Uint8Array): Promise<Revision[]> {
    const known = this.revisionsBySha.get(sha256) ?? this.cache.get(sha256)?.revisions;
    if (known) return known;
    const doc = this.openDraft(sha256, bytes);
    const revisions = doc.revisions();
    this.revisionsBySha.set(sha256, revisions, revisionsBytes(revisions));
    this.openDrafts.keep(sha256, doc);
    return revisions;
  }

  /**
   * The review answer. The track comes from the projection; if that fails, track is null and
   * nothing else is affected. `committed`: the log's state just committed with `row`, if known.
   */
  private async respond(row: UploadRecord, analysis: Analysis, committed?: Committed): Promise<ReviewResponse> {
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
    const revisions = this.withJustifications(engineRevisions, proposals);
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

  /** Stores the projections still waiting and waits for those being stored (before the database closes). */
  settle(): Promise<void> {
    return this.projections.settle();
  }

  /** The stored projections' counts of these drafts (the documents page reads them); throws when they cannot be read. */
  async storedCounts(uploadIds: string[]): Promise<Map<string, StoredCounts>> {
    await this.faults.projectionRead?.(uploadIds);
    return projectionReader(this.db)(uploadIds);
  }

  private withJustifications(revisions: Revision[], proposals: Map<string, { justification: string | null }>): Revision[] {
    if (proposals.size === 0) return revisions;
    return revisions.map((r) => {
      const recorded = proposals.get(r.change_id)?.justification;
      return recorded ? { ...r, justification: recorded } : r;
    });
  }

  private async analysisOf(row: UploadRecord, timing: ServerTiming = NO_TIMING): Promise<Analysis> {
    if (!row.content_sha256) throw new ProblemError(409, 'conflict', 'This upload has no stored content.');
    const cached = this.cache.get(row.content_sha256);
    if (cached) return cached;
    return this.analysisFor(row.content_sha256, await this.content.get(row.content_sha256), timing);
  }

  private async analysisFor(sha256: string, bytes: Uint8Array, timing: ServerTiming = NO_TIMING): Promise<Analysis> {
    const cached = this.cache.get(sha256);
    if (cached) return cached;
    const doc = this.openDraft(sha256, bytes, timing);
    const analysis = this.remember(sha256, await this.analyse(doc, bytes));
    // Kept open: a review read is usually followed by the reviewer's first batch.
    this.openDrafts.keep(sha256, doc);
    return analysis;
  }

  /** `analyse`, logging a render variant that cannot be built (the answer then carries null). */
  private analyse(doc: OpenDocx, bytes: Uint8Array | Promise<Uint8Array>): Promise<Analysis> {
    return analyse(doc, bytes, (error) => this.log.warn({ err: error }, 'render variant failed'));
  }

  /**
   * The draft with this content, parsed: kept open from an earlier batch or read, else opened
   * now; `timing`'s `open` says which (desc "hit" or "parse") and how long it took. The caller owns it.
   */
  private openDraft(sha256: string, bytes: Uint8Array, timing: ServerTiming = NO_TIMING): OpenDocx {
    const kept = this.openDrafts.take(sha256);
    timing.describe('open', kept ? 'hit' : 'parse');
    return kept ?? timing.measureSync('open', () => this.open(bytes));
  }

  /**
   * Leaves a working draft parsed in the open drafts after its review read, for the reviewer's
   * first batch (issue 36.2): a read whose analysis was cached (another draft of the same
   * content, an earlier read) parsed nothing, and the first batch would parse it instead.
   */
  private async leaveOpen(row: UploadRecord, timing: ServerTiming): Promise<void> {
    const sha256 = row.content_sha256;
    if (row.version_kind !== 'working_draft' || !sha256 || this.openDrafts.has(sha256)) return;
    const bytes = await timing.measure('load', () => this.content.get(sha256));
    this.openDrafts.keep(sha256, this.openDraft(sha256, bytes, timing));
  }

  private checkCaps(bytes: Uint8Array): void {
    try {
      checkWrittenWork(bytes, this.work, this.engine.codec);
    } catch (error) {
      throw engineProblem(error);
    }
  }

  private remember(sha256: string, analysis: Analysis): Analysis {
    this.cache.set(sha256, analysis);
    this.revisionsBySha.set(sha256, analysis.revisions, revisionsBytes(analysis.revisions));
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
    requireWorkingDraft(await this.requireRow(this.db, actor.orgId, uploadId));
  }

  /**
   * `requireDraft` when the draft's queue has work waiting, so a wrong id or an original answers
   * without waiting behind it; with nothing queued there is no wait, and the change's snapshot
   * checks the same (one query fewer per batch).
   */
  private async requireDraftIfQueued(actor: Actor, uploadId: string): Promise<void> {
    if (this.commits.queue.has(uploadId)) await this.requireDraft(actor, uploadId);
  }
}

/** A full answer without its content: what a minimal request gets when its recorded answer is replayed, or when it reads the review. */
export function withoutContent({ document, revisions, track }: ReviewResponse): ReviewMinimalResponse {
  return { document, revisions, track };
}

/** Roughly what a list of revisions holds in memory (for the cache's byte budget). */
function revisionsBytes(revisions: readonly Revision[]): number {
  return 200 * revisions.length;
}
