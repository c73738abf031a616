import type { UntrackedChange, UntrackedReport } from '../../contract/compare';
import { notFound, ProblemError } from '../http/problem';
import type { ContentStore } from '../store/content-store';
import type { Database } from '../store/database';
import { findUpload, type UploadRecord } from '../uploads/upload-rows';
import type { EngineThreads } from '../engine/engine-threads';
import { compareUploads } from './comparison-engine';
import type { ServerTiming } from '../http/server-timing';
import { ByteBudgetLru } from '../review/byte-budget-lru';
import { letWaitingWorkIn } from '../http/let-waiting-work-in';

/** What a client is told to wait while a check runs. */
export const UNTRACKED_RETRY_AFTER_SECONDS = 1;

/**
 * How long GET /untracked waits for a running check before answering 202, unless the client says
 * otherwise (`Prefer: wait=N`, RFC 7240, at most UNTRACKED_MAX_WAIT_SECONDS): a 300-page check
 * takes a second or two, so a client asking right after the upload is answered the moment the
 * check is stored instead of a Retry-After later.
 */
export const UNTRACKED_WAIT_SECONDS = 2;
export const UNTRACKED_MAX_WAIT_SECONDS = 10;

/** How often a waiting reader looks at a check another instance runs (its own it simply awaits). */
const WAIT_POLL_MS = 100;

/**
 * The bytes of versions an instance keeps for its checks (by content hash, least recently used
 * forgotten first): a 300-page contract is 0.2 MB, so this holds the versions of many series.
 */
const VERSION_BYTES_BUDGET = 32 * 1024 * 1024;

/** How many checks' phase timings an instance keeps for Server-Timing (the newest). */
const KEPT_TIMINGS = 64;

/**
 * How long a runner holds a check. A 300-page version is checked in a second or two; a check
 * still "running" after this lost its runner (the instance stopped), and the next reader takes it over.
 */
const LEASE_SECONDS = 30;

/**
 * The version an upload's untracked check compares it with: the upload it was added to
 * (POST /uploads/{id}/versions), i.e. the version the counterparty was sent. Only versions have
 * one; a first upload or a working draft has nothing to check.
 */
export function previousVersionId(row: UploadRecord): string | null {
  return row.version_kind === 'original' ? row.parent_upload_id : null;
}

export type UntrackedAnswer = { state: 'ready'; report: UntrackedReport } | { state: 'pending'; retryAfterSeconds: number };

interface CheckRecord {
  state: 'running' | 'done' | 'failed';
  against_upload_id: string;
  count: number | null;
  entries: number | null;
  changes: UntrackedChange[] | null;
  pending: { older: number; newer: number } | null;
  error: string | null;
  lease_expired: boolean;
}

/**
 * Where a check's time went, in ms: from the version's commit to its result stored. `schedule`:
 * the commit until the check began (the upload's answer written first); `claim`: taking its
 * lease; `rows`: reading both uploads' rows; `read`: both blobs; `queue`: waiting for the
 * engine thread; `engine`: the comparison itself (unzip, parse, both rejected views, the
 * diff); `reply`: the differences crossing back from the thread; `store`: writing the result.
 */
export interface CheckPhases {
  schedule: number;
  claim: number;
  rows: number;
  read: number;
  queue: number;
  engine: number;
  reply: number;
  store: number;
  total: number;
}

/**
 * The untracked-edit check of each new version: its rejected view compared with the rejected
 * view of the previous version, so every difference is an edit nobody tracked (or a tracked
 * change silently accepted or rejected). It starts as soon as the upload has been answered;
 * the result is stored (`untracked_checks`), so any instance can answer it and a check that was
 * never finished (a restart, another instance that stopped) is run again by the next reader.
 */
export class UntrackedChecks {
  /** The checks this instance is running, by upload id. */
  private readonly running = new Map<string, Promise<void>>();
  private readonly timings = new Map<string, CheckPhases>();
  /**
   * Version bytes by content hash: those the upload just wrote (handed over, not read back), and
   * those a check read, which serve again when the next version of the series is checked against it.
   */
  private readonly versionBytes = new ByteBudgetLru<Uint8Array>(VERSION_BYTES_BUDGET);
  /** Where a check reads both versions' bytes: kept ones first (a copy: an engine thread takes its inputs over). */
  private readonly bytes = {
    get: async (sha256: string): Promise<Uint8Array> => {
      const kept = this.versionBytes.get(sha256);
      if (kept) return kept.slice();
      const read = await this.content.get(sha256);
      this.versionBytes.set(sha256, read.slice(), read.byteLength);
      return read;
    },
  };

  constructor(
    private readonly db: Database,
    private readonly content: ContentStore,
    private readonly thread: EngineThreads,
    private readonly log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void },
  ) {}

  /** Loads the engine threads and compiles the engine ahead of the first check (a serving instance calls it on start). */
  warm(): Promise<void> {
    return this.thread.warm();
  }

  /**
   * Starts checking a version just committed, as soon as the request adding it has been answered.
   * `stored`: the bytes the upload just wrote for it (kept, so the check does not read them back).
   */
  startAfterAnswer(orgId: string, uploadId: string, againstId: string, stored?: { sha256: string; bytes: Uint8Array }): void {
    if (stored) {
      // Kept on their own (a view into a larger buffer would keep all of it alive); copied only then.
      const { bytes } = stored;
      const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
      this.versionBytes.set(stored.sha256, own, own.byteLength);
    }
    this.launch(orgId, uploadId, againstId, performance.now());
  }

  /**
   * The check's report, or pending. `waitMs`: how long to wait for a running check (this
   * instance's is awaited; another instance's is looked at every WAIT_POLL_MS) before answering
   * pending. `timing` gets how long it waited.
   */
  async report(orgId: string, uploadId: string, waitMs = 0, timing?: ServerTiming): Promise<UntrackedAnswer> {
    const row = await findUpload(this.db, orgId, uploadId);
    if (!row) throw notFound('This upload');
    const againstId = previousVersionId(row);
    if (!againstId) return { state: 'ready', report: { against: null, count: 0, entries: 0, changes: [], pending: null } };
    const started = performance.now();
    const deadline = started + waitMs;
    let launched = false;
    try {
      for (;;) {
        const [check] = await this.db.query<CheckRecord>(
          `SELECT state, against_upload_id, count, entries, changes, pending, error, coalesce(lease_until < now(), false) AS lease_expired
           FROM untracked_checks WHERE upload_id = $1`, [uploadId]);
        if (check?.state === 'done') {
          const count = check.count ?? 0;
          return { state: 'ready', report: { against: check.against_upload_id, count, entries: check.entries ?? count, changes: check.changes ?? [], pending: check.pending } };
        }
        if (check?.state === 'failed') {
          throw new ProblemError(422, 'invalid_docx', `This version could not be checked for untracked edits: ${check.error ?? 'the comparison failed'}.`);
        }
        // Never started here (added before this check existed, or its runner stopped): run it now,
        // once per request (a check that fails on a passing fault is retried by the next request).
        if ((!check || check.lease_expired) && !launched && !this.running.has(uploadId)) {
          this.launch(orgId, uploadId, againstId, null);
          launched = true;
        }
        const left = deadline - performance.now();
        if (left <= 0) return { state: 'pending', retryAfterSeconds: UNTRACKED_RETRY_AFTER_SECONDS };
        const local = this.running.get(uploadId);
        await settledOrAfter(local ?? null, local ? left : Math.min(left, WAIT_POLL_MS));
      }
    } finally {
      if (waitMs > 0) timing?.add('wait', performance.now() - started);
    }
  }

  /** Where the time of a check this instance ran went (the newest KEPT_TIMINGS checks), or null. */
  phasesOf(uploadId: string): CheckPhases | null {
    return this.timings.get(uploadId) ?? null;
  }

  /** Waits for the checks still running (before the database closes). */
  async settle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()]);
  }

  /** `committedAt`: when the version was committed (performance.now()), for a check started by its upload. */
  private launch(orgId: string, uploadId: string, againstId: string, committedAt: number | null): void {
    if (this.running.has(uploadId)) return;
    const work = (async () => {
      // After the answer in hand has been written to its socket.
      if (committedAt !== null) await letWaitingWorkIn();
      const began = performance.now();
      if (await this.claim(uploadId, againstId)) {
        await this.run(orgId, uploadId, againstId, { schedule: committedAt === null ? 0 : began - committedAt, began, claimed: performance.now() });
      }
    })()
      .catch((error: unknown) => this.log.warn({ err: error, uploadId }, 'untracked check failed; the next reader runs it again'))
      .finally(() => this.running.delete(uploadId));
    this.running.set(uploadId, work);
  }

  /** Takes the check if nobody holds it: a new one, or one whose runner's lease ran out. */
  private async claim(uploadId: string, againstId: string): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO untracked_checks (upload_id, against_upload_id, state, lease_until, started_at)
       SELECT $1, $2, 'running', now() + make_interval(secs => $3), now() WHERE EXISTS (SELECT 1 FROM uploads WHERE id = $1)
       ON CONFLICT (upload_id) DO UPDATE SET lease_until = EXCLUDED.lease_until, started_at = now()
         WHERE untracked_checks.state = 'running' AND untracked_checks.lease_until < now()
       RETURNING upload_id`, [uploadId, againstId, LEASE_SECONDS]);
    return rows.length > 0;
  }

  private async run(orgId: string, uploadId: string, againstId: string, at: { schedule: number; began: number; claimed: number }): Promise<void> {
    const [version, previous] = await Promise.all([findUpload(this.db, orgId, uploadId), findUpload(this.db, orgId, againstId)]);
    // The series was deleted meanwhile: its check went with it.
    if (!version || !previous) return;
    const rowsRead = performance.now();
    try {
      // Only the differences are stored: the engine does not write the redline out.
      const { differences, entries, pending, timing, readMs } = await compareUploads(this.bytes, this.thread, previous, version, { view: 'rejected', listOnly: true }, false, 'background');
      const changes: UntrackedChange[] = differences.map((d) => ({ kind: d.kind, text_preview: d.textPreview, story: d.story, paragraph: d.paragraph }));
      const storing = performance.now();
      await this.db.query(
        `UPDATE untracked_checks SET state = 'done', count = $2, changes = $3, entries = $4, pending = $5, error = NULL, lease_until = NULL, finished_at = now()
         WHERE upload_id = $1`, [uploadId, changes.length, JSON.stringify(changes), entries, JSON.stringify({ older: pending.older, newer: pending.newer })]);
      const stored = performance.now();
      this.keep(uploadId, {
        schedule: at.schedule, claim: at.claimed - at.began, rows: rowsRead - at.claimed, read: readMs,
        queue: timing.queueMs, engine: timing.engineMs, reply: timing.replyMs, store: stored - storing,
        total: at.schedule + (stored - at.began),
      }, timing.warm, changes.length);
    } catch (error) {
      if (!(error instanceof ProblemError)) {
        // A passing failure (storage down, an engine thread lost): the next reader retries at once.
        await this.db.query(`UPDATE untracked_checks SET lease_until = now() WHERE upload_id = $1 AND state = 'running'`, [uploadId]).catch(() => {});
        throw error;
      }
      // The pair cannot be compared: say so to every reader rather than trying forever.
      await this.db.query(
        `UPDATE untracked_checks SET state = 'failed', error = $2, lease_until = NULL, finished_at = now() WHERE upload_id = $1`,
        [uploadId, error.detail]);
    }
  }

  private keep(uploadId: string, phases: CheckPhases, warm: boolean, count: number): void {
    this.timings.set(uploadId, phases);
    if (this.timings.size > KEPT_TIMINGS) this.timings.delete(this.timings.keys().next().value!);
    const ms = Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, Math.round(v)]));
    this.log.info({ uploadId, count, warmThread: warm, ms }, 'untracked check stored');
  }
}

/** Resolves when `work` settles or after `ms`, whichever is first (the timer is cleared either way). */
async function settledOrAfter(work: Promise<void> | null, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([work ?? new Promise<void>(() => {}), new Promise<void>((resolve) => { timer = setTimeout(resolve, ms); })]);
  } finally {
    clearTimeout(timer);
  }
}
