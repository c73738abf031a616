import type { AuthLimits } from '../config';
import type { Queryable } from '../store/database';
import { newId, newSessionToken, tokenDigest } from './secrets';

export type SessionKind = 'web' | 'connector';

export interface SessionRecord {
  id: string;
  userId: string;
  kind: SessionKind;
  client: string | null;
  /** Set for connector sessions: the one organisation, and the OAuth grant, they belong to. */
  orgId: string | null;
  grantId: string | null;
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
  org_id: string | null;
  grant_id: string | null;
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

  async create(
    db: Queryable, userId: string, kind: SessionKind, client: string | null,
    connector: { orgId: string; grantId: string; lifetimeMs: number } | null = null,
  ): Promise<{ token: string; session: SessionRecord }> {
    const token = newSessionToken();
    const id = newId();
    const now = new Date();
    const absolute = new Date(now.getTime() + (connector?.lifetimeMs ?? this.limits.sessionAbsoluteMs));
    await db.query(
      `INSERT INTO sessions (id, token_sha256, user_id, kind, client, created_at, last_used_at, expires_at, org_id, grant_id)
       VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8, $9)`,
      [id, tokenDigest(token), userId, kind, client, now, absolute, connector?.orgId ?? null, connector?.grantId ?? null],
    );
    return {
      token,
      session: this.toRecord({ id, user_id: userId, kind, client, org_id: connector?.orgId ?? null, grant_id: connector?.grantId ?? null,
        created_at: now, last_used_at: now, expires_at: absolute }),
    };
  }

  /** Live sessions of a user, newest use first. */
  async listOfUser(db: Queryable, userId: string): Promise<SessionRecord[]> {
    const rows = await db.query<SessionRow>(
      `SELECT id, user_id, kind, client, org_id, grant_id, created_at, last_used_at, expires_at FROM sessions
       WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now()
         AND last_used_at > now() - make_interval(secs => $2::double precision / 1000)
       ORDER BY last_used_at DESC`, [userId, this.limits.sessionIdleMs]);
    return rows.map((r) => this.toRecord(r));
  }

  /** Ends one session of a user; false if it is not theirs or already ended. */
  async revokeOfUser(db: Queryable, userId: string, sessionId: string): Promise<boolean> {
    const rows = await db.query('UPDATE sessions SET revoked_at = now() WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL RETURNING id', [sessionId, userId]);
    return rows.length > 0;
  }

  /** Ends every session that belongs to an OAuth grant (the connector's tokens). */
  async revokeGrant(db: Queryable, grantId: string): Promise<number> {
    const rows = await db.query('UPDATE sessions SET revoked_at = now() WHERE grant_id = $1 AND revoked_at IS NULL RETURNING id', [grantId]);
    return rows.length;
  }

  /** The live session a token belongs to, or null. Refreshes last use at most once a minute. */
  async resolve(db: Queryable, token: string): Promise<SessionRecord | null> {
    const rows = await db.query<SessionRow>(
      `SELECT id, user_id, kind, client, org_id, grant_id, created_at, last_used_at, expires_at FROM sessions
       WHERE token_sha256 = $1 AND revoked_at IS NULL AND expires_at > now()
         AND last_used_at > now() - make_interval(secs => $2::double precision / 1000)`,
      [tokenDigest(token), this.limits.sessionIdleMs],
    );
    const row = rows[0];
    return row ? this.touched(db, row, true) : null;
  }

  /**
   * The live connector session of an OAuth grant (the connector resolves its access tokens
   * here). Connector sessions end with their grant's own lifetime, not after idle days, so
   * no idle rule applies and their expiry is the absolute one.
   */
  async resolveGrant(db: Queryable, grantId: string): Promise<SessionRecord | null> {
    const rows = await db.query<SessionRow>(
      `SELECT id, user_id, kind, client, org_id, grant_id, created_at, last_used_at, expires_at FROM sessions
       WHERE grant_id = $1 AND kind = 'connector' AND revoked_at IS NULL AND expires_at > now()
       ORDER BY created_at DESC LIMIT 1`, [grantId]);
    const row = rows[0];
    return row ? this.touched(db, row, false) : null;
  }

  /** Refreshes last use at most once a minute, then describes the session. */
  private async touched(db: Queryable, row: SessionRow, idleRule: boolean): Promise<SessionRecord> {
    if (Date.now() - row.last_used_at.getTime() > LAST_USED_GRANULARITY_MS) {
      row.last_used_at = new Date();
      await db.query('UPDATE sessions SET last_used_at = $2 WHERE id = $1', [row.id, row.last_used_at]);
    }
    return this.toRecord(row, idleRule);
  }

  async revoke(db: Queryable, sessionId: string): Promise<void> {
    await db.query('UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [sessionId]);
  }

  async revokeAllOfUser(db: Queryable, userId: string): Promise<number> {
    const rows = await db.query('UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL RETURNING id', [userId]);
    return rows.length;
  }

  private toRecord(row: SessionRow, idleRule = true): SessionRecord {
    const idleEnd = idleRule ? row.last_used_at.getTime() + this.limits.sessionIdleMs : Infinity;
    return {
      id: row.id,
      userId: row.user_id,
      kind: row.kind,
      client: row.client,
      orgId: row.org_id,
      grantId: row.grant_id,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
      expiresAt: new Date(Math.min(idleEnd, row.expires_at.getTime())),
    };
  }
}
