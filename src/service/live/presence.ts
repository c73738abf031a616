import type { Viewer } from '../../contract/events';
import type { Queryable } from '../store/database';

/** A stream's row counts as present this long after its instance last refreshed it. */
export const PRESENCE_TTL_SECONDS = 30;
/** How often an instance refreshes the rows of its open streams. */
export const PRESENCE_HEARTBEAT_MS = 10_000;

/** Who has each of these drafts open now (across instances), by user. */
export async function viewersOf(db: Queryable, uploadIds: string[]): Promise<Map<string, Viewer[]>> {
  const rows = await db.query<{ upload_id: string; user_id: string; display_name: string; connections: number }>(
    `SELECT p.upload_id, p.user_id, u.display_name, count(*)::int AS connections
     FROM review_presence p JOIN users u ON u.id = p.user_id
     WHERE p.upload_id = ANY($1::text[]) AND p.seen_at > now() - make_interval(secs => $2)
     GROUP BY p.upload_id, p.user_id, u.display_name ORDER BY lower(u.display_name), p.user_id`,
    [uploadIds, PRESENCE_TTL_SECONDS]);
  const result = new Map<string, Viewer[]>();
  for (const r of rows) {
    const list = result.get(r.upload_id) ?? [];
    list.push({ userId: r.user_id, name: r.display_name, connections: r.connections });
    result.set(r.upload_id, list);
  }
  return result;
}

export async function registerPresence(db: Queryable, connectionId: string, uploadId: string, userId: string): Promise<void> {
  await db.query('INSERT INTO review_presence (connection_id, upload_id, user_id, seen_at) VALUES ($1, $2, $3, now())', [connectionId, uploadId, userId]);
}

export async function removePresence(db: Queryable, connectionIds: string[]): Promise<void> {
  if (connectionIds.length === 0) return;
  await db.query('DELETE FROM review_presence WHERE connection_id = ANY($1::text[])', [connectionIds]);
}

/** One statement for every stream this instance holds open. */
export async function refreshPresence(db: Queryable, connectionIds: string[]): Promise<void> {
  if (connectionIds.length === 0) return;
  await db.query('UPDATE review_presence SET seen_at = now() WHERE connection_id = ANY($1::text[])', [connectionIds]);
}

/** Maintenance: rows of instances that died without removing them. */
export async function purgeStalePresence(db: Queryable): Promise<void> {
  await db.query("DELETE FROM review_presence WHERE seen_at < now() - interval '1 hour'");
}
