import { Worker } from 'node:worker_threads';
import { DocxError, type CompareDifference, type CompareOptions, type CompareResult, type DocxErrorCode, type OpenOptions } from '../../docx';

export interface CompareJob {
  id: number;
  older: Uint8Array;
  newer: Uint8Array;
  options: Omit<CompareOptions, 'open'>;
  limits: OpenOptions['limits'];
  /** true: the redline becomes a draft (its bytes are ingested and sent back); false: only the differences. */
  draft: boolean;
}

export type CompareJobAnswer =
  | { id: number; ok: true; bytes: Uint8Array; differences: CompareDifference[] }
  | { id: number; ok: false; docx: { code: DocxErrorCode; message: string } }
  | { id: number; ok: false; failure: string };

/**
 * The engine's comparisons, off the service's main thread: a 300-page comparison takes a second
 * or more of CPU, which would otherwise hold up every other request of the instance (the
 * answer to the next upload, review reads, the untracked report being polled). One worker,
 * started on first use, runs the comparisons one after another; the main thread stays free.
 * The worker loads the engine's TypeScript through tsx, as the service itself does.
 */
export class CompareThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (r: CompareResult) => void; reject: (e: unknown) => void }>();

  constructor(private readonly limits: OpenOptions['limits']) {}

  compare(older: Uint8Array, newer: Uint8Array, options: Omit<CompareOptions, 'open'>, draft: boolean): Promise<CompareResult> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<CompareResult>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      // While a comparison is in flight the worker keeps the process alive; idle, it does not.
      worker.ref();
      worker.postMessage({ id, older, newer, options, limits: this.limits, draft } satisfies CompareJob);
    });
  }

  /**
   * Starts the worker and loads the engine in it now, so the first comparison after a start does
   * not pay for that (about half a second). It does not keep the process alive.
   */
  warm(): void {
    this.start().postMessage({ id: 0, older: new Uint8Array(0), newer: new Uint8Array(0), options: {}, limits: this.limits, draft: false } satisfies CompareJob);
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    // Node 20 does not pass the main thread's loader hooks to a worker: the worker registers tsx's
    // itself, then imports the TypeScript entry.
    const entry = new URL('./compare-thread-worker.ts', import.meta.url).href;
    const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
    const worker = new Worker(boot, { eval: true });
    worker.on('message', (answer: CompareJobAnswer) => {
      const waiter = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      if (this.waiting.size === 0) worker.unref();
      if (!waiter) return;
      if (answer.ok) waiter.resolve({ bytes: answer.bytes, differences: answer.differences });
      else if ('docx' in answer) waiter.reject(new DocxError(answer.docx.code, answer.docx.message));
      else waiter.reject(new Error(`the comparison failed: ${answer.failure}`));
    });
    // A worker that dies (out of memory, say) fails what it held; the next comparison starts a new one.
    const fail = (error: unknown) => {
      if (this.worker === worker) this.worker = null;
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
