import type { AuthLimits } from '../config';
import type { Queryable } from '../store/database';
import { newId, newSessionToken, tokenDigest } from './secrets';

export type SessionKind = 'web' | 'connector';

export interface SessionRecord {
  id: string;
  userId: string;
  kind: SessionKind;
  client: string | null;
  createdAt: Date;
  lastUsedAt: Date;
  /** When the session ends if unused: the earlier of idle and absolute expiry. */
  expiresAt: Date;
}

interface SessionRow {
  id: string;
  user_id: string;
  kind: SessionKind;
  client: string | null;
  created_at: Date;
  last_used_at: Date;
  expires_at: Date;
}

const LAST_USED_GRANULARITY_MS = 60_000;

/**
 * Server-side sessions. A new token at every sign-in (ASVS 5.0 7.2.4), stored only as
 * its SHA-256 (7.2.3), ended after 7 idle days or 30 days in all (7.3.1, 7.3.2).
 */
export class Sessions {
  constructor(private readonly limits: Pick<AuthLimits, 'sessionIdleMs' | 'sessionAbsoluteMs'>) {}

  async create(db: Queryable, userId: string, kind: SessionKind, client: string | null): Promise<{ token: string; session: SessionRecord }> {
    const token = newSessionToken();
    const id = newId();
    const now = new Date();
    const absolute = new Date(now.getTime() + this.limits.sessionAbsoluteMs);
    await db.query(
      `INSERT INTO sessions (id, token_sha256, user_id, kind, client, created_at, last_used_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6, $7)`,
      [id, tokenDigest(token), userId, kind, client, now, absolute],
    );
    return { token, session: this.toRecord({ id, user_id: userId, kind, client, created_at: now, last_used_at: now, expires_at: absolute }) };
  }

  /** The live session a token belongs to, or null. Refreshes last use at most once a minute. */
  async resolve(db: Queryable, token: string): Promise<SessionRecord | null> {
    const rows = await db.query<SessionRow>(
      `SELECT id, user_id, kind, client, created_at, last_used_at, expires_at FROM sessions
       WHERE token_sha256 = $1 AND revoked_at IS NULL AND expires_at > now()
         AND last_used_at > now() - make_interval(secs => $2::double precision / 1000)`,
      [tokenDigest(token), this.limits.sessionIdleMs],
    );
    const row = rows[0];
    if (!row) return null;
    if (Date.now() - row.last_used_at.getTime() > LAST_USED_GRANULARITY_MS) {
      row.last_used_at = new Date();
      await db.query('UPDATE sessions SET last_used_at = $2 WHERE id = $1', [row.id, row.last_used_at]);
    }
    return this.toRecord(row);
  }

  async revoke(db: Queryable, sessionId: string): Promise<void> {
    await db.query('UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [sessionId]);
  }

  async revokeAllOfUser(db: Queryable, userId: string): Promise<number> {
    const rows = await db.query('UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL RETURNING id', [userId]);
    return rows.length;
  }

  private toRecord(row: SessionRow): SessionRecord {
    const idleEnd = row.last_used_at.getTime() + this.limits.sessionIdleMs;
    return {
      id: row.id,
      userId: row.user_id,
      kind: row.kind,
      client: row.client,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
      expiresAt: new Date(Math.min(idleEnd, row.expires_at.getTime())),
    };
  }
}
