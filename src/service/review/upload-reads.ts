import type { OpenDocx } from '../../docx';
import { ProblemError } from '../http/problem';
import type { UploadRecord } from '../uploads/upload-rows';
import { requireRow, type Actor, type ReviewParts } from './review-parts';

/**
 * Reads an upload of the caller's organisation (any version, a playbook too) on its parsed
 * document: the draft kept open for its batches when there is one (and kept open after), so a
 * read next to a review parses nothing. `read` must not change the document.
 */
export async function readUpload<T>(parts: ReviewParts, actor: Actor, uploadId: string, read: (doc: OpenDocx, row: UploadRecord) => T): Promise<{ row: UploadRecord; value: T }> {
  const row = await requireRow(parts.db, actor.orgId, uploadId);
  if (!row.content_sha256) throw new ProblemError(409, 'conflict', 'This upload has no stored content.');
  const doc = parts.reads.openDraft(row.content_sha256, await parts.content.get(row.content_sha256));
  try {
    return { row, value: read(doc, row) };
  } finally {
    parts.reads.openDrafts.keep(row.content_sha256, doc);
  }
}

/** An upload of the caller's organisation with stored content (any version, a playbook too), unparsed: for work done off this thread. */
export async function storedRow(parts: ReviewParts, actor: Actor, uploadId: string): Promise<UploadRecord & { content_sha256: string }> {
  const row = await requireRow(parts.db, actor.orgId, uploadId);
  if (!row.content_sha256) throw new ProblemError(409, 'conflict', 'This upload has no stored content.');
  return { ...row, content_sha256: row.content_sha256 };
}
