import type { DocumentRow, UploadPurpose, VersionKind } from '../../contract/document';
import type { Queryable } from '../store/database';

/** The uploads table as the interface's Document row. */
export interface UploadRecord {
  id: string;
  artifact_id: string | null;
  org_id: string;
  created_by_user_id: string | null;
  file_name: string;
  mime_type: string;
  size_bytes: number;
  purpose: UploadPurpose;
  client_reference_id: string | null;
  document_series_id: string;
  document_version: number;
  parent_upload_id: string | null;
  version_kind: VersionKind;
  storage_key: string | null;
  content_sha256: string | null;
  has_binary: boolean;
  status: 'ready' | 'deleted';
  created_at: Date;
  updated_at: Date;
}

export const UPLOAD_COLUMNS = `id, artifact_id, org_id, created_by_user_id, file_name, mime_type, size_bytes, purpose,
  client_reference_id, document_series_id, document_version, parent_upload_id, version_kind, storage_key,
  content_sha256, has_binary, status, created_at, updated_at`;

export function toDocumentRow(r: UploadRecord): DocumentRow {
  return {
    id: r.id,
    artifactId: r.artifact_id,
    orgId: r.org_id,
    createdByUserId: r.created_by_user_id,
    fileName: r.file_name,
    mimeType: r.mime_type,
    sizeBytes: r.size_bytes,
    purpose: r.purpose,
    clientReferenceId: r.client_reference_id,
    documentSeriesId: r.document_series_id,
    documentVersion: r.document_version,
    parentUploadId: r.parent_upload_id,
    versionKind: r.version_kind,
    storageKey: r.storage_key,
    contentSha256: r.content_sha256,
    hasBinary: r.has_binary,
    status: r.status,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

/** One upload of an organisation; another organisation's id reads as absent (never 403). */
export async function findUpload(db: Queryable, orgId: string, id: string, lock = false): Promise<UploadRecord | null> {
  if (!isUuid(id)) return null;
  const rows = await db.query<UploadRecord>(
    `SELECT ${UPLOAD_COLUMNS} FROM uploads WHERE id = $1 AND org_id = $2${lock ? ' FOR UPDATE' : ''}`, [id, orgId]);
  return rows[0] ?? null;
}

export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

export interface NewUpload {
  id: string;
  orgId: string;
  userId: string | null;
  fileName: string;
  purpose: UploadPurpose;
  clientReferenceId: string | null;
  seriesId: string;
  version: number;
  parentId: string | null;
  versionKind: VersionKind;
  sha256: string;
  storageKey: string;
  sizeBytes: number;
  mimeType: string;
  /** What made this row, when it was made from others (e.g. `compare:<id>`); null for uploads. */
  artifactId?: string | null;
}

export async function insertUpload(db: Queryable, u: NewUpload): Promise<UploadRecord> {
  const rows = await db.query<UploadRecord>(
    `INSERT INTO uploads (id, artifact_id, org_id, created_by_user_id, file_name, mime_type, size_bytes, purpose,
       client_reference_id, document_series_id, document_version, parent_upload_id, version_kind, storage_key,
       content_sha256, has_binary, status, created_at, updated_at)
     VALUES ($1, $15, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, true, 'ready', now(), now())
     RETURNING ${UPLOAD_COLUMNS}`,
    [u.id, u.orgId, u.userId, u.fileName, u.mimeType, u.sizeBytes, u.purpose, u.clientReferenceId, u.seriesId,
      u.version, u.parentId, u.versionKind, u.storageKey, u.sha256, u.artifactId ?? null],
  );
  return rows[0]!;
}
