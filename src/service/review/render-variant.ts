import { NO_TIMING, type ServerTiming } from '../http/server-timing';
import { requireRow, type Actor, type ReviewParts } from './review-parts';

/** The render variant of a draft as it stands (its content when the variant cannot be built), with the content hash it shows. */
export async function renderVariant(parts: ReviewParts, actor: Actor, uploadId: string, timing: ServerTiming = NO_TIMING): Promise<{ sha256: string; bytes: Uint8Array }> {
  const row = await timing.measure('load', () => requireRow(parts.db, actor.orgId, uploadId));
  const analysis = await timing.measure('render', () => parts.reads.analysisOf(row, timing));
  return { sha256: row.content_sha256!, bytes: new Uint8Array(Buffer.from(analysis.renderContentBase64 ?? analysis.contentBase64, 'base64')) };
}
