import type { DraftProgress } from '../../contract/draft-progress';
import type { Database } from '../store/database';
import type { CountDraft, ProgressRecord, ReadProjections, StoredCounts } from '../review/draft-progress';

/**
 * Where the review of each series' comparison stands (issue 34.2): the newest redline a compare
 * made of the series' latest uploaded version (`compare:` drafts whose parent is that version),
 * with its counts in entries and its last decision, for the documents page to show as the
 * review in progress when the version has no review draft of its own. Counts come from the
 * stored track projection when it is current (a comparison opens in review as soon as it is
 * made, which stores it); else from `countDraft` while `budgetMs` lasts, else null.
 */
export async function listComparisonProgress(
  db: Database,
  orgId: string,
  countDraft: CountDraft,
  readStored: ReadProjections,
  budgetMs = 500,
): Promise<DraftProgress[]> {
  const rows = await db.query<ProgressRecord>(
    `WITH live AS (
       SELECT id, document_series_id, document_version, parent_upload_id, version_kind, artifact_id, content_sha256
       FROM uploads WHERE org_id = $1 AND status = 'ready'
     ),
     latest_version AS (
       SELECT DISTINCT ON (document_series_id) id FROM live WHERE version_kind = 'original'
       ORDER BY document_series_id, document_version DESC
     ),
     latest AS (
       SELECT DISTINCT ON (c.document_series_id) c.id, c.document_series_id, c.content_sha256
       FROM live c JOIN latest_version v ON v.id = c.parent_upload_id
       WHERE c.version_kind = 'working_draft' AND c.artifact_id LIKE 'compare:%'
       ORDER BY c.document_series_id, c.document_version DESC
     )
     SELECT l.id, l.document_series_id, l.content_sha256,
            coalesce(ls.seq, 0)::int AS last_seq, lb.created_at AS decided_at, lb.kind AS decision_kind,
            lb.user_id AS decided_by, u.display_name AS decided_by_name
     FROM latest l
     LEFT JOIN LATERAL (SELECT max(seq) AS seq FROM decision_batches d WHERE d.upload_id = l.id) ls ON true
     LEFT JOIN LATERAL (
       SELECT created_at, kind, user_id FROM decision_batches d WHERE d.upload_id = l.id AND d.kind IN ('decide', 'undo') ORDER BY seq DESC LIMIT 1
     ) lb ON true
     LEFT JOIN users u ON u.id = lb.user_id
     ORDER BY l.id`,
    [orgId],
  );
  if (rows.length === 0) return [];
  const started = performance.now();
  const stored = await readStored(rows.map((r) => r.id)).catch(() => new Map<string, StoredCounts>());
  const items: DraftProgress[] = [];
  for (const r of rows) {
    const projection = stored.get(r.id);
    const current = projection?.counts != null && projection.logSeq === r.last_seq && projection.contentSha256 === r.content_sha256;
    let counts = current ? projection.counts : null;
    if (!counts && performance.now() - started < budgetMs) counts = await countDraft(r.id).catch(() => null);
    items.push({
      documentId: r.id,
      documentSeriesId: r.document_series_id,
      counts,
      lastDecision: r.decided_at
        ? { at: r.decided_at.toISOString(), kind: r.decision_kind ?? 'decide', byUserId: r.decided_by, byName: r.decided_by_name }
        : null,
    });
  }
  return items;
}
