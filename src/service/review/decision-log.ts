import type { Queryable } from '../store/database';
import type { CommentOp } from './comment-ops';
import type { DecidedChange, LogEntry } from './track-projection';
import { letWaitingWorkIn } from '../http/let-waiting-work-in';

interface LogRow {
  seq: number;
  kind: LogEntry['kind'];
  comment: CommentOp | null;
  undoes_seq: number | null;
  user_id: string | null;
  decided: Record<string, DecidedChange>;
  notes: Record<string, string>;
  withdrawn: Record<string, string | null>;
  previous_sha256: string;
  next_sha256: string;
}

export interface StoredLogEntry extends LogEntry {
  userId: string | null;
  previousSha256: string;
  nextSha256: string;
  /** What a 'comment' entry wrote. */
  comment?: CommentOp | null;
}

/** The append-only decision log of one draft, oldest first. */
export async function loadLog(db: Queryable, uploadId: string): Promise<StoredLogEntry[]> {
  return loadLogAfter(db, uploadId, 0);
}

/** The entries of a draft's log after `afterSeq`, oldest first. */
async function loadLogAfter(db: Queryable, uploadId: string, afterSeq: number): Promise<StoredLogEntry[]> {
  const rows = await db.query<LogRow>(
    `SELECT seq, kind, undoes_seq, user_id, decided, withdrawn, notes, previous_sha256, next_sha256, comment
     FROM decision_batches WHERE upload_id = $1 AND seq > $2 ORDER BY seq`, [uploadId, afterSeq]);
  return rows.map((r) => ({
    seq: r.seq, kind: r.kind, undoesSeq: r.undoes_seq, decided: r.decided, withdrawn: r.withdrawn, notes: r.notes,
    userId: r.user_id, previousSha256: r.previous_sha256, nextSha256: r.next_sha256, comment: r.comment ?? null,
  }));
}

/**
 * Drafts' logs as last read, so a batch reads only the entries written since (by this instance
 * or another) instead of the whole log again: a log only grows (entries are appended under the
 * draft's row lock with the next seq, and never changed but for `user_id` set to null when a
 * user is deleted, which the service never does), so what was read stays true. Entries
 * are shared between readers, which must not change them.
 */
export class DecisionLogCache {
  private readonly logs = new Map<string, StoredLogEntry[]>();

  constructor(private readonly maxDrafts = 256) {}

  async load(db: Queryable, uploadId: string): Promise<StoredLogEntry[]> {
    const known = this.logs.get(uploadId) ?? [];
    const last = known.length ? known[known.length - 1]!.seq : 0;
    const newer = await loadLogAfter(db, uploadId, last);
    // Seqs run 1, 2, 3...: anything else (a log not as remembered) is read whole.
    const entries = newer.length === 0 || newer[0]!.seq === last + 1 ? [...known, ...newer] : await loadLog(db, uploadId);
    this.logs.delete(uploadId); // most recently read last, for the eviction below
    this.logs.set(uploadId, entries);
    if (this.logs.size > this.maxDrafts) this.logs.delete(this.logs.keys().next().value!);
    return [...entries];
  }
}

export interface NewLogEntry {
  uploadId: string;
  seq: number;
  kind: LogEntry['kind'];
  undoesSeq: number | null;
  userId: string;
  comment?: CommentOp | null;
  /** Notes by change id (decide: with its decisions; note: on decisions made earlier). */
  notes?: Record<string, string>;
  accepted: string[];
  rejected: string[];
  decided: Record<string, DecidedChange>;
  withdrawn: Record<string, string | null>;
  /** Redline entries: the changes the edits wrote. */
  proposed?: string[];
  previousSha256: string;
  nextSha256: string;
}

export async function appendLogEntry(tx: Queryable, e: NewLogEntry): Promise<void> {
  await tx.query(
    `INSERT INTO decision_batches (upload_id, seq, kind, undoes_seq, user_id, accepted, rejected, decided, withdrawn, proposed, previous_sha256, next_sha256, comment, notes)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [e.uploadId, e.seq, e.kind, e.undoesSeq, e.userId, JSON.stringify(e.accepted), JSON.stringify(e.rejected),
      JSON.stringify(e.decided), JSON.stringify(e.withdrawn), JSON.stringify(e.proposed ?? []), e.previousSha256, e.nextSha256,
      e.comment ? JSON.stringify(e.comment) : null, JSON.stringify(e.notes ?? {})],
  );
}

/** Justifications the service recorded for changes it wrote (redline edits), by change_id. */
export async function loadProposals(db: Queryable, uploadId: string): Promise<Map<string, { userId: string | null; justification: string | null }>> {
  const rows = await db.query<{ change_id: string; user_id: string | null; justification: string | null }>(
    'SELECT change_id, user_id, justification FROM proposals WHERE upload_id = $1', [uploadId]);
  return new Map(rows.map((r) => [r.change_id, { userId: r.user_id, justification: r.justification }]));
}

export async function recordProposals(tx: Queryable, uploadId: string, userId: string, changes: { changeId: string; justification: string | null }[]): Promise<void> {
  // One statement for a chunk of the batch: a batch of 500 edits records about a thousand
  // changes, and a statement each held the service's thread for a second on the embedded
  // database (PGlite runs on it); one statement for all of them still held it for a tenth of a
  // second, so other requests (a health check) are let in between chunks. A change named twice
  // keeps its last justification, as one statement each did.
  const byChange = [...new Map(changes.map((c) => [c.changeId, c.justification]))];
  for (let from = 0; from < byChange.length; from += PROPOSALS_PER_STATEMENT) {
    if (from > 0) await letWaitingWorkIn();
    const chunk = byChange.slice(from, from + PROPOSALS_PER_STATEMENT);
    await tx.query(
      `INSERT INTO proposals (upload_id, change_id, user_id, justification, created_at)
       SELECT $1, c.change_id, $2, c.justification, now() FROM unnest($3::text[], $4::text[]) AS c(change_id, justification)
       ON CONFLICT (upload_id, change_id) DO UPDATE SET user_id = EXCLUDED.user_id, justification = EXCLUDED.justification`,
      [uploadId, userId, chunk.map(([id]) => id), chunk.map(([, justification]) => justification)]);
  }
}

/** Proposals one statement records (recordProposals): a few milliseconds of the embedded database's time. */
const PROPOSALS_PER_STATEMENT = 100;
