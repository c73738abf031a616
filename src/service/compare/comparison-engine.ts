import { DocxError, type CompareOptions } from '../../docx';
import { docxProblem } from '../uploads/uploads-service';
import { ProblemError } from '../http/problem';
import type { ContentStore } from '../store/content-store';
import type { UploadRecord } from '../uploads/upload-rows';
import type { EngineThreads, JobOwner, TimedCompareResult } from '../engine/engine-threads';

/** Word's date form for tracked changes (no milliseconds). */
export function wordDate(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * Compares two stored uploads with the engine, on an engine thread. Both were validated
 * when they were uploaded, so an engine refusal here is about the pair (a part it cannot read,
 * a size past the limits): it answers 413 or 422 naming the uploads, and nothing has been
 * written. `draft`: the redline becomes a working draft (its bytes come back ingested). `owner`:
 * the organisation asking (its share of the engine threads is bounded), or 'background'.
 */
export async function compareUploads(
  content: Pick<ContentStore, 'get'>,
  thread: EngineThreads,
  older: UploadRecord,
  newer: UploadRecord,
  options: Omit<CompareOptions, 'open' | 'date'>,
  draft: boolean,
  owner: JobOwner,
): Promise<TimedCompareResult & { readMs: number }> {
  if (!older.content_sha256 || !newer.content_sha256) throw new ProblemError(409, 'conflict', 'Both uploads must have stored content to be compared.');
  const reading = performance.now();
  const [olderBytes, newerBytes] = await Promise.all([content.get(older.content_sha256), content.get(newer.content_sha256)]);
  const readMs = performance.now() - reading;
  try {
    // Every change is dated with the newer version's upload time.
    return { ...await thread.compare(olderBytes, newerBytes, { ...options, date: wordDate(newer.created_at) }, draft, owner), readMs };
  } catch (error) {
    if (!(error instanceof DocxError)) throw error;
    const which = `${older.file_name} v${older.document_version} and ${newer.file_name} v${newer.document_version}`;
    if (error.code === 'too_large') {
      // A work limit passed by the redline itself (DOCX_MAX_PARAGRAPHS, DOCX_MAX_TEXT_BYTES) is named as an upload's is.
      throw new ProblemError(413, 'payload_too_large', `${which} are too large to compare, or their redline would be: ${error.message}`, docxProblem(error).extras);
    }
    throw new ProblemError(422, 'invalid_docx', `${which} cannot be compared: ${error.message}`);
  }
}
