import { z } from 'zod';
import { clientString } from './client-text';

export const UPLOAD_PURPOSES = ['source_doc', 'playbook'] as const;
export const UploadPurpose = z.enum(UPLOAD_PURPOSES);
export type UploadPurpose = z.infer<typeof UploadPurpose>;

export const VersionKind = z.enum(['original', 'working_draft']);
export type VersionKind = z.infer<typeof VersionKind>;

/** `deleted` only ever appears on the row answered by a series delete. */
export const DocumentStatus = z.enum(['ready', 'deleted']);
export type DocumentStatus = z.infer<typeof DocumentStatus>;

/** ISO 8601 UTC with milliseconds, e.g. 2026-11-22T10:00:00.000Z. */
export const Timestamp = z.string().describe('ISO 8601 UTC timestamp with milliseconds');

/**
 * The upload row: exactly the interface's 19 fields, no more, no less. Every route
 * that creates or mutates upload content answers this object itself, unwrapped.
 */
export const DocumentRow = z.strictObject({
  id: z.string(),
  artifactId: z.string().nullable(),
  orgId: z.string(),
  createdByUserId: z.string().nullable(),
  fileName: z.string(),
  mimeType: z.string(),
  sizeBytes: z.number().int(),
  purpose: UploadPurpose,
  clientReferenceId: z.string().nullable(),
  documentSeriesId: z.string(),
  documentVersion: z.number().int(),
  parentUploadId: z.string().nullable(),
  versionKind: VersionKind,
  storageKey: z.string().nullable(),
  contentSha256: z.string().nullable(),
  hasBinary: z.boolean(),
  status: DocumentStatus,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type DocumentRow = z.infer<typeof DocumentRow>;

export const DOCUMENT_ROW_FIELDS = Object.keys(DocumentRow.shape) as (keyof DocumentRow)[];

export const UploadList = z.object({
  items: z.array(DocumentRow),
  nextCursor: z.string().nullable(),
});
export type UploadList = z.infer<typeof UploadList>;

export const UploadListQuery = z.object({
  cursor: clientString().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  purpose: UploadPurpose.optional(),
});
export type UploadListQuery = z.infer<typeof UploadListQuery>;

/** A file name a person would give a contract: no path separators or control characters. */
export const FileName = clientString()
  .trim()
  .min(1, 'fileName must not be empty')
  .max(255, 'fileName must be at most 255 characters')
  // eslint-disable-next-line no-control-regex
  .refine((s) => !/[\u0000-\u001f\u007f/\\]/.test(s), 'fileName must not contain slashes or control characters');

export const RenameUploadBody = z.strictObject({ fileName: FileName });
export type RenameUploadBody = z.infer<typeof RenameUploadBody>;

export const DOCX_MIME_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
