import { Worker } from 'node:worker_threads';
import { ThreadStopGate } from './thread-stop-gate';
import type { SideBySideViews } from '../../docx/compare/paragraph-map';
import type { Revision } from '../../contract/revision';
import type { ReadingView } from '../../contract/reading';
import type { CheckFinding, CheckView } from '../../contract/checks';
import type { PackedTexts, SearchFound, ViewRead } from '../reading/reading-work';
import type { SearchPattern } from '../reading/search-pattern';
import type { DecisionReport } from '../report/decision-report';
import type { BaselineReadings } from '../review/baselines';
import {
  DocxError, EditAnchorError, EditNotFoundError, type AnchorCandidate, type CompareDifference, type CompareOptions, type CompareResult, type DocxErrorCode,
  type EditAnchorProblem, type OpenOptions, type RedlineEdit, type WorkLimit, type WorkLimits,
} from '../../docx';

export interface CompareJob {
  kind: 'compare';
  id: number;
  older: Uint8Array;
  newer: Uint8Array;
  options: Omit<CompareOptions, 'open'>;
  limits: OpenOptions['limits'];
  /** true: the redline becomes a draft (its bytes are ingested and sent back); false: only the differences. */
  draft: boolean;
  /** The caps an upload is held to: a draft made by the comparison is held to them too. */
  work: WorkLimits;
}

/** Validates and normalises an upload (the engine's ingestDocx under the zip and work limits). */
export interface IngestJob {
  kind: 'ingest';
  id: number;
  bytes: Uint8Array;
  limits: OpenOptions['limits'];
  work: WorkLimits;
}

/** Loads the engine and runs it on a small generated contract, so the first real job runs on compiled code. */
export interface WarmJob {
  kind: 'warm';
  id: number;
  limits: OpenOptions['limits'];
}

/** A batch of redline edits on a draft (a heavy one: see ReviewService), written and analysed for the answer. */
export interface RedlineJob {
  kind: 'redline';
  id: number;
  bytes: Uint8Array;
  edits: RedlineEdit[];
  by: { author: string; date: string };
  /** Comment threads the assistant gave its proposals (MCP propose_redlines), by edit. */
  threads: (readonly string[] | undefined)[] | null;
  /** Whether the answer needs the render variant (a full answer) or only the revisions (minimal). */
  render: boolean;
  limits: OpenOptions['limits'];
  /** The caps an upload is held to: the written content is held to them here (checkWrittenWork), not on the service's thread. */
  work: WorkLimits;
}

/** What a redline job made: the new content, its render variant (null when not asked for or not buildable) and revisions. */
export interface RedlineWritten {
  bytes: Uint8Array;
  render: Uint8Array | null;
  revisions: Revision[];
  changes: { editIndex: number; changeIds: string[] }[];
  /**
   * What the answer's track reads on the new content (its decision facts and entries: a redline
   * batch starts a new run of decisions), read on the written draft here: read on the service's
   * thread they would need the draft parsed there first (a second on a long draft).
   */
  readings: BaselineReadings;
  engineMs: number;
}

/** An edit the engine refused (EditAnchorError, EditNotFoundError), as it crosses the thread boundary. */
export type EditRefusal =
  | { kind: 'anchor'; problem: EditAnchorProblem; editIndex: number; blockId: string; message: string; candidates: AnchorCandidate[]; blockText: string | null }
  | { kind: 'not_found'; editIndex: number };


/** The checks of a draft, both views (src/docx/checks): findings only, no bytes back. */
export interface ChecksJob {
  kind: 'checks';
  id: number;
  bytes: Uint8Array;
  limits: OpenOptions['limits'];
}

/** A view's blocks read from a content (the first reading of that view: seconds of parsing on a long draft). */
export interface ReadJob {
  kind: 'read';
  id: number;
  bytes: Uint8Array;
  limits: OpenOptions['limits'];
  view: ReadingView;
}

/** A search over a view's paragraph texts, stopped past its time limit (reading/reading-work.ts). */
export interface SearchJob {
  kind: 'search';
  id: number;
  texts: PackedTexts;
  pattern: SearchPattern;
  maxHits: number;
  timeLimitMs: number;
}

/** A decision report rendered as PDF (pdfkit: the layout and the font subsets take a second on a long report). */
export interface ReportPdfJob {
  kind: 'report_pdf';
  id: number;
  report: DecisionReport;
}

/**
 * A draft's side-by-side views (docx/compare/paragraph-map.ts): its rejected view and its render
 * variant with every paragraph tagged, and which older paragraph each comes from. Seconds of
 * work on a long draft (two parses, a reject of every change, two writes).
 */
export interface SideBySideJob {
  kind: 'side_by_side';
  id: number;
  bytes: Uint8Array;
}

/** What the jobs that answer a value (rather than a document's bytes and differences) answer. */
export interface JobValues {
  side_by_side: SideBySideViews;
  read: ViewRead;
  search: SearchFound;
  report_pdf: Uint8Array;
  checks: Record<CheckView, CheckFinding[]>;
}

export type ValueJob = ReadJob | SearchJob | ReportPdfJob | ChecksJob | SideBySideJob;
export type EngineJob = CompareJob | IngestJob | WarmJob | ValueJob | RedlineJob;

/** A comparison's counts beside its differences: entries as a review lists them, and the pending changes of each version. */
export type CompareCounts = Pick<CompareResult, 'entries' | 'pending'>;

/** Where the worker's time went on one job; instants in ms since the epoch (performance.timeOrigin + now, comparable across threads). */
export interface JobTiming {
  startedAt: number;
  /** The engine's work: compareDocx (unzip, parse, both views, the comparison, the redline written), or the ingest. */
  engineMs: number;
  /** Ingesting the redline (compare drafts only). */
  ingestMs: number;
  postedAt: number;
  /** How many jobs this worker had run before this one (warm-up included): 0 on a fresh worker. */
  jobsBefore: number;
}

export type EngineJobAnswer =
  | { id: number; ok: true; bytes: Uint8Array; differences: CompareDifference[]; counts: CompareCounts | null; timing: JobTiming }
  | { id: number; ok: true; value: JobValues[keyof JobValues] }
  | { id: number; ok: true; written: RedlineWritten }
  | { id: number; ok: false; refusal: EditRefusal }
  | { id: number; warmed: true }
  | { id: number; ok: false; docx: { code: DocxErrorCode; message: string; limit?: WorkLimit } }
  | { id: number; ok: false; failure: string };

/** A comparison's result with where the time went, the worker's share and the crossings of the thread boundary. */
export interface TimedCompareResult extends CompareResult {
  timing: {
    /** Posted until a worker started it (jobs ahead of it, the warm-up, a worker start). */
    queueMs: number;
    engineMs: number;
    ingestMs: number;
    /** The answer posted until the service's thread had it (the differences copied, the bytes transferred). */
    replyMs: number;
    /** Whether the worker had run a job before (warm-up included): false means this job paid for loading the engine. */
    warm: boolean;
  };
}

/** The epoch instant now, comparable between the service's thread and the workers. */
export const epochNow = (): number => performance.timeOrigin + performance.now();

/**
 * The pool is full (too many jobs waiting, or the organisation already has its share running or
 * waiting): nothing was done; the client may try again after `retryAfterSeconds` (answered 503).
 */
export class EngineBusyError extends Error {
  override readonly name = 'EngineBusyError';
  constructor(message: string, readonly retryAfterSeconds: number) {
    super(message);
  }
}

export interface EngineThreadsOptions {
  /** Worker threads (each runs one job at a time). */
  threads?: number;
  /** Jobs a request may leave waiting for a thread; one more is refused with EngineBusyError. */
  maxQueued?: number;
  /** Jobs one organisation may have running or waiting at once; one more is refused. */
  maxPerOrg?: number;
}

/**
 * A job ran past its deadline: its thread was ended (the work with it) and a new one takes the
 * next job. Nothing the job would have answered was kept.
 */
export class EngineJobTimeoutError extends Error {
  override readonly name = 'EngineJobTimeoutError';
  constructor(readonly deadlineMs: number) {
    super(`the engine job ran past its deadline of ${deadlineMs} ms and was ended`);
  }
}

/** Who asks: a request of an organisation (bounded), or the service itself (an untracked check, after its upload was admitted). */
export type JobOwner = { orgId: string } | 'background';

interface Pending {
  job: EngineJob;
  transfer: ArrayBuffer[];
  owner: JobOwner;
  postedAt: number;
  /** Running longer than this ends the job's thread (EngineJobTimeoutError). */
  deadlineMs?: number;
  /** Work done ahead of any request (see whenIdle): its key, while it waits for a spare worker. */
  spareKey?: string;
  resolve: (answer: EngineJobAnswer, receivedAt: number) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  /** Terminate only through stop(): see thread-stop-gate.ts. */
  stopGate: ThreadStopGate;
  running: Pending | null;
  startedAt: number;
  deadline: NodeJS.Timeout | null;
}

/**
 * The engine's heavy work, off the service's main thread: comparisons (a second or more of CPU
 * for 300 pages) and the ingest of every upload, new version and saved draft (a 123 KB .docx may
 * hold 30 MB of XML, seconds of parsing), which would otherwise hold up every other request of
 * the instance, health checks included. A pool of worker threads, started on first use (or by
 * `warm`) and kept for the life of the instance, runs one job each at a time from one queue.
 * The queue is bounded twice: in all, and per organisation (running and waiting), so one
 * organisation cannot take the instance's engine for itself; past a bound a request is refused
 * at once (EngineBusyError, answered 503 with Retry-After) rather than left waiting. The workers
 * load the engine's TypeScript through tsx, as the service itself does.
 */
export class EngineThreads {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private readonly perOrg = new Map<string, number>();
  private nextId = 1;
  /** The warm-up of the current workers, and its end. */
  private warmed: Promise<void> | null = null;
  /** A running average of how long a job takes, for Retry-After. */
  private averageJobMs = 1000;
  private readonly threads: number;
  private readonly maxQueued: number;
  private readonly maxPerOrg: number;
  /** How many workers this pool has started (a test reads it: one per thread for the life of the instance). */
  workersStarted = 0;

  constructor(private readonly limits: OpenOptions['limits'], options: EngineThreadsOptions = {}, private readonly work: WorkLimits = {}) {
    this.threads = Math.max(1, options.threads ?? 1);
    this.maxQueued = options.maxQueued ?? Infinity;
    this.maxPerOrg = options.maxPerOrg ?? Infinity;
  }

  /**
   * Compares on a worker. `older` and `newer` are handed over (transferred, not copied): the
   * caller must not use them afterwards.
   */
  async compare(older: Uint8Array, newer: Uint8Array, options: Omit<CompareOptions, 'open'>, draft: boolean, owner: JobOwner = 'background'): Promise<TimedCompareResult> {
    const olderOwn = ownBuffer(older);
    // The same buffer cannot be transferred twice in one message.
    const newerOwn = newer.buffer === olderOwn.buffer ? newer.slice() : ownBuffer(newer);
    const { answer, postedAt, receivedAt } = await this.run(
      (id) => ({ kind: 'compare', id, older: olderOwn, newer: newerOwn, options, limits: this.limits, draft, work: this.work }),
      [olderOwn.buffer as ArrayBuffer, newerOwn.buffer as ArrayBuffer], owner);
    if (!('bytes' in answer)) throw new Error('the engine answered a comparison with no document');
    const t = answer.timing;
    return {
      bytes: answer.bytes,
      differences: answer.differences,
      ...answer.counts!,
      timing: { queueMs: t.startedAt - postedAt, engineMs: t.engineMs, ingestMs: t.ingestMs, replyMs: receivedAt - t.postedAt, warm: t.jobsBefore > 0 },
    };
  }

  /**
   * Ingests an upload on a worker (engine refusals are thrown as DocxError). `bytes` are handed
   * over (transferred): the caller must not use them afterwards.
   */
  async ingest(bytes: Uint8Array, work: WorkLimits, owner: JobOwner): Promise<Uint8Array> {
    const own = ownBuffer(bytes);
    const { answer } = await this.run((id) => ({ kind: 'ingest', id, bytes: own, limits: this.limits, work }), [own.buffer as ArrayBuffer], owner);
    if (!('bytes' in answer)) throw new Error('the engine answered an ingest with no document');
    return answer.bytes;
  }

  /** Reads a content's blocks in one view on a worker. `bytes` are copied (the caller's stay theirs: they are a stored content). */
  async readView(bytes: Uint8Array, view: ReadingView, owner: JobOwner): Promise<ViewRead> {
    return this.value<'read'>((id) => ({ kind: 'read', id, bytes, limits: this.limits, view }), owner);
  }

  /**
   * Searches texts on a worker: the search stops itself past `timeLimitMs` (answering timedOut),
   * and should one paragraph hold it longer, its thread is ended a second later
   * (EngineJobTimeoutError).
   */
  async search(texts: PackedTexts, pattern: SearchPattern, maxHits: number, timeLimitMs: number, owner: JobOwner): Promise<SearchFound> {
    return this.value<'search'>((id) => ({ kind: 'search', id, texts, pattern, maxHits, timeLimitMs }), owner, timeLimitMs + 1000);
  }

  /** Renders a decision report as PDF on a worker. */
  async reportPdf(report: DecisionReport, owner: JobOwner): Promise<Uint8Array> {
    return this.value<'report_pdf'>((id) => ({ kind: 'report_pdf', id, report }), owner);
  }

  /** A draft's side-by-side views on a worker. `bytes` are handed over (transferred). */
  async sideBySide(bytes: Uint8Array, owner: JobOwner): Promise<SideBySideViews> {
    const own = ownBuffer(bytes);
    return this.value<'side_by_side'>((id) => ({ kind: 'side_by_side', id, bytes: own }), owner, undefined, [own.buffer as ArrayBuffer]);
  }

  /** The checks of a draft on a worker, both views (engine refusals are thrown as DocxError). `bytes` are handed over (transferred). */
  async checks(bytes: Uint8Array, owner: JobOwner): Promise<Record<CheckView, CheckFinding[]>> {
    const own = ownBuffer(bytes);
    return this.value<'checks'>((id) => ({ kind: 'checks', id, bytes: own, limits: this.limits }), owner, undefined, [own.buffer as ArrayBuffer]);
  }

  /**
   * The checks of a draft, computed ahead of any ask (issue 35: when a draft's content is stored),
   * on a spare worker only: the job waits while any request's job waits, and, in a pool of more
   * than one thread, leaves one worker free for requests. Asked for meanwhile, it is promoted
   * (`promote`) and runs as a request's job would. Never refused; `bytes` are handed over.
   */
  checksWhenIdle(key: string, bytes: Uint8Array): Promise<Record<CheckView, CheckFinding[]>> {
    const own = ownBuffer(bytes);
    return this.value<'checks'>((id) => ({ kind: 'checks', id, bytes: own, limits: this.limits }), 'background', undefined, [own.buffer as ArrayBuffer], key);
  }

  /** A request now waits on the spare job of this key: it takes its turn in the queue like a request's job (no-op once it runs). */
  promote(key: string): void {
    for (const pending of this.queue) if (pending.spareKey === key) delete pending.spareKey;
    this.dispatch();
  }

  private async value<K extends ValueJob['kind']>(build: (id: number) => Extract<ValueJob, { kind: K }>, owner: JobOwner, deadlineMs?: number, transfer: ArrayBuffer[] = [], spareKey?: string): Promise<JobValues[K]> {
    const { answer } = await this.run(build, transfer, owner, deadlineMs, spareKey);
    if (!('value' in answer)) throw new Error('the engine answered a document where a value was asked for');
    // The worker answers each kind with its own value (engine-thread-worker.ts): the message is untyped across the thread.
    return answer.value as JobValues[K];
  }

  /**
   * Writes a batch of redline edits on a draft's bytes on a worker, with what the answer needs
   * (revisions, and the render variant unless `render` is false) and the track (its readings),
   * the written content held to the upload caps. A refused edit is thrown as the engine throws it
   * (EditAnchorError, EditNotFoundError), a content past the caps as DocxError. `bytes` are
   * copied, not handed over.
   */
  async redline(
    bytes: Uint8Array, edits: RedlineEdit[], by: { author: string; date: string }, threads: (readonly string[] | undefined)[] | null,
    render: boolean, owner: JobOwner,
  ): Promise<RedlineWritten> {
    const own = bytes.slice();
    const { answer } = await this.run((id) => ({ kind: 'redline', id, bytes: own, edits, by, threads, render, limits: this.limits, work: this.work }), [own.buffer as ArrayBuffer], owner, undefined, undefined, edits);
    if (!('written' in answer)) throw new Error('the engine thread answered a redline batch with something else');
    return answer.written;
  }

  /**
   * Starts every worker, loads the engine in it and runs it on a small generated contract now, so
   * the first job after a start pays neither for loading (about half a second) nor for the
   * engine's code being compiled by V8 as it first runs (a quarter to a third of a 300-page check's CPU).
   * Resolves once done; it does not keep the process alive, and jobs posted meanwhile wait
   * their turn behind it.
   */
  warm(): Promise<void> {
    if (this.warmed) return this.warmed;
    while (this.slots.length < this.threads) this.startSlot();
    const warmUps = this.slots.map((slot) => new Promise<void>((resolve) => {
      if (slot.running) return resolve();
      const id = this.nextId++;
      slot.running = { job: { kind: 'warm', id, limits: this.limits }, transfer: [], owner: 'background', postedAt: epochNow(),
        resolve: () => resolve(), reject: () => resolve() };
      slot.worker.postMessage(slot.running.job);
    }));
    this.warmed = Promise.all(warmUps).then(() => undefined);
    return this.warmed;
  }

  /** Stops every worker; jobs running or waiting fail. */
  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    const waiting = this.queue.splice(0);
    this.warmed = null;
    const closed = new Error('the engine threads were closed');
    for (const slot of slots) this.finished(slot)?.reject(closed);
    for (const pending of waiting) pending.reject(closed);
    this.perOrg.clear();
    await Promise.all(slots.map((s) => stop(s)));
  }

  private run(
    build: (id: number) => Exclude<EngineJob, WarmJob>,
    transfer: ArrayBuffer[],
    owner: JobOwner,
    deadlineMs?: number,
    spareKey?: string,
    edits: readonly RedlineEdit[] = [],
  ): Promise<{ answer: Extract<EngineJobAnswer, { ok: true }>; postedAt: number; receivedAt: number }> {
    this.admit(owner);
    const job = build(this.nextId++);
    return new Promise((resolve, reject) => {
      const postedAt = epochNow();
      this.queue.push({
        job, transfer, owner, postedAt, reject, ...(deadlineMs !== undefined ? { deadlineMs } : {}), ...(spareKey !== undefined ? { spareKey } : {}),
        resolve: (answer, receivedAt) => {
          if ('warmed' in answer) return;
          if (answer.ok) resolve({ answer, postedAt, receivedAt });
          else if ('docx' in answer) reject(new DocxError(answer.docx.code, answer.docx.message, answer.docx.limit));
          else if ('refusal' in answer) reject(refusalError(answer.refusal, edits));
          else reject(new Error(`the engine job failed: ${answer.failure}`));
        },
      });
      if (owner !== 'background') this.perOrg.set(owner.orgId, (this.perOrg.get(owner.orgId) ?? 0) + 1);
      this.dispatch();
    });
  }

  /** Refuses a request's job past either bound (a background job is never refused). */
  private admit(owner: JobOwner): void {
    if (owner === 'background') return;
    const waiting = this.queue.filter((p) => p.owner !== 'background' && p.spareKey === undefined).length;
    if (waiting >= this.maxQueued) {
      throw new EngineBusyError(`The service has ${waiting} documents waiting to be processed; try again shortly.`,
        this.retryAfter((waiting + 1) / this.threads));
    }
    const own = this.perOrg.get(owner.orgId) ?? 0;
    if (own >= this.maxPerOrg) {
      throw new EngineBusyError(`Your organisation already has ${own} documents being processed on this instance; try again when one is done.`,
        this.retryAfter(1));
    }
  }

  private retryAfter(jobs: number): number {
    return Math.min(60, Math.max(1, Math.ceil((jobs * this.averageJobMs) / 1000)));
  }

  /** Hands waiting jobs to idle workers, starting workers up to the pool's size. */
  private dispatch(): void {
    while (this.queue.length > 0) {
      const at = this.nextToRun();
      if (at < 0) return;
      const slot = this.slots.find((s) => !s.running) ?? (this.slots.length < this.threads ? this.startSlot() : null);
      if (!slot) return;
      const [pending] = this.queue.splice(at, 1) as [Pending];
      slot.running = pending;
      slot.startedAt = performance.now();
      if (pending.deadlineMs !== undefined) {
        const deadlineMs = pending.deadlineMs;
        slot.deadline = setTimeout(() => this.endSlot(slot, new EngineJobTimeoutError(deadlineMs)), deadlineMs);
      }
      // While a job runs its worker keeps the process alive; idle, it does not.
      slot.worker.ref();
      slot.worker.postMessage(pending.job, pending.transfer);
    }
  }

  /**
   * Which waiting job runs next: the first one a request waits on; a spare one (see
   * checksWhenIdle) only when none such waits and a worker would be left over for requests (or
   * the pool is one thread). -1: none may run now.
   */
  private nextToRun(): number {
    const first = this.queue.findIndex((p) => p.spareKey === undefined);
    if (first >= 0) return first;
    const idle = this.slots.filter((s) => !s.running).length + (this.threads - this.slots.length);
    return this.threads === 1 ? (idle > 0 ? 0 : -1) : idle >= 2 ? 0 : -1;
  }

  /**
   * Takes a worker out of the pool: one that died (out of memory, say), or one holding a job past
   * its deadline. The job it held fails with `error` at once and the thread is terminated (its
   * 'exit' then finds the slot gone); the next job starts a new one, warmed again when asked.
   */
  private endSlot(slot: Slot, error: unknown): void {
    const at = this.slots.indexOf(slot);
    if (at < 0) return;
    this.slots.splice(at, 1);
    this.warmed = null;
    this.finished(slot)?.reject(error);
    void stop(slot);
    this.dispatch();
  }

  private finished(slot: Slot): Pending | null {
    const pending = slot.running;
    slot.running = null;
    if (slot.deadline) clearTimeout(slot.deadline);
    slot.deadline = null;
    slot.worker.unref();
    if (pending && pending.owner !== 'background') {
      const left = (this.perOrg.get(pending.owner.orgId) ?? 1) - 1;
      if (left > 0) this.perOrg.set(pending.owner.orgId, left);
      else this.perOrg.delete(pending.owner.orgId);
    }
    return pending;
  }

  private startSlot(): Slot {
    // Node 20 does not pass the main thread's loader hooks to a worker: the worker registers tsx's
    // itself, then imports the TypeScript entry.
    // The stop gate goes in before the engine is imported: no module of the thread holds an ungated zlib function.
    const entry = new URL('./engine-thread-worker.ts', import.meta.url).href;
    const gate = new URL('./thread-stop-gate.ts', import.meta.url).href;
    const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(gate)}); })`
      + `.then(({ gateThisThread }) => gateThisThread()).then(() => import(${JSON.stringify(entry)}));`;
    const stopGate = new ThreadStopGate();
    const worker = new Worker(boot, { eval: true, workerData: { stopGate: stopGate.shared } });
    const slot: Slot = { worker, stopGate, running: null, startedAt: 0, deadline: null };
    this.workersStarted++;
    worker.on('message', (answer: EngineJobAnswer) => {
      const receivedAt = epochNow();
      const ranMs = performance.now() - slot.startedAt;
      const pending = this.finished(slot);
      if (pending && pending.job.kind !== 'warm') this.averageJobMs = 0.8 * this.averageJobMs + 0.2 * ranMs;
      pending?.resolve(answer, receivedAt);
      this.dispatch();
    });
    // A worker that dies (out of memory, say) fails the job it held; the next job starts a new one.
    const fail = (error: unknown) => this.endSlot(slot, error);
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`an engine thread stopped (exit code ${code})`)));
    worker.unref();
    this.slots.push(slot);
    return slot;
  }
}

/** Terminates a slot's worker once it is outside every zlib call (terminated inside one, Node 20 aborts the process). */
async function stop(slot: Slot): Promise<void> {
  await slot.stopGate.close();
  await slot.worker.terminate();
}

/** The engine's error for an edit refused on a worker, as it would have been thrown in process. */
function refusalError(refusal: EditRefusal, edits: readonly RedlineEdit[]): Error {
  if (refusal.kind === 'anchor') {
    return new EditAnchorError(refusal.problem, refusal.editIndex, refusal.blockId, refusal.message, refusal.candidates, refusal.blockText);
  }
  const edit = edits[refusal.editIndex];
  return new EditNotFoundError(refusal.editIndex, edit?.find ?? '', edit?.occurrence ?? 1);
}

/**
 * Bytes whose buffer is theirs alone, so it can be transferred: a Node Buffer read from a file or
 * socket is often a view into a larger pooled buffer, which must not be handed to another thread.
 */
function ownBuffer(bytes: Uint8Array): Uint8Array {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  return whole ? bytes : bytes.slice();
}
