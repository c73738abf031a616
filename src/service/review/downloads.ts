import { ProblemError } from '../http/problem';
import { requireRow, type Actor, type ReviewParts } from './review-parts';
import { engineProblem } from './review-problems';

/**
 * A download of the document: as it stands, or a clean copy (every open change accepted); with
 * its comments, or without any. Made on a fresh parse, so the draft kept open is not touched.
 */
export async function download(parts: ReviewParts, actor: Actor, uploadId: string, opts: { clean: boolean; removeComments: boolean }): Promise<{ fileName: string; bytes: Uint8Array }> {
  const row = await requireRow(parts.db, actor.orgId, uploadId);
  if (!row.content_sha256) throw new ProblemError(409, 'conflict', 'This upload has no stored content.');
  const bytes = await parts.content.get(row.content_sha256);
  const fileName = opts.clean ? row.file_name.replace(/(\.docx)?$/i, ' (clean).docx') : row.file_name;
  if (!opts.clean && !opts.removeComments) return { fileName, bytes };
  const doc = parts.reads.open(bytes);
  try {
    if (opts.clean) doc.apply({ accept: doc.changeIds(), reject: [] });
    if (opts.removeComments) doc.removeComments();
  } catch (error) {
    throw engineProblem(error);
  }
  return { fileName, bytes: await doc.toBytesAsync() };
}
