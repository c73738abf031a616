/**
 * Where document bytes live. Keys are content addresses (see content-store.ts), so a
 * put of an existing key writes identical bytes: puts are idempotent.
 */
export interface BlobStore {
  readonly kind: 'disk' | 's3';
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** null when no blob has that key. */
  get(key: string): Promise<Uint8Array | null>;
  delete(key: string): Promise<void>;
  /** Answers when the store can be reached (readiness); throws BlobStoreUnavailableError otherwise. Writes nothing. */
  ping(): Promise<void>;
}

/** The blob store could not be reached or written; the HTTP layer answers 503. */
export class BlobStoreUnavailableError extends Error {
  override readonly name = 'BlobStoreUnavailableError';
}
