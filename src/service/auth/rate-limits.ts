import type { Queryable } from '../store/database';

export interface RateDecision {
  allowed: boolean;
  /** When refused: seconds until the oldest counted event leaves the window. */
  retryAfterSeconds: number;
}

/**
 * Sliding-window counters kept in the database, so a limit holds however many
 * service instances share it. Each check takes a transaction-scoped advisory lock on
 * its bucket so two instances cannot both see "one left" and both proceed.
 */
export async function hitRateLimit(tx: Queryable, bucket: string, limit: number, windowMs: number): Promise<RateDecision> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [bucket]);
  const decision = await peekRateLimit(tx, bucket, limit, windowMs);
  if (decision.allowed) await recordRateEvent(tx, bucket);
  return decision;
}

/** Checks a bucket without counting this call (failures are recorded separately). */
export async function peekRateLimit(tx: Queryable, bucket: string, limit: number, windowMs: number): Promise<RateDecision> {
  const rows = await tx.query<{ n: number; oldest: Date | null }>(
    `SELECT count(*)::int AS n, min(at) AS oldest FROM rate_events
     WHERE bucket = $1 AND at > now() - make_interval(secs => $2::double precision / 1000)`,
    [bucket, windowMs],
  );
  const { n, oldest } = rows[0] ?? { n: 0, oldest: null };
  if (n < limit) return { allowed: true, retryAfterSeconds: 0 };
  const freeAt = (oldest ? oldest.getTime() : Date.now()) + windowMs;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((freeAt - Date.now()) / 1000)) };
}

export async function recordRateEvent(tx: Queryable, bucket: string): Promise<void> {
  await tx.query('INSERT INTO rate_events (bucket) VALUES ($1)', [bucket]);
}

/** Drops events older than any window we use (the longest is an hour). */
export async function purgeRateEvents(db: Queryable): Promise<void> {
  await db.query("DELETE FROM rate_events WHERE at < now() - interval '2 hours'");
}
