import { randomBytes } from 'node:crypto';
import { ProblemError } from '../../http/problem';
import type { Queryable } from '../../store/database';
import { tokenDigest } from '../secrets';

/** A handoff lives just long enough for the browser to load the app and trade it. */
export const HANDOFF_LIFETIME_MS = 60_000;

/**
 * Sign-in handoffs: what a provider callback hands the app instead of a session token.
 * The redirect back from a provider is a URL, and URLs end up in history, logs and
 * referrers; so the URL carries only this single-use, 60-second value (128 random bits),
 * which the app trades for a session in a POST body. Only its SHA-256 is stored.
 */
export async function createHandoff(db: Queryable, userId: string): Promise<string> {
  const handoff = randomBytes(16).toString('base64url');
  await db.query('INSERT INTO sign_in_handoffs (token_sha256, user_id, expires_at) VALUES ($1, $2, $3)',
    [tokenDigest(handoff), userId, new Date(Date.now() + HANDOFF_LIFETIME_MS)]);
  return handoff;
}

/**
 * Consumes a handoff and answers its user. One UPDATE marks it consumed only if it is
 * unconsumed and unexpired, so of two concurrent trades exactly one gets the row back.
 * A failure then says which rule refused it.
 */
export async function consumeHandoff(db: Queryable, handoff: string): Promise<string> {
  const digest = tokenDigest(handoff);
  const won = await db.query<{ user_id: string }>(
    `UPDATE sign_in_handoffs SET consumed_at = now()
     WHERE token_sha256 = $1 AND consumed_at IS NULL AND expires_at > now() RETURNING user_id`, [digest]);
  if (won[0]) return won[0].user_id;
  const rows = await db.query<{ consumed_at: Date | null }>('SELECT consumed_at FROM sign_in_handoffs WHERE token_sha256 = $1', [digest]);
  const row = rows[0];
  if (!row) throw new ProblemError(400, 'invalid_handoff', 'This sign-in link is not valid. Sign in again.');
  if (row.consumed_at) throw new ProblemError(400, 'invalid_handoff', 'This sign-in link has already been used. Sign in again.');
  throw new ProblemError(400, 'handoff_expired', 'This sign-in link has expired (it works for 60 seconds). Sign in again.');
}

/** Housekeeping: handoffs and unfinished provider sign-ins are worthless once expired. */
export async function sweepProviderSignIns(db: Queryable): Promise<void> {
  await db.query("DELETE FROM sign_in_handoffs WHERE expires_at < now() - interval '1 day'");
  await db.query("DELETE FROM provider_sign_ins WHERE expires_at < now() - interval '1 day'");
}
