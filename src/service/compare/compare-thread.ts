import { Worker } from 'node:worker_threads';
import { DocxError, type CompareDifference, type CompareOptions, type CompareResult, type DocxErrorCode, type OpenOptions } from '../../docx';

export interface CompareJob {
  kind: 'compare';
  id: number;
  older: Uint8Array;
  newer: Uint8Array;
  options: Omit<CompareOptions, 'open'>;
  limits: OpenOptions['limits'];
  /** true: the redline becomes a draft (its bytes are ingested and sent back); false: only the differences. */
  draft: boolean;
}

/** Loads the engine and runs it on a small generated contract, so the first real comparison runs on compiled code. */
export interface WarmJob {
  kind: 'warm';
  id: number;
  limits: OpenOptions['limits'];
}

/** Where the worker's time went on one job; instants in ms since the epoch (performance.timeOrigin + now, comparable across threads). */
export interface JobTiming {
  startedAt: number;
  /** The engine's compareDocx: unzip, parse, both views resolved, the comparison, the redline written. */
  engineMs: number;
  /** Ingesting the redline (drafts only). */
  ingestMs: number;
  postedAt: number;
  /** How many jobs this worker had run before this one (warm-up included): 0 on a fresh worker. */
  jobsBefore: number;
}

export type CompareJobAnswer =
  | { id: number; ok: true; bytes: Uint8Array; differences: CompareDifference[]; timing: JobTiming }
  | { id: number; warmed: true }
  | { id: number; ok: false; docx: { code: DocxErrorCode; message: string } }
  | { id: number; ok: false; failure: string };

/** A comparison's result with where the time went, the worker's share and the crossings of the thread boundary. */
export interface TimedCompareResult extends CompareResult {
  timing: {
    /** Posted until the worker started it (a job ahead of it, the warm-up, a worker start). */
    queueMs: number;
    engineMs: number;
    ingestMs: number;
    /** The answer posted until the service's thread had it (the differences copied, the bytes transferred). */
    replyMs: number;
    /** Whether the worker had run a job before (warm-up included): false means this job paid for loading the engine. */
    warm: boolean;
  };
}

/** The epoch instant now, comparable between the service's thread and the worker. */
export const epochNow = (): number => performance.timeOrigin + performance.now();

/**
 * The engine's comparisons, off the service's main thread: a 300-page comparison takes a second
 * or more of CPU, which would otherwise hold up every other request of the instance (the
 * answer to the next upload, review reads, the untracked report being polled). One worker,
 * started on first use (or by `warm`) and kept for the life of the instance, runs the
 * comparisons one after another; the main thread stays free. The worker loads the engine's
 * TypeScript through tsx, as the service itself does.
 */
export class CompareThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (r: TimedCompareResult) => void; reject: (e: unknown) => void; postedAt: number }>();
  /** The warm-up posted to the current worker, and its end. */
  private warmed: { id: number; done: Promise<void>; resolve: () => void } | null = null;
  /** How many workers this thread has started (a test reads it: one for the life of the instance). */
  workersStarted = 0;

  constructor(private readonly limits: OpenOptions['limits']) {}

  /**
   * Compares on the worker. `older` and `newer` are handed over (transferred, not copied): the
   * caller must not use them afterwards.
   */
  compare(older: Uint8Array, newer: Uint8Array, options: Omit<CompareOptions, 'open'>, draft: boolean): Promise<TimedCompareResult> {
    const worker = this.start();
    const id = this.nextId++;
    const olderOwn = ownBuffer(older);
    // The same buffer cannot be transferred twice in one message.
    const newerOwn = newer.buffer === olderOwn.buffer ? newer.slice() : ownBuffer(newer);
    return new Promise<TimedCompareResult>((resolve, reject) => {
      const postedAt = epochNow();
      this.waiting.set(id, { resolve, reject, postedAt });
      // While a comparison is in flight the worker keeps the process alive; idle, it does not.
      worker.ref();
      worker.postMessage(
        { kind: 'compare', id, older: olderOwn, newer: newerOwn, options, limits: this.limits, draft } satisfies CompareJob,
        [olderOwn.buffer as ArrayBuffer, newerOwn.buffer as ArrayBuffer],
      );
    });
  }

  /**
   * Starts the worker, loads the engine in it and runs it on a small generated contract now, so
   * the first check after a start pays neither for loading (about half a second) nor for the
   * engine's code being compiled by V8 as it first runs (a quarter to a third of a 300-page check's CPU).
   * Resolves once done; it does not keep the process alive, and comparisons posted meanwhile wait
   * their turn behind it.
   */
  warm(): Promise<void> {
    if (this.warmed) return this.warmed.done;
    const worker = this.start();
    const id = this.nextId++;
    let resolve = (): void => {};
    const done = new Promise<void>((r) => { resolve = r; });
    this.warmed = { id, done, resolve };
    worker.postMessage({ kind: 'warm', id, limits: this.limits } satisfies WarmJob);
    return done;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.warmed?.resolve();
    this.warmed = null;
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    // Node 20 does not pass the main thread's loader hooks to a worker: the worker registers tsx's
    // itself, then imports the TypeScript entry.
    const entry = new URL('./compare-thread-worker.ts', import.meta.url).href;
    const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
    const worker = new Worker(boot, { eval: true });
    this.workersStarted++;
    worker.on('message', (answer: CompareJobAnswer) => {
      const receivedAt = epochNow();
      if ('warmed' in answer) {
        if (this.warmed?.id === answer.id) this.warmed.resolve();
        return;
      }
      const waiter = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      if (this.waiting.size === 0) worker.unref();
      if (!waiter) return;
      if (answer.ok) {
        const t = answer.timing;
        waiter.resolve({
          bytes: answer.bytes,
          differences: answer.differences,
          timing: {
            queueMs: t.startedAt - waiter.postedAt, engineMs: t.engineMs, ingestMs: t.ingestMs,
            replyMs: receivedAt - t.postedAt, warm: t.jobsBefore > 0,
          },
        });
      } else if ('docx' in answer) waiter.reject(new DocxError(answer.docx.code, answer.docx.message));
      else waiter.reject(new Error(`the comparison failed: ${answer.failure}`));
    });
    // A worker that dies (out of memory, say) fails what it held; the next comparison starts a new one.
    const fail = (error: unknown) => {
      if (this.worker === worker) {
        this.worker = null;
        // The next worker is warmed again when asked.
        this.warmed?.resolve();
        this.warmed = null;
      }
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the comparison thread stopped (exit code ${code})`)));
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

/**
 * Bytes whose buffer is theirs alone, so it can be transferred: a Node Buffer read from a file or
 * socket is often a view into a larger pooled buffer, which must not be handed to another thread.
 */
function ownBuffer(bytes: Uint8Array): Uint8Array {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  return whole ? bytes : bytes.slice();
}
