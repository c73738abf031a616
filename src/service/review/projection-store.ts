import type { Track } from '../../contract/track';
import type { Database, Queryable } from '../store/database';
import type { UploadRecord } from '../uploads/upload-rows';
import { letWaitingWorkIn } from '../http/let-waiting-work-in';
import { sameJson } from './listing-delta';

/** How long a draft stays without changes before its newest track projection is stored (storeInBackground). */
const PROJECTION_QUIET_MS = 250;

/**
 * Members of a track's lists one statement writes (ProjectionStore.store): a few milliseconds of
 * the embedded database's time, with other work let in between statements.
 */
const LIST_ITEMS_PER_STATEMENT = 1000;

/** Drafts whose last written track this instance keeps to compare the next one with (ProjectionStore.written). */
const WRITTEN_DRAFTS = 16;

/** The lists of a track, stored a row per member (table track_projection_items). */
const LISTS = ['items', 'entries'] as const;
type ListName = (typeof LISTS)[number];

/**
 * What a batch changed in a track, by position in its lists, since the projection at `base`
 * (listing-step.ts): the lists keep their lengths and every other member. Storing it writes
 * those members only, when the stored projection is still the one at `base`.
 */
export interface TrackChange {
  base: { logSeq: number; contentSha256: string };
  items: readonly number[];
  entries: readonly number[];
}

/** A track projection made after a change, waiting to be stored. */
interface PendingProjection {
  row: UploadRecord;
  logSeq: number;
  track: Track;
  timer: NodeJS.Timeout;
  /** What changed since the projection at its base, when only that need be written; null: the whole track. */
  change: { base: TrackChange['base']; items: Set<number>; entries: Set<number> } | null;
}

/**
 * The stored track projections of drafts (table track_projection), and the newest projection of
 * each draft waiting for its draft to be quiet before it is stored.
 */
export class ProjectionStore {
  /** Projections waiting for their draft to be quiet before they are stored (storeInBackground), by draft id. */
  private readonly pending = new Map<string, PendingProjection>();
  private readonly writes = new Set<Promise<void>>();
  /**
   * The track this instance last stored or read as stored, by draft (the most recent
   * WRITTEN_DRAFTS drafts): a projection waiting without a batch's change is compared with it
   * member by member in place, so an answer projected whole (a full answer, undo, redline edits)
   * also writes only the members that changed, when the stored projection is still that one.
   */
  private readonly written = new Map<string, { base: TrackChange['base']; track: Track }>();

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
      // One statement, so the head and its lists are read as one write left them.
      const [current] = await this.db.query<{ track: Track; items: Track['items'] | null; entries: Track['entries'] | null }>(
        `SELECT p.track,
                (SELECT jsonb_agg(i.value ORDER BY i.pos) FROM track_projection_items i WHERE i.upload_id = p.upload_id AND i.list = 'items') AS items,
                (SELECT jsonb_agg(i.value ORDER BY i.pos) FROM track_projection_items i WHERE i.upload_id = p.upload_id AND i.list = 'entries') AS entries
         FROM track_projection p WHERE p.upload_id = $1 AND p.log_seq = $2 AND p.content_sha256 = $3`, [row.id, stored.log_seq, row.content_sha256]);
      // A track stored before entries were listed is made again.
      if (current?.track.entries) {
        const track = { ...current.track, items: current.items ?? [], entries: current.entries ?? [] };
        this.rememberWritten(row.id, { logSeq: stored.log_seq, contentSha256: row.content_sha256! }, track);
        return track;
      }
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
   * `change`: what the batch changed since the projection at its base; a burst of batches
   * stepped one from the other writes what any of them changed.
   */
  storeInBackground(row: UploadRecord, logSeq: number, track: Track, change?: TrackChange): void {
    const earlier = this.pending.get(row.id);
    if (earlier) clearTimeout(earlier.timer);
    this.pending.set(row.id, { row, logSeq, track, timer: this.projectionTimer(row.id), change: pendingChange(earlier, change) });
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
    const change = pending.change
      ? { base: pending.change.base, items: [...pending.change.items], entries: [...pending.change.entries] }
      : this.changeFromWritten(uploadId, pending.track);
    const write = this.store(pending.row, pending.logSeq, pending.track, change)
      .catch((error: unknown) => this.log.warn({ err: error, uploadId }, 'storing the track projection failed; the next read rebuilds it'))
      .finally(() => this.writes.delete(write));
    this.writes.add(write);
  }

  /**
   * Writes the track in one transaction: with `change`, when the stored projection is the one
   * at its base, only the members it names (a batch of decisions writes what it changed, not the
   * whole track: issue 36); otherwise the whole track, its lists a row per member inserted
   * LIST_ITEMS_PER_STATEMENT at a time with other work let in between (one statement of a whole
   * track, a megabyte of JSON on a long draft, held the service's thread, where the embedded
   * database runs, for tens of milliseconds). Readers see the whole track or the one before:
   * never a half-written one.
   */
  async store(row: UploadRecord, logSeq: number, track: Track, change?: TrackChange): Promise<void> {
    const head = JSON.stringify({ ...track, items: [], ...(track.entries ? { entries: [] } : {}) });
    const stored = await this.db.transaction(async (tx) => {
      if (change && track.entries) {
        const moved = await tx.query(
          `UPDATE track_projection SET log_seq = $2, content_sha256 = $3, track = $4, updated_at = now()
           WHERE upload_id = $1 AND log_seq = $5 AND content_sha256 = $6 RETURNING upload_id`,
          [row.id, logSeq, row.content_sha256, head, change.base.logSeq, change.base.contentSha256]);
        if (moved.length > 0) {
          for (const name of LISTS) await writeMembers(tx, row.id, name, track[name] ?? [], [...new Set(change[name])].sort((a, b) => a - b), 'update');
          return true;
        }
      }
      // An older projection never overwrites a newer one (background writes may finish out of order).
      const written = await tx.query(
        `INSERT INTO track_projection (upload_id, log_seq, content_sha256, track, updated_at) VALUES ($1, $2, $3, $4, now())
         ON CONFLICT (upload_id) DO UPDATE SET log_seq = EXCLUDED.log_seq, content_sha256 = EXCLUDED.content_sha256,
           track = EXCLUDED.track, updated_at = now()
         WHERE track_projection.log_seq <= EXCLUDED.log_seq
         RETURNING upload_id`,
        [row.id, logSeq, row.content_sha256, head]);
      if (written.length === 0) return false;
      await tx.query('DELETE FROM track_projection_items WHERE upload_id = $1', [row.id]);
      for (const name of LISTS) {
        const list = track[name] ?? [];
        await writeMembers(tx, row.id, name, list, list.map((_, i) => i), 'insert');
      }
      return true;
    });
    if (stored) this.rememberWritten(row.id, { logSeq, contentSha256: row.content_sha256! }, track);
  }

  private rememberWritten(uploadId: string, base: TrackChange['base'], track: Track): void {
    this.written.delete(uploadId); // most recent last, for the eviction below
    this.written.set(uploadId, { base, track });
    if (this.written.size > WRITTEN_DRAFTS) this.written.delete(this.written.keys().next().value!);
  }

  /** What changed from the track last written to `track`, member by member in place; undefined when a list's length changed (written whole). */
  private changeFromWritten(uploadId: string, track: Track): TrackChange | undefined {
    const known = this.written.get(uploadId);
    if (!known || !track.entries || !known.track.entries) return undefined;
    const change = { base: known.base, items: [] as number[], entries: [] as number[] };
    for (const name of LISTS) {
      const before: readonly unknown[] = known.track[name] ?? [];
      const after: readonly unknown[] = track[name] ?? [];
      if (before.length !== after.length) return undefined;
      for (let i = 0; i < after.length; i++) if (!sameJson(before[i], after[i])) change[name].push(i);
    }
    return change;
  }

  /** Stores the projections still waiting and waits for those being stored (before the database closes). */
  async settle(): Promise<void> {
    for (const uploadId of [...this.pending.keys()]) this.storePending(uploadId);
    while (this.writes.size > 0) await Promise.all([...this.writes]);
  }
}

/** The change a projection waiting to be stored carries: this batch's, joined to the one waiting before when it was stepped from that one. */
function pendingChange(earlier: PendingProjection | undefined, change: TrackChange | undefined): PendingProjection['change'] {
  if (!change) return null;
  if (!earlier) return { base: change.base, items: new Set(change.items), entries: new Set(change.entries) };
  // Stepped from the projection still waiting: what both changed, since the one before it.
  if (!earlier.change || earlier.logSeq !== change.base.logSeq || earlier.row.content_sha256 !== change.base.contentSha256) return null;
  return {
    base: earlier.change.base,
    items: new Set([...earlier.change.items, ...change.items]),
    entries: new Set([...earlier.change.entries, ...change.entries]),
  };
}

/** Writes the members of one list at these positions (ascending), a statement for each LIST_ITEMS_PER_STATEMENT of them. */
async function writeMembers(tx: Queryable, uploadId: string, name: ListName, list: readonly unknown[], positions: readonly number[], how: 'insert' | 'update'): Promise<void> {
  for (let from = 0; from < positions.length; from += LIST_ITEMS_PER_STATEMENT) {
    if (from > 0 || how === 'insert') await letWaitingWorkIn();
    const chunk = positions.slice(from, from + LIST_ITEMS_PER_STATEMENT);
    const values = chunk.map((pos) => JSON.stringify(list[pos]));
    await tx.query(how === 'insert'
      ? `INSERT INTO track_projection_items (upload_id, list, pos, value)
         SELECT $1, $2, m.pos, m.value::jsonb FROM unnest($3::int[], $4::text[]) AS m(pos, value)`
      : `UPDATE track_projection_items i SET value = m.value::jsonb FROM unnest($3::int[], $4::text[]) AS m(pos, value)
         WHERE i.upload_id = $1 AND i.list = $2 AND i.pos = m.pos`,
    [uploadId, name, chunk, values]);
  }
}
