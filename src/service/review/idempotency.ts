import { createHash } from 'node:crypto';
import type { DocumentRow } from '../../contract/document';
import { IDEMPOTENCY_KEY_TTL_HOURS } from '../../contract/events';
import { ProblemError } from '../http/problem';
import type { Queryable } from '../store/database';

/**
 * The Idempotency-Key of one change request (apply, undo, redline edits). `fingerprint`
 * names the request (operation, caller and body); the service sets `replayed` when it
 * answers the recorded result of an earlier request with the same key.
 */
export interface IdempotentRequest {
  key: string;
  fingerprint: string;
  replayed?: boolean;
}

/** What a key remembers: where its request left the draft. */
export interface RecordedKey {
  fingerprint: string;
  logSeq: number;
  contentSha256: string;
  document: DocumentRow;
}

/** The fingerprint of a request: a different body (or caller) under the same key is refused. */
export function fingerprintOf(operation: 'apply' | 'undo' | 'redlines', userId: string, body: unknown): string {
  return createHash('sha256').update(JSON.stringify([operation, userId, body ?? null])).digest('hex');
}

/**
 * The result recorded under `key` on this draft within the last 24 hours, or null. A key
 * recorded for another request answers 422 `idempotency_key_reused`, nothing changed.
 */
export async function recordedResult(db: Queryable, uploadId: string, request: IdempotentRequest): Promise<RecordedKey | null> {
  const [row] = await db.query<{ request_sha256: string; log_seq: number; content_sha256: string; document: DocumentRow }>(
    `SELECT request_sha256, log_seq, content_sha256, document FROM idempotency_keys
     WHERE upload_id = $1 AND key = $2 AND created_at > now() - make_interval(hours => $3)`,
    [uploadId, request.key, IDEMPOTENCY_KEY_TTL_HOURS]);
  if (!row) return null;
  if (row.request_sha256 !== request.fingerprint) {
    throw new ProblemError(422, 'idempotency_key_reused',
      'This Idempotency-Key was already used on this draft for a different request. Send each new batch with a new key. Nothing was changed.');
  }
  return { fingerprint: row.request_sha256, logSeq: row.log_seq, contentSha256: row.content_sha256, document: row.document };
}

/** Records the key in the commit's transaction (an expired key of the same name is replaced). */
export async function recordResult(tx: Queryable, uploadId: string, userId: string, request: IdempotentRequest, result: Omit<RecordedKey, 'fingerprint'>): Promise<void> {
  await tx.query(
    `INSERT INTO idempotency_keys (upload_id, key, request_sha256, user_id, log_seq, content_sha256, document, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now())
     ON CONFLICT (upload_id, key) DO UPDATE SET request_sha256 = EXCLUDED.request_sha256, user_id = EXCLUDED.user_id,
       log_seq = EXCLUDED.log_seq, content_sha256 = EXCLUDED.content_sha256, document = EXCLUDED.document, created_at = now()`,
    [uploadId, request.key, request.fingerprint, userId, result.logSeq, result.contentSha256, JSON.stringify(result.document)]);
}

/** Maintenance: forgets keys older than their lifetime. */
export async function purgeExpiredKeys(db: Queryable): Promise<void> {
  await db.query('DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1)', [IDEMPOTENCY_KEY_TTL_HOURS]);
}
