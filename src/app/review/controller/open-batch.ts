import type { TrackState } from '../../../contract/track';
import { newBatchKey } from '../outbox';
import type { ApplyOp } from './ops';
import type { RequestQueue } from './request-queue';

/** How long after the last decision key the batch is sent (the brief: within 500 ms). */
export const BATCH_DELAY_MS = 300;

/**
 * The decisions made since the last batch was sent: shown at once, sent BATCH_DELAY_MS after
 * the last key as one batch. It is kept on the device at every decision under the Idempotency-Key
 * chosen at its first, so a reload inside the delay loses nothing and it is sent under that key.
 */
export class OpenBatch {
  private decisions = new Map<string, TrackState>();
  /** Notes for decisions in this batch: they go with it (the apply body's `notes`). */
  private notes = new Map<string, string>();
  private key: string | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly queue: RequestQueue) {}

  get size(): number {
    return this.decisions.size;
  }

  /** The batch's decisions as a layer over the track. */
  get layer(): ReadonlyMap<string, TrackState> {
    return this.decisions;
  }

  has(id: string): boolean {
    return this.decisions.has(id);
  }

  decide(ids: Iterable<string>, verdict: TrackState): void {
    for (const id of ids) this.decisions.set(id, verdict);
    this.keep();
  }

  /** Sets (or, with empty text, removes) the note that goes with a decision of this batch. */
  note(id: string, text: string): void {
    if (text.trim()) this.notes.set(id, text);
    else this.notes.delete(id);
    this.keep();
  }

  noteOf(id: string): string | undefined {
    return this.notes.get(id);
  }

  /** Sends the batch `delay` ms from now (a later decision starts the wait again). */
  schedule(send: () => void): void {
    this.cancelTimer();
    this.timer = setTimeout(send, BATCH_DELAY_MS);
  }

  /** Takes every decision back before it is sent; answers how many there were. */
  withdraw(): number {
    const count = this.decisions.size;
    this.decisions = new Map();
    this.notes = new Map();
    this.cancelTimer();
    this.keep();
    return count;
  }

  /** Closes the batch: the apply to queue (none when empty), under the key it was kept with. */
  take(): ApplyOp | null {
    this.cancelTimer();
    if (this.decisions.size === 0) return null;
    const op: ApplyOp = {
      kind: 'apply', key: this.queue.nextKey(), batchKey: this.key ?? newBatchKey(), layer: this.decisions,
      ...(this.notes.size > 0 ? { notes: Object.fromEntries(this.notes) } : {}),
    };
    this.key = null;
    this.decisions = new Map();
    this.notes = new Map();
    return op;
  }

  private cancelTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * Writes the batch to the device as it stands (or removes it once withdrawn). It is kept after
   * everything already queued, so a page restoring it sends it last, as this one would.
   */
  private keep(): void {
    if (this.decisions.size === 0) {
      if (this.key !== null) this.queue.forget(this.key);
      this.key = null;
      return;
    }
    this.key ??= newBatchKey();
    this.queue.ownKeys.add(this.key);
    this.queue.keep({
      key: this.key, kind: 'apply', decisions: [...this.decisions], createdAt: Date.now() + this.queue.peekKey() / 1000,
      ...(this.notes.size > 0 ? { notes: Object.fromEntries(this.notes) } : {}),
    });
  }
}
