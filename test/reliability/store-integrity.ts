import type { BlobStore } from '../../src/service/store/blobs/blob-store';
import { storageKeyFor } from '../../src/service/store/content-store';
import type { Queryable } from '../../src/service/store/database';

export interface IntegrityReport {
  uploads: number;
  batches: number;
  /** Every broken promise found, as a sentence; empty when the store is whole. */
  problems: string[];
}

/**
 * Reads the database and the blob store behind a service and lists what a fault could
 * have left broken: a row (upload or decision batch) naming bytes the blob store does
 * not hold, a row whose storage key disagrees with its content hash, or a decision
 * log whose chain of content hashes does not lead to the draft's current content
 * (a half-applied batch would show up as exactly that).
 */
export async function checkStoreIntegrity(db: Queryable, blobs: BlobStore): Promise<IntegrityReport> {
  const problems: string[] = [];
  const present = new Map<string, boolean>();
  const hasBlob = async (sha: string) => {
    if (!present.has(sha)) present.set(sha, (await blobs.get(storageKeyFor(sha))) !== null);
    return present.get(sha)!;
  };
  const uploads = await db.query<{ id: string; content_sha256: string | null; storage_key: string | null; has_binary: boolean; version_kind: string }>(
    'SELECT id, content_sha256, storage_key, has_binary, version_kind FROM uploads ORDER BY id');
  for (const u of uploads) {
    if (!u.content_sha256) {
      if (u.has_binary) problems.push(`upload ${u.id} says it has bytes but names no content`);
      continue;
    }
    if (u.storage_key !== storageKeyFor(u.content_sha256)) problems.push(`upload ${u.id}: storage key ${u.storage_key} does not match its hash`);
    if (!(await hasBlob(u.content_sha256))) problems.push(`upload ${u.id} points at blob ${u.content_sha256}, which is missing`);
  }
  const batches = await db.query<{ upload_id: string; seq: number; previous_sha256: string; next_sha256: string }>(
    'SELECT upload_id, seq, previous_sha256, next_sha256 FROM decision_batches ORDER BY upload_id, seq');
  const current = new Map(uploads.map((u) => [u.id, u.content_sha256]));
  const bySeries = new Map<string, typeof batches>();
  for (const b of batches) bySeries.set(b.upload_id, [...(bySeries.get(b.upload_id) ?? []), b]);
  for (const [uploadId, log] of bySeries) {
    log.forEach((b, i) => {
      if (b.seq !== i + 1) problems.push(`draft ${uploadId}: decision log has seq ${b.seq} at position ${i + 1}`);
      const previous = log[i - 1];
      if (previous && previous.next_sha256 !== b.previous_sha256) {
        problems.push(`draft ${uploadId}: batch ${b.seq} starts from ${b.previous_sha256.slice(0, 12)} but batch ${previous.seq} ended at ${previous.next_sha256.slice(0, 12)}`);
      }
    });
    const last = log[log.length - 1]!;
    // Saving a draft (PUT .../draft) moves the content without a log entry; the fault
    // scenarios never save drafts, so here the log's end must be the content.
    if (current.get(uploadId) !== last.next_sha256) problems.push(`draft ${uploadId}: content ${current.get(uploadId)?.slice(0, 12)} is not where its decision log ends (${last.next_sha256.slice(0, 12)})`);
    for (const b of log) {
      for (const sha of [b.previous_sha256, b.next_sha256]) {
        if (!(await hasBlob(sha))) problems.push(`draft ${uploadId}: batch ${b.seq} names blob ${sha}, which is missing`);
      }
    }
  }
  return { uploads: uploads.length, batches: batches.length, problems };
}
