import type { UntrackedChange, UntrackedReport } from '../../contract/compare';
import { notFound, ProblemError } from '../http/problem';
import type { ContentStore } from '../store/content-store';
import type { Database } from '../store/database';
import { findUpload, type UploadRecord } from '../uploads/upload-rows';
import type { CompareThread } from './compare-thread';
import { compareUploads } from './comparison-engine';

/** What a client is told to wait while a check runs. */
export const UNTRACKED_RETRY_AFTER_SECONDS = 1;

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
  changes: UntrackedChange[] | null;
  error: string | null;
  lease_expired: boolean;
}

/**
 * The untracked-edit check of each new version: its rejected view compared with the rejected
 * view of the previous version, so every difference is an edit nobody tracked (or a tracked
 * change silently accepted or rejected). It runs after the upload has been answered; the
 * result is stored (`untracked_checks`), so any instance can answer it and a check that was
 * never finished (a restart, another instance that stopped) is run again by the next reader.
 */
export class UntrackedChecks {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly db: Database,
    private readonly content: ContentStore,
    private readonly thread: CompareThread,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {}

  /** Loads the comparison thread ahead of the first check (a serving instance calls it on start). */
  warm(): void {
    this.thread.warm();
  }

  /** Starts checking a version just added, once the request adding it has been answered. */
  startAfterAnswer(orgId: string, uploadId: string, againstId: string): void {
    this.launch(orgId, uploadId, againstId, true);
  }

  async report(orgId: string, uploadId: string): Promise<UntrackedAnswer> {
    const row = await findUpload(this.db, orgId, uploadId);
    if (!row) throw notFound('This upload');
    const againstId = previousVersionId(row);
    if (!againstId) return { state: 'ready', report: { against: null, count: 0, changes: [] } };
    const [check] = await this.db.query<CheckRecord>(
      `SELECT state, against_upload_id, count, changes, error, coalesce(lease_until < now(), false) AS lease_expired
       FROM untracked_checks WHERE upload_id = $1`, [uploadId]);
    if (check?.state === 'done') {
      return { state: 'ready', report: { against: check.against_upload_id, count: check.count ?? 0, changes: check.changes ?? [] } };
    }
    if (check?.state === 'failed') {
      throw new ProblemError(422, 'invalid_docx', `This version could not be checked for untracked edits: ${check.error ?? 'the comparison failed'}.`);
    }
    // Never started here (added before this check existed, or its runner stopped): run it now.
    if (!check || check.lease_expired) this.launch(orgId, uploadId, againstId, false);
    return { state: 'pending', retryAfterSeconds: UNTRACKED_RETRY_AFTER_SECONDS };
  }

  /** Waits for the checks still running (before the database closes). */
  async settle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  private launch(orgId: string, uploadId: string, againstId: string, afterAnswer: boolean): void {
    const work = (async () => {
      // setImmediate runs after the answer in hand has been written to its socket.
      if (afterAnswer) await new Promise((resolve) => setImmediate(resolve));
      if (await this.claim(uploadId, againstId)) await this.run(orgId, uploadId, againstId);
    })()
      .catch((error: unknown) => this.log.warn({ err: error, uploadId }, 'untracked check failed; the next reader runs it again'))
      .finally(() => this.running.delete(work));
    this.running.add(work);
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

  private async run(orgId: string, uploadId: string, againstId: string): Promise<void> {
    const [version, previous] = await Promise.all([findUpload(this.db, orgId, uploadId), findUpload(this.db, orgId, againstId)]);
    // The series was deleted meanwhile: its check went with it.
    if (!version || !previous) return;
    try {
      const { differences } = await compareUploads(this.content, this.thread, previous, version, { view: 'rejected' }, false);
      const changes: UntrackedChange[] = differences.map((d) => ({ kind: d.kind, text_preview: d.textPreview, story: d.story, paragraph: d.paragraph }));
      await this.db.query(
        `UPDATE untracked_checks SET state = 'done', count = $2, changes = $3, error = NULL, lease_until = NULL, finished_at = now()
         WHERE upload_id = $1`, [uploadId, changes.length, JSON.stringify(changes)]);
    } catch (error) {
      if (!(error instanceof ProblemError)) {
        // A passing failure (storage down, the comparison thread lost): the next reader retries at once.
        await this.db.query(`UPDATE untracked_checks SET lease_until = now() WHERE upload_id = $1 AND state = 'running'`, [uploadId]).catch(() => {});
        throw error;
      }
      // The pair cannot be compared: say so to every reader rather than trying forever.
      await this.db.query(
        `UPDATE untracked_checks SET state = 'failed', error = $2, lease_until = NULL, finished_at = now() WHERE upload_id = $1`,
        [uploadId, error.detail]);
    }
  }
}
