import type { DraftProgress, SeriesUntrackedCheck } from '../../contract/draft-progress';
import { countEntries } from '../../contract/entries';
import type { TrackCounts, TrackState } from '../../contract/track';
import type { Database } from '../store/database';

/** A draft's row as the progress reads it: its series, content, last log entry and last decision. */
export interface ProgressRecord {
  id: string;
  document_series_id: string;
  content_sha256: string | null;
  last_seq: number;
  decided_at: Date | null;
  decision_kind: 'decide' | 'undo' | null;
  decided_by: string | null;
  decided_by_name: string | null;
}

/** Counts a draft's entries when its stored track is missing or stale; the track it builds is stored for next time. */
export type CountDraft = (documentId: string) => Promise<TrackCounts | null>;

/** A draft's stored track projection: where in the log and on which content it was made, and its counts. */
export interface StoredCounts {
  logSeq: number;
  contentSha256: string | null;
  counts: TrackCounts | null;
}

/** Reads the stored projections of some drafts (those without one are left out); throws when the store cannot be read. */
export type ReadProjections = (documentIds: string[]) => Promise<Map<string, StoredCounts>>;

/**
 * The stored projections' counts, read from the database: entries, as the review counts its
 * progress (contract/entries.ts), from each item's id, state and group (not the whole track).
 */
export function projectionReader(db: Database): ReadProjections {
  return async (ids) => {
    const rows = await db.query<{ upload_id: string; log_seq: number; content_sha256: string | null; items: { id: string; state: TrackState; group: string | null }[] | null }>(
      `SELECT upload_id, log_seq, content_sha256,
              (SELECT jsonb_agg(jsonb_build_object('id', i.value->'id', 'state', i.value->'state', 'group', i.value->'group') ORDER BY i.pos)
               FROM track_projection_items i WHERE i.upload_id = p.upload_id AND i.list = 'items') AS items
       FROM track_projection p WHERE upload_id = ANY($1::text[])`, [ids]);
    return new Map(rows.map((r) => [r.upload_id, {
      logSeq: r.log_seq, contentSha256: r.content_sha256,
      counts: countEntries((r.items ?? []).map((i) => ({ id: i.id, state: i.state, ...(i.group ? { group: i.group } : {}) }))),
    }]));
  };
}

/**
 * Where the review of each series' latest version stands: its newest review draft (a working
 * draft made from that version, directly or through other review drafts; never a comparison's
 * redline), in one query. A series whose latest version has no review yet has no entry, though
 * an older version's draft may exist: the documents page then offers to start one. The counts come from the
 * stored track projection when it is current (same log position, same content), so listing a
 * dozen matters does no XML work. A draft whose projection is missing or stale (never opened,
 * or saved since) is counted through the review (which stores the projection) while the
 * time budget lasts; the rest answer `counts: null` and are counted on a later request.
 * Projections that cannot be read (the decisions store failing) leave their series' counts
 * null, as the review answers `track: null`: the rest of the answer stands.
 */
export async function listDraftProgress(
  db: Database,
  orgId: string,
  countDraft: CountDraft,
  readProjections: ReadProjections,
  budgetMs = 1500,
  /** The checks' finding count of a content, when already computed (never computes). */
  findingsOf: (contentSha256: string) => number | null = () => null,
): Promise<DraftProgress[]> {
  const rows = await db.query<ProgressRecord>(
    `WITH RECURSIVE live AS (
       SELECT id, document_series_id, document_version, parent_upload_id, version_kind, artifact_id, content_sha256
       FROM uploads WHERE org_id = $1 AND status = 'ready'
     ),
     latest_version AS (
       SELECT DISTINCT ON (document_series_id) id FROM live
       WHERE version_kind = 'original'
       ORDER BY document_series_id, document_version DESC
     ),
     -- Each review draft walked back, through the drafts it was made from, to the row it came
     -- from: a version ends the walk; a comparison's redline ends it too, and is no review (it
     -- reads the difference between two versions). src/app/documents/series.ts walks the same.
     reviews AS (
       SELECT id AS draft_id, parent_upload_id AS source FROM live
       WHERE version_kind = 'working_draft' AND (artifact_id IS NULL OR artifact_id NOT LIKE 'compare:%')
       UNION ALL
       SELECT r.draft_id, l.parent_upload_id FROM reviews r JOIN live l ON l.id = r.source
       WHERE l.version_kind = 'working_draft' AND (l.artifact_id IS NULL OR l.artifact_id NOT LIKE 'compare:%')
     ),
     latest AS (
       SELECT DISTINCT ON (d.document_series_id) d.id, d.document_series_id, d.content_sha256
       FROM reviews r JOIN latest_version v ON v.id = r.source JOIN live d ON d.id = r.draft_id
       ORDER BY d.document_series_id, d.document_version DESC
     )
     SELECT l.id, l.document_series_id, l.content_sha256,
            coalesce(ls.seq, 0)::int AS last_seq, lb.created_at AS decided_at, lb.kind AS decision_kind,
            lb.user_id AS decided_by, u.display_name AS decided_by_name
     FROM latest l
     -- The log's newest entry of any kind says whether the stored projection is current; the
     -- newest decision (or undo) is what "last decision" means (a comment or a note is not one).
     LEFT JOIN LATERAL (SELECT max(seq) AS seq FROM decision_batches d WHERE d.upload_id = l.id) ls ON true
     LEFT JOIN LATERAL (
       SELECT created_at, kind, user_id FROM decision_batches d WHERE d.upload_id = l.id AND d.kind IN ('decide', 'undo') ORDER BY seq DESC LIMIT 1
     ) lb ON true
     LEFT JOIN users u ON u.id = lb.user_id
     ORDER BY l.id`,
    [orgId],
  );
  const started = performance.now();
  const { stored, unreadable } = await readEach(readProjections, rows.map((r) => r.id));
  const items: DraftProgress[] = [];
  for (const r of rows) {
    const projection = stored.get(r.id);
    const current = projection?.counts != null && projection.logSeq === r.last_seq && projection.contentSha256 === r.content_sha256;
    let counts: TrackCounts | null = current ? normalise(projection.counts!) : null;
    // An unreadable projection is not counted through the review either: it would fail the same way.
    if (!counts && !unreadable.has(r.id) && performance.now() - started < budgetMs) counts = await countDraft(r.id).catch(() => null);
    items.push({
      documentId: r.id,
      documentSeriesId: r.document_series_id,
      counts,
      lastDecision: r.decided_at
        ? { at: r.decided_at.toISOString(), kind: r.decision_kind ?? 'decide', byUserId: r.decided_by, byName: r.decided_by_name }
        : null,
      findings: r.content_sha256 ? findingsOf(r.content_sha256) : null,
    });
  }
  return items;
}

/** All drafts' projections in one read; when that fails, each on its own, so one unreadable projection costs only its own series. */
async function readEach(read: ReadProjections, ids: string[]): Promise<{ stored: Map<string, StoredCounts>; unreadable: Set<string> }> {
  const unreadable = new Set<string>();
  if (ids.length === 0) return { stored: new Map(), unreadable };
  try {
    return { stored: await read(ids), unreadable };
  } catch {
    const stored = new Map<string, StoredCounts>();
    for (const id of ids) {
      try {
        const one = (await read([id])).get(id);
        if (one) stored.set(id, one);
      } catch {
        unreadable.add(id);
      }
    }
    return { stored, unreadable };
  }
}

function normalise(c: TrackCounts): TrackCounts {
  return { open: c.open, in: c.in, back: c.back, total: c.total ?? c.open + c.in + c.back };
}

/** Each series' newest version that has an untracked-edit check, with the check's state and count. */
export async function listUntrackedChecks(db: Database, orgId: string): Promise<SeriesUntrackedCheck[]> {
  const rows = await db.query<{ document_series_id: string; id: string; state: SeriesUntrackedCheck['state']; count: number | null }>(
    `SELECT DISTINCT ON (u.document_series_id) u.document_series_id, u.id, c.state, c.count
     FROM uploads u JOIN untracked_checks c ON c.upload_id = u.id
     WHERE u.org_id = $1 AND u.status = 'ready'
     ORDER BY u.document_series_id, u.document_version DESC`,
    [orgId],
  );
  return rows.map((r) => ({ documentSeriesId: r.document_series_id, uploadId: r.id, state: r.state, count: r.state === 'done' ? r.count : null }));
}
