import type { DraftLogEvent, PresenceEvent } from '../../contract/events';
import type { Queryable } from '../store/database';
import type { DecidedChange } from '../review/track-projection';
import { viewersOf } from './presence';

/** What a watcher of a draft is told. */
export interface DraftWatcher {
  entry(event: DraftLogEvent): void;
  presence(event: PresenceEvent): void;
}

interface WatchedDraft {
  watchers: Set<DraftWatcher>;
  /** The highest log seq delivered (or known when watching began); null while it is being read. */
  cursor: number | null;
  /** The last presence sent, as JSON, so only changes are sent. */
  presence: string | null;
}

export interface LogFeedOptions {
  /** How often the log is polled while any draft is watched (commits on this instance are seen at once). */
  pollMs?: number;
  /** How often presence is read. */
  presenceMs?: number;
}

interface EntryRow {
  upload_id: string;
  seq: number;
  kind: DraftLogEvent['kind'];
  undoes_seq: number | null;
  user_id: string | null;
  display_name: string | null;
  decided: Record<string, DecidedChange>;
  withdrawn: Record<string, string | null>;
  proposed: string[];
  created_at: Date | string;
  key: string | null;
  undone_decided: Record<string, DecidedChange> | null;
  undone_withdrawn: Record<string, string | null> | null;
}

const ENTRY_COLUMNS = `d.upload_id, d.seq, d.kind, d.undoes_seq, d.user_id, u.display_name, d.decided, d.withdrawn, d.proposed, d.created_at,
  k.key, o.decided AS undone_decided, o.withdrawn AS undone_withdrawn
  FROM decision_batches d
  LEFT JOIN users u ON u.id = d.user_id
  LEFT JOIN idempotency_keys k ON k.upload_id = d.upload_id AND k.log_seq = d.seq
  LEFT JOIN decision_batches o ON o.upload_id = d.upload_id AND o.seq = d.undoes_seq`;

/** The log entries of one draft after `afterSeq`, oldest first (a reconnecting stream's backlog). */
export async function entriesAfter(db: Queryable, uploadId: string, afterSeq: number): Promise<DraftLogEvent[]> {
  const rows = await db.query<EntryRow>(`SELECT ${ENTRY_COLUMNS} WHERE d.upload_id = $1 AND d.seq > $2 ORDER BY d.seq`, [uploadId, afterSeq]);
  return rows.map(toEvent);
}

function toEvent(r: EntryRow): DraftLogEvent {
  const decided: DraftLogEvent['decided'] = {};
  for (const [id, d] of Object.entries(r.decided)) decided[id] = { state: d.state, decidedAt: d.decidedAt, decidedByUserId: d.decidedByUserId };
  return {
    seq: r.seq,
    kind: r.kind,
    at: new Date(r.created_at).toISOString(),
    userId: r.user_id,
    userName: r.display_name,
    batchKey: r.key,
    decided,
    withdrawn: Object.keys(r.withdrawn),
    undoesSeq: r.undoes_seq,
    reopened: r.kind === 'undo' ? [...Object.keys(r.undone_decided ?? {}), ...Object.keys(r.undone_withdrawn ?? {})] : [],
    proposed: r.proposed ?? [],
  };
}

/**
 * Delivers each watched draft's decision-log entries, in order, as they commit on any
 * instance: it polls the log by sequence number (one query for every draft this instance
 * watches), which works the same on PGlite and PostgreSQL and needs no other server. A commit
 * on this instance triggers a poll at once, so its own viewers see it without waiting.
 * Presence is read on the same timer, less often.
 */
export class LogFeed {
  private readonly drafts = new Map<string, WatchedDraft>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private polling: Promise<void> | null = null;
  private again = false;
  private lastPresence = 0;
  private readonly pollMs: number;
  private readonly presenceMs: number;
  private closed = false;

  constructor(
    private readonly db: Queryable,
    private readonly log: { warn(obj: object, msg: string): void },
    options: LogFeedOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 250;
    this.presenceMs = options.presenceMs ?? 1_000;
  }

  /**
   * Starts telling `watcher` about entries of `uploadId` committed from now on. Resolves once
   * the starting point is known: entries up to the answered seq are the caller's to read.
   */
  async watch(uploadId: string, watcher: DraftWatcher): Promise<number> {
    let draft = this.drafts.get(uploadId);
    if (!draft) {
      draft = { watchers: new Set(), cursor: null, presence: null };
      this.drafts.set(uploadId, draft);
    }
    draft.watchers.add(watcher);
    if (draft.cursor === null) {
      const [row] = await this.db.query<{ last: number }>('SELECT coalesce(max(seq), 0)::int AS last FROM decision_batches WHERE upload_id = $1', [uploadId]);
      // Another watcher may have set it meanwhile; the higher value is what has been delivered.
      draft.cursor = Math.max(draft.cursor ?? 0, row?.last ?? 0);
    }
    this.schedule(0);
    return draft.cursor;
  }

  unwatch(uploadId: string, watcher: DraftWatcher): void {
    const draft = this.drafts.get(uploadId);
    if (!draft) return;
    draft.watchers.delete(watcher);
    if (draft.watchers.size === 0) this.drafts.delete(uploadId);
  }

  /** Something changed (a commit here, a viewer came or went): poll now rather than at the next tick. */
  nudge(options: { presence?: boolean } = {}): void {
    if (options.presence) this.lastPresence = 0;
    if (this.drafts.size > 0) this.schedule(0);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.drafts.clear();
  }

  private schedule(delay: number): void {
    if (this.closed) return;
    if (this.polling) {
      if (delay === 0) this.again = true;
      return;
    }
    if (this.timer) {
      if (delay !== 0) return;
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.polling = this.poll().finally(() => {
        this.polling = null;
        const now = this.again;
        this.again = false;
        if (this.drafts.size > 0) this.schedule(now ? 0 : this.pollMs);
      });
    }, delay);
    // An idle feed never keeps the process alive.
    this.timer.unref?.();
  }

  private async poll(): Promise<void> {
    const ready = [...this.drafts].filter(([, d]) => d.cursor !== null);
    if (ready.length === 0) return;
    try {
      const rows = await this.db.query<EntryRow>(
        `SELECT ${ENTRY_COLUMNS}
         JOIN unnest($1::text[], $2::int[]) AS w(upload_id, after) ON d.upload_id = w.upload_id AND d.seq > w.after
         ORDER BY d.upload_id, d.seq`,
        [ready.map(([id]) => id), ready.map(([, d]) => d.cursor)]);
      for (const row of rows) {
        const draft = this.drafts.get(row.upload_id);
        if (!draft || draft.cursor === null || row.seq <= draft.cursor) continue;
        draft.cursor = row.seq;
        const event = toEvent(row);
        for (const watcher of draft.watchers) watcher.entry(event);
      }
      if (Date.now() - this.lastPresence >= this.presenceMs) {
        this.lastPresence = Date.now();
        const viewers = await viewersOf(this.db, ready.map(([id]) => id));
        for (const [id, draft] of this.drafts) {
          const event: PresenceEvent = { viewers: viewers.get(id) ?? [] };
          const json = JSON.stringify(event);
          if (json === draft.presence) continue;
          draft.presence = json;
          for (const watcher of draft.watchers) watcher.presence(event);
        }
      }
    } catch (error) {
      // The database is away: keep the streams open and try again at the next tick.
      this.log.warn({ err: error }, 'polling the decision log failed; retrying');
    }
  }

  /** The presence last sent for a draft (a new stream starts with it). */
  presenceOf(uploadId: string): PresenceEvent | null {
    const json = this.drafts.get(uploadId)?.presence;
    return json ? (JSON.parse(json) as PresenceEvent) : null;
  }
}
