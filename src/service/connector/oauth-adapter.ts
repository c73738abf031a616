import type { Database } from '../store/database';
import type { AdapterPayload, OidcAdapter } from './oidc-provider-types';

interface ModelRow {
  payload: AdapterPayload;
  consumed_at: Date | null;
}

/** Error the token endpoint turns into `invalid_grant` (set by createOAuthAdapterClass). */
export type GrantErrorFactory = (description: string) => Error;

/** What the connector does when oidc-provider issues a grant's token or destroys a grant. */
export interface GrantEvents {
  /** An access token of the grant was stored: the code was redeemed (or a refresh token used). */
  tokenIssued(grantId: string): Promise<void>;
  /** oidc-provider revoked the grant (a reused code or refresh token, a revocation request). */
  grantDestroyed(grantId: string): Promise<void>;
}

/**
 * oidc-provider's storage, in the `oauth_models` table of our own database (PGlite or
 * PostgreSQL), so every service instance sees the same codes, tokens, grants, clients and
 * interactions. Expired rows are never answered (oidc-provider also checks `exp`), and a
 * sweep removes them a day after they expire.
 *
 * `consume` is atomic: of two token requests racing with one authorization code (or one
 * refresh token), on one instance or two, exactly one marks it consumed; the other is
 * refused with invalid_grant instead of being issued a second set of tokens.
 */
export function createOAuthAdapterClass(db: Database, grantError: GrantErrorFactory, events: GrantEvents): new (model: string) => OidcAdapter {
  let lastSweep = 0;

  return class OAuthModelAdapter implements OidcAdapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
      await db.query(
        `INSERT INTO oauth_models (model, id, payload, grant_id, user_code, uid, expires_at, consumed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, NULL)
         ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
           user_code = EXCLUDED.user_code, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
        [this.model, id, JSON.stringify(payload), payload.grantId ?? null, payload.userCode ?? null, payload.uid ?? null, expiresAt],
      );
      if (this.model === 'AccessToken' && payload.grantId) await events.tokenIssued(payload.grantId);
      // Every authorization starts with an Interaction: a cheap moment to clear out old rows.
      if (this.model === 'Interaction' && Date.now() - lastSweep > 10 * 60_000) {
        lastSweep = Date.now();
        await db.query("DELETE FROM oauth_models WHERE expires_at < now() - interval '1 day'");
      }
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return this.findWhere('id = $2', id);
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.findWhere('uid = $2', uid);
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.findWhere('user_code = $2', userCode);
    }

    async consume(id: string): Promise<void> {
      const rows = await db.query(
        `UPDATE oauth_models SET consumed_at = now(),
           payload = payload || jsonb_build_object('consumed', floor(extract(epoch FROM now()))::bigint)
         WHERE model = $1 AND id = $2 AND consumed_at IS NULL RETURNING id`,
        [this.model, id],
      );
      if (rows.length === 0) throw grantError(`${this.model} was already used`);
    }

    async destroy(id: string): Promise<void> {
      await db.query('DELETE FROM oauth_models WHERE model = $1 AND id = $2', [this.model, id]);
      if (this.model === 'Grant') await events.grantDestroyed(id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.query('DELETE FROM oauth_models WHERE model = $1 AND grant_id = $2', [this.model, grantId]);
    }

    private async findWhere(condition: string, value: string): Promise<AdapterPayload | undefined> {
      const rows = await db.query<ModelRow>(
        `SELECT payload, consumed_at FROM oauth_models
         WHERE model = $1 AND ${condition} AND (expires_at IS NULL OR expires_at > now())`,
        [this.model, value],
      );
      const row = rows[0];
      if (!row) return undefined;
      return row.consumed_at && row.payload.consumed === undefined
        ? { ...row.payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) }
        : row.payload;
    }
  };
}
