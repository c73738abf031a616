import type { Track } from '../../contract/track';
import type { Database } from '../store/database';
import type { UploadRecord } from '../uploads/upload-rows';
import { letWaitingWorkIn } from '../http/let-waiting-work-in';

/** How long a draft stays without changes before its newest track projection is stored (storeInBackground). */
const PROJECTION_QUIET_MS = 250;

/**
 * Entries or items of a track one statement appends (ProjectionStore.store): a few milliseconds
 * of the embedded database's time. Each statement writes the track so far again, so a list of n
 * items costs n²/2000 items written; tracks of a few thousand items are the common large case.
 */
const LIST_ITEMS_PER_STATEMENT = 1000;

/** A track projection made after a change, waiting to be stored. */
interface PendingProjection {
  row: UploadRecord;
  logSeq: number;
  track: Track;
  timer: NodeJS.Timeout;
}

/**
 * The stored track projections of drafts (table track_projection), and the newest projection of
 * each draft waiting for its draft to be quiet before it is stored.
 */
export class ProjectionStore {
  /** Projections waiting for their draft to be quiet before they are stored (storeInBackground), by draft id. */
  private readonly pending = new Map<string, PendingProjection>();
  private readonly writes = new Set<Promise<void>>();

  constructor(private readonly db: Database, private readonly log: { warn(obj: object, msg: string): void }) {}

  /** The projection of `row` current with its log and content (stored, or waiting to be); null when there is none. */
  async current(row: UploadRecord): Promise<Track | null> {
    // The stored track (a megabyte on a large draft) is fetched only once it is known to be current.
    const [stored] = await this.db.query<{ log_seq: number | null; content_sha256: string | null; last_seq: number }>(
      `SELECT p.log_seq, p.content_sha256,
              (SELECT coalesce(max(seq), 0) FROM decision_batches d WHERE d.upload_id = $1)::int AS last_seq
       FROM (SELECT 1) one LEFT JOIN track_projection p ON p.upload_id = $1`, [row.id]);
    // A projection this instance made and has not stored yet is as good as a stored one.
    const pending = this.pending.get(row.id);
    if (stored && pending && pending.logSeq === stored.last_seq && pending.row.content_sha256 === row.content_sha256) return pending.track;
    if (stored && stored.log_seq === stored.last_seq && stored.content_sha256 === row.content_sha256) {
      const [current] = await this.db.query<{ track: Track }>(
        'SELECT track FROM track_projection WHERE upload_id = $1 AND log_seq = $2 AND content_sha256 = $3', [row.id, stored.log_seq, row.content_sha256]);
      // A track stored before entries were listed is made again.
      if (current?.track.entries) return current.track;
    }
    return null;
  }

  /**
   * Stores a projection without making the answer wait for it (a megabyte of JSON on a large
   * draft), once its draft has been quiet for PROJECTION_QUIET_MS: a burst of batches stores only
   * its last projection instead of one per batch, each of which would otherwise take the thread
   * (PGlite runs on it) from the next batch. Losing it costs nothing but a rebuild: readers use a
   * stored track only when its log seq and content hash are current, and this instance answers
   * from the one still waiting. `settle` stores what waits and awaits what is being written.
   */
  storeInBackground(row: UploadRecord, logSeq: number, track: Track): void {
    const earlier = this.pending.get(row.id);
    if (earlier) clearTimeout(earlier.timer);
    this.pending.set(row.id, { row, logSeq, track, timer: this.projectionTimer(row.id) });
  }

  private projectionTimer(uploadId: string): NodeJS.Timeout {
    const timer = setTimeout(() => this.storePending(uploadId), PROJECTION_QUIET_MS);
    timer.unref();
    return timer;
  }

  /** While the draft changes: its waiting projection is not stored meanwhile. */
  hold(uploadId: string): void {
    const pending = this.pending.get(uploadId);
    if (pending) clearTimeout(pending.timer);
  }

  /** The draft changed: its waiting projection waits for quiet again. */
  release(uploadId: string): void {
    const pending = this.pending.get(uploadId);
    if (!pending) return;
    clearTimeout(pending.timer);
    pending.timer = this.projectionTimer(uploadId);
  }

  private storePending(uploadId: string): void {
    const pending = this.pending.get(uploadId);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.pending.delete(uploadId);
    const write = this.store(pending.row, pending.logSeq, pending.track)
      .catch((error: unknown) => this.log.warn({ err: error, uploadId }, 'storing the track projection failed; the next read rebuilds it'))
      .finally(() => this.writes.delete(write));
    this.writes.add(write);
  }

  /**
   * Writes the track in one transaction, its lists appended LIST_ITEMS_PER_STATEMENT at a time
   * with other work let in between: one statement of the whole track (a megabyte of JSON on a
   * long draft, made into jsonb by the embedded database on the service's thread) held the thread
   * for tens of milliseconds, and `/api/health/live` waited as long. Readers see the whole track
   * or the one before: never a half-written one.
   */
  async store(row: UploadRecord, logSeq: number, track: Track): Promise<void> {
    const lists = { items: track.items, ...(track.entries ? { entries: track.entries } : {}) };
    const head: Track = { ...track, items: [], ...(track.entries ? { entries: [] } : {}) };
    await this.db.transaction(async (tx) => {
      // An older projection never overwrites a newer one (background writes may finish out of order).
      const written = await tx.query(
        `INSERT INTO track_projection (upload_id, log_seq, content_sha256, track, updated_at) VALUES ($1, $2, $3, $4, now())
         ON CONFLICT (upload_id) DO UPDATE SET log_seq = EXCLUDED.log_seq, content_sha256 = EXCLUDED.content_sha256,
           track = EXCLUDED.track, updated_at = now()
         WHERE track_projection.log_seq <= EXCLUDED.log_seq
         RETURNING upload_id`,
        [row.id, logSeq, row.content_sha256, JSON.stringify(head)]);
      if (written.length === 0) return;
      for (const [name, list] of Object.entries(lists)) {
        for (let from = 0; from < list.length; from += LIST_ITEMS_PER_STATEMENT) {
          await letWaitingWorkIn();
          await tx.query(
            `UPDATE track_projection SET track = jsonb_set(track, ARRAY[$2::text], (track -> $2::text) || $3::jsonb) WHERE upload_id = $1`,
            [row.id, name, JSON.stringify(list.slice(from, from + LIST_ITEMS_PER_STATEMENT))]);
        }
      }
    });
  }

  /** Stores the projections still waiting and waits for those being stored (before the database closes). */
  async settle(): Promise<void> {
    for (const uploadId of [...this.pending.keys()]) this.storePending(uploadId);
    while (this.writes.size > 0) await Promise.all([...this.writes]);
  }
}
