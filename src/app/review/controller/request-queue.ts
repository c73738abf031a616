import { ApiError } from '../../api/errors';
import { isUnreachable, retryDelayMs, type QueuedBatch } from '../outbox';
import { bodyOf, type ApplyOp, type EditOp, type Op, type UndoOp } from './ops';
import type { ReviewResponse, ReviewTransport } from './types';

/** What the queue tells the review about: an answer or a refusal, a change of state, nothing left to send. */
export interface QueueListener {
  /** The service answered `op` (data) or refused it (error); it has left the queue. */
  settled(op: Op, data: ReviewResponse | null, error: unknown): void;
  /** Offline or back, a retry scheduled: the snapshot should be recomputed. */
  changed(): void;
  /** The queue is empty and nothing is in flight. */
  idle(): void;
}

/**
 * The outbox side of the review: requests go one at a time, in order; each batch is kept on the
 * device (the transport's BatchStore) until the service has answered it. When the service cannot
 * be reached the request stays first in line, shown as decided, and goes again with backoff
 * under the same Idempotency-Key (if it did arrive, the service answers its result once).
 */
export class RequestQueue {
  private ops: Op[] = [];
  private inFlight = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private attempts = 0;
  private counter = 1;
  /** The service could not be reached at the last attempt. */
  offline = false;
  /** Idempotency-Keys of the batches this tab sent: their log entries come back on the stream and change nothing. */
  readonly ownKeys = new Set<string>();

  constructor(
    private readonly transport: ReviewTransport,
    private readonly listener: QueueListener,
  ) {}

  /** A fresh sequence number: ops' `key`, and the order batches are kept in on the device. */
  nextKey(): number {
    return this.counter++;
  }

  /** The sequence number the next op will take (the open batch is kept on the device as if queued next). */
  peekKey(): number {
    return this.counter;
  }

  get pending(): readonly Op[] {
    return this.ops;
  }

  get last(): Op | undefined {
    return this.ops[this.ops.length - 1];
  }

  /** Queues a batch or an undo behind the rest, kept on the device until answered. */
  push(op: ApplyOp | UndoOp): void {
    this.ownKeys.add(op.batchKey);
    this.ops.push(op);
    this.keep({
      key: op.batchKey, kind: op.kind, decisions: op.kind === 'apply' ? [...op.layer] : [], createdAt: Date.now() + op.key / 1000,
      ...(op.kind === 'apply' && op.notes ? { notes: op.notes } : {}),
    });
  }

  /** Queues an edit (not kept on the device: its request is a closure). */
  pushEdit(op: EditOp): void {
    this.ownKeys.add(op.batchKey);
    this.ops.push(op);
  }

  /** Puts a queued op first in line (the rest of a partly refused batch goes before anything decided after it). */
  moveToFront(op: Op): void {
    this.ops = [op, ...this.ops.filter((o) => o !== op)];
  }

  /** Takes an op out of the queue without sending it (and off the device). */
  drop(op: Op): void {
    this.ops = this.ops.filter((o) => o !== op);
    this.forget(op.batchKey);
  }

  /** Batches a previous page left on this device, put before anything queued here; answers how many. */
  restore(batches: readonly QueuedBatch[]): number {
    const known = new Set(this.ops.map((o) => o.batchKey));
    const restored: Op[] = batches.filter((b) => !known.has(b.key)).map((b) => {
      this.ownKeys.add(b.key);
      return b.kind === 'apply'
        ? { kind: 'apply', key: this.nextKey(), batchKey: b.key, layer: new Map(b.decisions), ...(b.notes ? { notes: b.notes } : {}) }
        : { kind: 'undo', key: this.nextKey(), batchKey: b.key, target: null, layer: new Map() };
    });
    this.ops = [...restored, ...this.ops];
    return restored.length;
  }

  /** Writes a batch to the device; where storage refuses, it is not kept across a reload but is still sent from memory. */
  keep(batch: QueuedBatch): void {
    this.transport.outbox?.save(batch).catch(() => {});
  }

  forget(batchKey: string): void {
    this.transport.outbox?.remove(batchKey).catch(() => {});
  }

  /** The connection is back (the browser says so): send what waits now rather than at the next retry. */
  retryNow(): void {
    if (this.retryTimer === null) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.pump();
  }

  /** Sends the first queued request unless one is in flight or waiting for its retry. */
  pump(): void {
    if (this.inFlight || this.retryTimer !== null) return;
    const op = this.ops[0];
    if (!op) {
      this.listener.idle();
      return;
    }
    this.inFlight = true;
    if (op.kind === 'apply') op.sent = true;
    const request = op.kind === 'apply' ? this.transport.apply(bodyOf(op), op.batchKey) : op.kind === 'edit' ? op.send(op.batchKey) : this.transport.undo(op.batchKey);
    request.then(
      (data) => this.settle(op, data, null),
      (error: unknown) => this.settle(op, null, error),
    );
  }

  private settle(op: Op, data: ReviewResponse | null, error: unknown): void {
    this.inFlight = false;
    if (!data && isUnreachable(error)) {
      this.offline = true;
      this.attempts++;
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        this.pump();
      }, retryDelayMs(this.attempts, error instanceof ApiError ? error.retryAfterSeconds : null));
      this.listener.changed();
      return;
    }
    this.offline = false;
    this.attempts = 0;
    this.ops = this.ops.filter((o) => o !== op);
    this.forget(op.batchKey);
    this.listener.settled(op, data, error);
    this.pump();
  }
}
