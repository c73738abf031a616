import { createHash } from 'node:crypto';
import type { BlobStore } from './blobs/blob-store';
import type { Database, Queryable } from './database';

export interface StoredContent {
  sha256: string;
  storageKey: string;
  sizeBytes: number;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function storageKeyFor(sha256: string): string {
  return `sha256/${sha256}`;
}

/**
 * Content-addressed, shared document bytes. Rows never delete bytes directly; the
 * sweep removes blobs that no upload row and no undo history references, and only
 * once they are older than a grace period, so an upload in flight (blob written,
 * row not yet committed) never loses its blob.
 */
export class ContentStore {
  /** Told of each content stored (its hash and bytes, not to be changed), after it is written. */
  private readonly listeners: ((sha256: string, bytes: Uint8Array) => void)[] = [];

  constructor(
    private readonly db: Database,
    private readonly blobs: BlobStore,
  ) {}

  /**
   * Registers, then writes. Registering first (and refreshing created_at when the blob
   * exists) means the sweep, which deletes the registry row before the bytes under
   * the row's lock, can never remove bytes a concurrent put has just vouched for.
   */
  async put(bytes: Uint8Array): Promise<StoredContent> {
    const sha256 = sha256Hex(bytes);
    await this.db.query(
      `INSERT INTO blobs (sha256, size_bytes, created_at) VALUES ($1, $2, now())
       ON CONFLICT (sha256) DO UPDATE SET created_at = now()`,
      [sha256, bytes.byteLength],
    );
    const storageKey = storageKeyFor(sha256);
    await this.blobs.put(storageKey, bytes);
    for (const listener of this.listeners) listener(sha256, bytes);
    return { sha256, storageKey, sizeBytes: bytes.byteLength };
  }

  /** Work to start on each content once stored (the checks, computed ahead of the first ask); a listener must not throw. */
  whenStored(listener: (sha256: string, bytes: Uint8Array) => void): void {
    this.listeners.push(listener);
  }

  /** The bytes of a stored blob; throws if a row points at bytes that are gone. */
  async get(sha256: string): Promise<Uint8Array> {
    const bytes = await this.blobs.get(storageKeyFor(sha256));
    if (!bytes) throw new Error(`blob ${sha256} is missing from the blob store`);
    return bytes;
  }

  /**
   * Removes unreferenced blobs older than `graceMs`. One transaction per blob: the
   * registry row is deleted (and so locked) first, the bytes second, and a concurrent
   * put of the same content waits on that row and rewrites the bytes afterwards.
   */
  async sweep(graceMs: number): Promise<{ removed: string[] }> {
    const candidates = await this.db.query<{ sha256: string }>(
      `SELECT sha256 FROM blobs b
       WHERE b.created_at < now() - make_interval(secs => $1::double precision / 1000)
         AND ${unreferenced('b.sha256')}`,
      [graceMs],
    );
    const removed: string[] = [];
    for (const { sha256 } of candidates) {
      const gone = await this.db.transaction(async (tx) => {
        const rows = await deleteIfStillUnreferenced(tx, sha256, graceMs);
        if (rows === 0) return false;
        await this.blobs.delete(storageKeyFor(sha256));
        return true;
      });
      if (gone) removed.push(sha256);
    }
    return { removed };
  }
}

function unreferenced(shaColumn: string): string {
  return `NOT EXISTS (SELECT 1 FROM uploads u WHERE u.content_sha256 = ${shaColumn})
      AND NOT EXISTS (SELECT 1 FROM decision_batches d WHERE d.previous_sha256 = ${shaColumn})`;
}

async function deleteIfStillUnreferenced(tx: Queryable, sha256: string, graceMs: number): Promise<number> {
  const rows = await tx.query(
    `DELETE FROM blobs b WHERE b.sha256 = $1
       AND b.created_at < now() - make_interval(secs => $2::double precision / 1000)
       AND ${unreferenced('b.sha256')}
     RETURNING sha256`,
    [sha256, graceMs],
  );
  return rows.length;
}
