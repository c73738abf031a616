import type { TrackState } from '../../contract/track';
import { ApiError } from '../api/errors';

/**
 * Decisions waiting for the network. Every batch the review sends is written here first
 * (IndexedDB, so a reload or a closed laptop keeps it) under its Idempotency-Key — the open
 * batch too, at each decision, before the batching delay has sent it — and
 * removed once the service has answered it (applied, or refused with a reason shown).
 * A batch that reached the service before the connection dropped is sent again with the
 * same key, and the service applies it once.
 */
export interface QueuedBatch {
  /** The batch's Idempotency-Key. */
  key: string;
  kind: 'apply' | 'undo';
  /** Apply: the decisions, in the order they were made. */
  decisions: [string, TrackState][];
  /** Apply: notes that go with some of those decisions (the apply body's `notes`). */
  notes?: Record<string, string>;
  /** Order of sending within a draft. */
  createdAt: number;
}

/** Where the review's queued batches are kept (one draft of one user in one organisation). */
export interface BatchStore {
  list(): Promise<QueuedBatch[]>;
  save(batch: QueuedBatch): Promise<void>;
  remove(key: string): Promise<void>;
}

interface StoredBatch extends QueuedBatch {
  /** `orgId/userId/documentId`: whose draft this batch belongs to. */
  scope: string;
}

const DB_NAME = 'redline-outbox';
const STORE = 'batches';

let opening: Promise<IDBDatabase | null> | null = null;

function openDatabase(): Promise<IDBDatabase | null> {
  opening ??= new Promise((resolve) => {
    if (typeof indexedDB === 'undefined') return resolve(null);
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore(STORE, { keyPath: 'key' });
      store.createIndex('scope', 'scope');
    };
    request.onsuccess = () => resolve(request.result);
    // Private modes may refuse IndexedDB: the queue then lives in memory for this page only.
    request.onerror = () => resolve(null);
    request.onblocked = () => resolve(null);
  });
  return opening;
}

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** The queued batches of one draft, for one user in one organisation. */
export function draftOutbox(scope: { orgId: string; userId: string; documentId: string }): BatchStore {
  const key = `${scope.orgId}/${scope.userId}/${scope.documentId}`;
  const memory = new Map<string, QueuedBatch>();
  const strip = ({ scope: _scope, ...batch }: StoredBatch): QueuedBatch => batch;
  return {
    async list() {
      const db = await openDatabase();
      if (!db) return [...memory.values()];
      const rows = await done(db.transaction(STORE).objectStore(STORE).index('scope').getAll(key) as IDBRequest<StoredBatch[]>);
      return rows.map(strip).sort((a, b) => a.createdAt - b.createdAt);
    },
    async save(batch) {
      const db = await openDatabase();
      if (!db) {
        memory.set(batch.key, batch);
        return;
      }
      await done(db.transaction(STORE, 'readwrite').objectStore(STORE).put({ ...batch, scope: key } satisfies StoredBatch));
    },
    async remove(batchKey) {
      const db = await openDatabase();
      if (!db) {
        memory.delete(batchKey);
        return;
      }
      await done(db.transaction(STORE, 'readwrite').objectStore(STORE).delete(batchKey));
    },
  };
}

/** A new Idempotency-Key. */
export function newBatchKey(): string {
  return crypto.randomUUID();
}

/** Whether a failed send never reached a service that could answer it: then the batch waits and is sent again. */
export function isUnreachable(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 0 || error.status === 502 || error.status === 503 || error.status === 504);
}

/** The wait before the n-th retry (1-based): 1 s doubling to 30 s, with jitter so many tabs do not retry together. */
export function retryDelayMs(attempt: number, retryAfterSeconds: number | null = null): number {
  if (retryAfterSeconds !== null) return retryAfterSeconds * 1000;
  const base = Math.min(30_000, 1000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}
