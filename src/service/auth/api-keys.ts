import type { ApiKeySummary, CreatedApiKey } from '../../contract/account';
import type { Queryable } from '../store/database';
import { newId, tokenDigest } from './secrets';
import { randomBytes } from 'node:crypto';

export interface ApiKeyRecord {
  id: string;
  orgId: string;
  createdByUserId: string | null;
}

/**
 * Organisation API keys for upload automation: `rlk_` + 32 random bytes (base64url),
 * shown once at creation, stored only as SHA-256.
 */
export async function createApiKey(db: Queryable, orgId: string, userId: string, name: string): Promise<CreatedApiKey> {
  const key = `rlk_${randomBytes(32).toString('base64url')}`;
  const id = newId();
  const rows = await db.query<{ created_at: Date }>(
    'INSERT INTO api_keys (id, org_id, name, token_sha256, created_by_user_id) VALUES ($1, $2, $3, $4, $5) RETURNING created_at',
    [id, orgId, name, tokenDigest(key), userId]);
  return { id, name, key, createdAt: rows[0]!.created_at.toISOString() };
}

export async function listApiKeys(db: Queryable, orgId: string): Promise<ApiKeySummary[]> {
  const rows = await db.query<{ id: string; name: string; created_at: Date; last_used_at: Date | null }>(
    'SELECT id, name, created_at, last_used_at FROM api_keys WHERE org_id = $1 AND revoked_at IS NULL ORDER BY created_at DESC', [orgId]);
  return rows.map((r) => ({ id: r.id, name: r.name, prefix: 'rlk_', createdAt: r.created_at.toISOString(), lastUsedAt: r.last_used_at?.toISOString() ?? null }));
}

export async function revokeApiKey(db: Queryable, orgId: string, id: string): Promise<boolean> {
  const rows = await db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND org_id = $2 AND revoked_at IS NULL RETURNING id', [id, orgId]);
  return rows.length > 0;
}

export async function resolveApiKey(db: Queryable, key: string): Promise<ApiKeyRecord | null> {
  const rows = await db.query<{ id: string; org_id: string; created_by_user_id: string | null; last_used_at: Date | null }>(
    'SELECT id, org_id, created_by_user_id, last_used_at FROM api_keys WHERE token_sha256 = $1 AND revoked_at IS NULL', [tokenDigest(key)]);
  const row = rows[0];
  if (!row) return null;
  if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > 60_000) {
    await db.query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [row.id]);
  }
  return { id: row.id, orgId: row.org_id, createdByUserId: row.created_by_user_id };
}
