import type { DocumentRow, UploadListQuery, UploadPurpose } from '../../contract/document';
import { DOCX_MIME_TYPE } from '../../contract/document';
import { DocxError, type WorkLimit, type WorkLimits } from '../../docx';
import type { EngineThreads } from '../engine/engine-threads';
import { newId } from '../auth/secrets';
import { ProblemError, notFound } from '../http/problem';
import type { ContentStore, StoredContent } from '../store/content-store';
import type { Database, Queryable } from '../store/database';
import { findUpload, insertUpload, toDocumentRow, UPLOAD_COLUMNS, type UploadRecord } from './upload-rows';

/** The setting behind each of the engine's work limits (README, Configuration). */
const WORK_LIMIT_SETTINGS: Record<WorkLimit, string> = {
  story_bytes: 'DOCX_MAX_TEXT_BYTES',
  paragraphs: 'DOCX_MAX_PARAGRAPHS',
};

/** The engine's refusals as the HTTP problems DESIGN.md names. */
export function docxProblem(error: DocxError): ProblemError {
  switch (error.code) {
    case 'not_docx':
      return new ProblemError(415, 'unsupported_media_type', `This file is not a Word document (.docx): ${error.message}`);
    case 'too_large': {
      const setting = error.limit ? WORK_LIMIT_SETTINGS[error.limit] : undefined;
      return setting
        ? new ProblemError(413, 'payload_too_large', `This .docx is more work than the service takes on: ${error.message} (${setting})`, { limit: setting })
        : new ProblemError(413, 'payload_too_large', error.message);
    }
    default:
      return new ProblemError(422, 'invalid_docx', `This .docx cannot be processed: ${error.message}`);
  }
}

/**
 * Validates and normalises incoming bytes with the engine's safe reader and ingest step, on an
 * engine thread (a small upload may be seconds of parsing), within the work limits. `bytes` are
 * handed over to the thread: the caller must not use them afterwards.
 */
export async function ingest(threads: EngineThreads, bytes: Uint8Array, work: WorkLimits, orgId: string): Promise<Uint8Array> {
  if (bytes.byteLength === 0) throw new ProblemError(400, 'invalid_request', 'The file is empty.');
  try {
    return await threads.ingest(bytes, work, { orgId });
  } catch (error) {
    if (error instanceof DocxError) throw docxProblem(error);
    throw error;
  }
}

interface Cursor {
  t: string;
  id: string;
}

/**
 * A row's position: its creation time to the microsecond, as the database holds it. A JavaScript
 * Date keeps milliseconds only, and a cursor rounded down to them would skip every row created
 * later within the same millisecond as the page's last row.
 */
function encodeCursor(row: UploadRecord & { cursor_time: string }): string {
  return Buffer.from(JSON.stringify({ t: row.cursor_time, id: row.id } satisfies Cursor)).toString('base64url');
}

/**
 * The shapes encodeCursor writes: an ISO time in UTC to the microsecond (milliseconds in cursors
 * issued before microseconds were kept, still honoured), four-digit year, and a row id.
 */
const CURSOR_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.(\d{3}|\d{6})Z$/;
/** The database's own spelling of a creation time in that shape. */
const CURSOR_TIME_SQL = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const CURSOR_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Decodes a cursor to a position the database can compare against, or refuses it: a well-formed
 * JSON cursor whose date Date.parse accepts but Postgres cannot hold (`+275760-09-13...`), or
 * whose id is not a row id, must be a 400 like any other foreign cursor, not a failed query.
 */
function decodeCursor(raw: string): Cursor {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    value = null;
  }
  const { t, id } = (value ?? {}) as Partial<Record<keyof Cursor, unknown>>;
  if (typeof t === 'string' && typeof id === 'string' && CURSOR_TIME.test(t) && CURSOR_ID.test(id)) {
    const time = new Date(t);
    // A real calendar time (not 2026-02-30): Date keeps its milliseconds and rolls invalid days over.
    if (!Number.isNaN(time.getTime()) && time.toISOString().slice(0, 23) === t.slice(0, 23)) return { t, id };
  }
  throw new ProblemError(400, 'invalid_cursor', 'The cursor is not one this service issued; list again from the first page.', { errors: [{ path: 'cursor', message: 'not a cursor of this list' }] });
}

export interface IncomingFile {
  fileName: string;
  bytes: Uint8Array;
}

/**
 * Uploads and their series: versions, working drafts, renames and series deletion.
 * Bytes are written (content-addressed) before the row that points at them is
 * committed, so no row ever points at a missing blob; a crash in between leaves an
 * unreferenced blob that the sweep removes.
 */
export class UploadsService {
  constructor(
    private readonly db: Database,
    private readonly content: ContentStore,
    private readonly threads: EngineThreads,
    private readonly work: WorkLimits,
  ) {}

  async create(orgId: string, userId: string | null, file: IncomingFile, purpose: UploadPurpose, clientReferenceId: string | null): Promise<DocumentRow> {
    const bytes = await ingest(this.threads, file.bytes, this.work, orgId);
    const stored = await this.content.put(bytes);
    const id = newId();
    const row = await insertUpload(this.db, {
      id, orgId, userId, fileName: file.fileName, purpose, clientReferenceId, seriesId: id, version: 1, parentId: null,
      versionKind: 'original', sha256: stored.sha256, storageKey: stored.storageKey, sizeBytes: stored.sizeBytes, mimeType: DOCX_MIME_TYPE,
    });
    return toDocumentRow(row);
  }

  async list(orgId: string, query: UploadListQuery): Promise<{ items: DocumentRow[]; nextCursor: string | null }> {
    const limit = query.limit ?? 50;
    const params: unknown[] = [orgId];
    let where = 'org_id = $1';
    if (query.purpose) {
      params.push(query.purpose);
      where += ` AND purpose = $${params.length}`;
    }
    if (query.cursor) {
      const cursor = decodeCursor(query.cursor);
      params.push(cursor.t, cursor.id);
      where += ` AND (created_at, id) < ($${params.length - 1}::timestamptz, $${params.length})`;
    }
    params.push(limit + 1);
    const rows = await this.db.query<UploadRecord & { cursor_time: string }>(
      `SELECT ${UPLOAD_COLUMNS}, ${CURSOR_TIME_SQL} AS cursor_time FROM uploads WHERE ${where}
       ORDER BY created_at DESC, id DESC LIMIT $${params.length}`, params);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { items: page.map(toDocumentRow), nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
  }

  async get(orgId: string, id: string): Promise<DocumentRow> {
    return toDocumentRow(await this.require(this.db, orgId, id));
  }

  async download(orgId: string, id: string): Promise<{ row: DocumentRow; bytes: Uint8Array }> {
    const row = await this.require(this.db, orgId, id);
    if (!row.content_sha256) throw new ProblemError(404, 'not_found', 'This upload has no stored content.');
    return { row: toDocumentRow(row), bytes: await this.content.get(row.content_sha256) };
  }

  async rename(orgId: string, id: string, fileName: string): Promise<DocumentRow> {
    const rows = await this.db.query<UploadRecord>(
      `UPDATE uploads SET file_name = $3, updated_at = now() WHERE id = $1 AND org_id = $2 RETURNING ${UPLOAD_COLUMNS}`,
      [id, orgId, fileName]);
    const row = rows[0];
    if (!row) throw notFound('This upload');
    return toDocumentRow(row);
  }

  /**
   * A new original version in the same series: documentVersion + 1, its parent the upload named,
   * or, when that is a working draft (a review draft, a comparison's redline), the series' latest
   * uploaded version. The parent is what the version's untracked check and "Compare with…"
   * compare it with: a working draft changes with every decision and a redline was never sent,
   * so a check stored at upload and the untracked draft made later would compare different texts,
   * while the version the counterparty was sent stays as it was.
   * Answers the new version's row, and the bytes just stored for it (its untracked check
   * compares them without reading them back).
   */
  async addVersion(orgId: string, userId: string, parentId: string, file: IncomingFile): Promise<{ document: DocumentRow; stored: { sha256: string; bytes: Uint8Array } }> {
    await this.require(this.db, orgId, parentId);
    const bytes = await ingest(this.threads, file.bytes, this.work, orgId);
    const stored = await this.content.put(bytes);
    const document = await this.db.transaction(async (tx) => {
      const named = await this.lockSeriesOf(tx, orgId, parentId);
      const parent = named.version_kind === 'working_draft' ? await latestUploadedVersion(tx, named) : named;
      const row = await insertUpload(tx, {
        id: newId(), orgId, userId, fileName: file.fileName, purpose: parent.purpose, clientReferenceId: parent.client_reference_id,
        seriesId: parent.document_series_id, version: await nextVersion(tx, parent.document_series_id), parentId: parent.id,
        versionKind: 'original', sha256: stored.sha256, storageKey: stored.storageKey, sizeBytes: stored.sizeBytes, mimeType: DOCX_MIME_TYPE,
      });
      return toDocumentRow(row);
    });
    return { document, stored: { sha256: stored.sha256, bytes } };
  }

  /** Every call creates a new working draft: a new row sharing the source's bytes. */
  async startWorkingDraft(orgId: string, userId: string, sourceId: string): Promise<DocumentRow> {
    return this.addWorkingDraft(orgId, userId, sourceId, null, null);
  }

  /**
   * A new working draft in the series of `sourceId` (next documentVersion, parent = the source):
   * with the source's bytes, or with `content` already stored (a comparison's redline), whose
   * origin `artifactId` names.
   */
  async addWorkingDraft(orgId: string, userId: string, sourceId: string, content: StoredContent | null, artifactId: string | null): Promise<DocumentRow> {
    return this.db.transaction(async (tx) => {
      const source = await this.lockSeriesOf(tx, orgId, sourceId);
      if (!source.content_sha256 || !source.storage_key) throw new ProblemError(409, 'conflict', 'This upload has no content to draft from.');
      const row = await insertUpload(tx, {
        id: newId(), orgId, userId, fileName: source.file_name, purpose: source.purpose, clientReferenceId: source.client_reference_id,
        seriesId: source.document_series_id, version: await nextVersion(tx, source.document_series_id), parentId: source.id,
        versionKind: 'working_draft', artifactId,
        sha256: content?.sha256 ?? source.content_sha256, storageKey: content?.storageKey ?? source.storage_key,
        sizeBytes: content?.sizeBytes ?? source.size_bytes, mimeType: source.mime_type,
      });
      return toDocumentRow(row);
    });
  }

  /**
   * Deletes every row of the series, answering the row named with status `deleted`.
   * Bytes stay until the blob sweep finds them unreferenced.
   */
  async deleteSeries(orgId: string, id: string): Promise<DocumentRow> {
    return this.db.transaction(async (tx) => {
      const target = await this.lockSeriesOf(tx, orgId, id);
      await tx.query('DELETE FROM uploads WHERE document_series_id = $1 AND org_id = $2', [target.document_series_id, orgId]);
      return toDocumentRow({ ...target, status: 'deleted', has_binary: false, storage_key: null, updated_at: new Date() });
    });
  }

  /** Replaces a working draft's bytes; new changes in them join the track as open items. */
  async saveDraft(orgId: string, id: string, incoming: Uint8Array): Promise<DocumentRow> {
    const existing = await this.require(this.db, orgId, id);
    if (existing.version_kind !== 'working_draft') {
      throw new ProblemError(409, 'not_working_draft', 'Only a working draft can be saved over; start a working draft from this version first.');
    }
    const bytes = await ingest(this.threads, incoming, this.work, orgId);
    const stored = await this.content.put(bytes);
    return this.db.transaction(async (tx) => {
      const row = await findUpload(tx, orgId, id, true);
      if (!row) throw notFound('This upload');
      const rows = await tx.query<UploadRecord>(
        `UPDATE uploads SET content_sha256 = $2, storage_key = $3, size_bytes = $4, has_binary = true, updated_at = now()
         WHERE id = $1 RETURNING ${UPLOAD_COLUMNS}`, [id, stored.sha256, stored.storageKey, stored.sizeBytes]);
      return toDocumentRow(rows[0]!);
    });
  }

  async require(db: Queryable, orgId: string, id: string): Promise<UploadRecord> {
    const row = await findUpload(db, orgId, id);
    if (!row) throw notFound('This upload');
    return row;
  }

  /** Locks the series (its first version's row) so version numbers are handed out one at a time. */
  private async lockSeriesOf(tx: Queryable, orgId: string, id: string): Promise<UploadRecord> {
    const row = await this.require(tx, orgId, id);
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`series:${row.document_series_id}`]);
    // Re-read under the lock: a concurrent series delete may have removed the row meanwhile.
    const locked = await findUpload(tx, orgId, id, true);
    if (!locked) throw notFound('This upload');
    return locked;
  }
}

/** The newest original of a working draft's series (under the series lock); the draft itself if the series has none. */
async function latestUploadedVersion(tx: Queryable, draft: UploadRecord): Promise<UploadRecord> {
  const rows = await tx.query<UploadRecord>(
    `SELECT ${UPLOAD_COLUMNS} FROM uploads WHERE document_series_id = $1 AND org_id = $2 AND version_kind = 'original' AND status = 'ready'
     ORDER BY document_version DESC LIMIT 1`,
    [draft.document_series_id, draft.org_id],
  );
  return rows[0] ?? draft;
}

async function nextVersion(tx: Queryable, seriesId: string): Promise<number> {
  const rows = await tx.query<{ v: number }>('SELECT coalesce(max(document_version), 0)::int + 1 AS v FROM uploads WHERE document_series_id = $1', [seriesId]);
  return rows[0]!.v;
}
