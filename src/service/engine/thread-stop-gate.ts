import type zlibModule from 'node:zlib';

/**
 * Node 20 aborts the whole process when a worker thread is terminated while one of its zlib
 * objects is being constructed: the native handle exists, its init has not run, and the thread's
 * cleanup closes it ("Assertion failed: init_done_ && close before init", node_zlib.cc). A worker
 * running the engine inflates and deflates hundreds of zip entries a second (and PDFKit deflates
 * every stream of a report), so terminating one mid-job (a job past its deadline, the pool
 * closing) hits that window often enough to take the service down: it did in CI, and a worker
 * inflating in a loop reproduces it alone within seconds (thread-stop-gate.test.ts).
 *
 * The gate makes termination wait for a point outside every zlib call of the thread, and keeps the
 * thread from entering another one, with two shared words and Dekker's handshake (Atomics are
 * sequentially consistent): the worker marks "inside" before it reads "stop"; the stopping side
 * sets "stop" before it reads "inside". Whichever order they run in, either the stopping side sees
 * the worker inside and waits for it to leave, or the worker sees "stop" and throws instead of
 * entering.
 */
const STOP = 0;
const INSIDE = 1;

/** What a zlib call throws once its thread is being stopped; the job it ran has already failed on the pool's side. */
export class ThreadStoppingError extends Error {
  constructor() {
    super('the engine thread is being stopped');
    this.name = 'ThreadStoppingError';
  }
}

/** The worker's side: runs calls only while its thread is not being stopped. */
export class ThreadStopGuard {
  private readonly words: Int32Array;
  /** Calls nest (deflateSync constructs a Deflate): only the outermost marks entering and leaving. */
  private depth = 0;

  constructor(shared: SharedArrayBuffer) {
    this.words = new Int32Array(shared);
  }

  run<T>(call: () => T): T {
    if (this.depth > 0) return call();
    Atomics.store(this.words, INSIDE, 1);
    this.depth++;
    try {
      if (Atomics.load(this.words, STOP) === 1) throw new ThreadStoppingError();
      return call();
    } finally {
      this.depth--;
      Atomics.store(this.words, INSIDE, 0);
    }
  }

  /**
   * Routes every function of this thread's node:zlib (the classes, the stream factories, the
   * one-shot calls sync and async) through the gate, so whatever makes a zlib object here (the
   * engine's codec, PDFKit, a library added later) makes it inside. Each thread has its own module
   * instance: the main thread's zlib is untouched. crc32 makes no object and stays as it is.
   * Only calls made after this runs, through the module object, are gated: call it before
   * anything captures a zlib function.
   */
  gateZlib(zlib: typeof zlibModule): void {
    for (const name of Object.keys(zlib) as (keyof typeof zlibModule)[]) {
      const original: unknown = zlib[name];
      if (typeof original !== 'function' || name === 'crc32') continue;
      const fn = original as (...args: unknown[]) => unknown;
      // A Proxy keeps what code may rely on: `new` and plain calls, `instanceof`, name and length.
      const gated = new Proxy(fn, {
        apply: (target, self, args) => this.run(() => Reflect.apply(target, self, args)),
        construct: (target, args, newTarget) => this.run(() => Reflect.construct(target, args, newTarget)),
      });
      const descriptor = Object.getOwnPropertyDescriptor(zlib, name);
      Object.defineProperty(zlib, name, { ...descriptor, value: gated });
    }
  }
}

/**
 * Installs the gate on the calling worker thread, from the shared words the pool passed as
 * workerData.stopGate. The pool's boot script calls it before it imports the engine, so no module
 * of the thread ever holds an ungated zlib function.
 */
export async function gateThisThread(): Promise<void> {
  const { workerData } = await import('node:worker_threads');
  const { default: zlib } = await import('node:zlib');
  new ThreadStopGuard((workerData as { stopGate: SharedArrayBuffer }).stopGate).gateZlib(zlib);
}

/** The pool's side of one worker's gate. */
export class ThreadStopGate {
  readonly shared = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
  private readonly words = new Int32Array(this.shared);

  /** Whether the worker is in a gated call now. */
  get workerInside(): boolean {
    return Atomics.load(this.words, INSIDE) === 1;
  }

  /**
   * Resolves once the worker can be terminated safely: it will not enter a zlib call again and is
   * in none now. One call lasts milliseconds (inflating the largest part a draft may hold, well
   * under a second), so this waits at most that long; `patienceMs` bounds it anyway.
   */
  async close(patienceMs = 5_000): Promise<void> {
    Atomics.store(this.words, STOP, 1);
    const until = performance.now() + patienceMs;
    while (this.workerInside && performance.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
}
