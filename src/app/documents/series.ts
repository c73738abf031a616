import { parseComparisonArtifactId } from '../../contract/compare';
import type { DocumentRow } from '../../contract/document';
import type { DraftProgress } from '../../contract/draft-progress';

/** One document series (a matter) as the documents page lists it. */
export interface Series {
  id: string;
  /**
   * The name a lawyer knows the matter by: the first version's file name. A new version keeps
   * it (its own file name shows beside it in the versions); renaming the first version (what
   * "Rename series" does) renames the series.
   */
  name: string;
  /** The row whose name is the series' name (the first version): what "Rename series" renames. */
  nameRow: DocumentRow;
  /** Newest version first. */
  rows: DocumentRow[];
  /**
   * The review of the latest version: the newest review draft (see `reviewedVersion`) made from
   * `latestVersion`, what "Review" opens. Null when there is none, a review draft of an older
   * version included: "Start review" then drafts from `latestVersion`, since reviewing the
   * matter means reviewing the version that came back last.
   */
  draft: DocumentRow | null;
  /**
   * The newest uploaded version (never a working draft nor a comparison's redline): what
   * "Upload new version" adds to, as the version the counterparty was sent and the one the new
   * version's untracked check compares it with; what "Start review" drafts from.
   */
  latestVersion: DocumentRow;
  /** A review draft of an older version exists (so "no review of the latest version yet" says more than "no draft"). */
  hasOlderReview: boolean;
  progress: DraftProgress | null;
  /**
   * The newest comparison of `latestVersion` with an older version (a `compare:` redline made
   * from it), with its progress: the review in progress when there is no `draft` (issue 34.2).
   */
  comparison: DocumentRow | null;
  comparisonProgress: DraftProgress | null;
  /** The newest of: any version's update, the draft's last decision. */
  lastActivityAt: string;
}

export type SeriesSort = 'activity' | 'name';

/** Groups the organisation's rows by series and joins each series' draft progress (and its comparison's). */
export function groupBySeries(rows: readonly DocumentRow[], progress: readonly DraftProgress[] = [], comparisons: readonly DraftProgress[] = []): Series[] {
  const bySeries = new Map<string, DocumentRow[]>();
  for (const row of rows) {
    if (row.status === 'deleted') continue;
    const list = bySeries.get(row.documentSeriesId) ?? [];
    list.push(row);
    bySeries.set(row.documentSeriesId, list);
  }
  const progressOf = new Map([...progress, ...comparisons].map((p) => [p.documentId, p]));
  return [...bySeries.entries()].map(([id, list]) => {
    list.sort((a, b) => b.documentVersion - a.documentVersion);
    const nameRow = list[list.length - 1]!;
    // A series starts with an upload, so it has a version; the first row stands in only for rows the service never makes.
    const latestVersion = list.find((r) => r.versionKind === 'original') ?? nameRow;
    const byId = new Map(list.map((r) => [r.id, r]));
    const reviews = list.filter((r) => reviewedVersion(r, byId) !== null);
    const draft = reviews.find((r) => reviewedVersion(r, byId)?.id === latestVersion.id) ?? null;
    const draftProgress = draft ? (progressOf.get(draft.id) ?? null) : null;
    // Rows are newest first: the first comparison made from the latest version is its newest.
    const comparison = list.find((r) => isComparison(r) && r.parentUploadId === latestVersion.id) ?? null;
    const comparisonProgress = comparison ? (progressOf.get(comparison.id) ?? null) : null;
    let lastActivityAt = list.reduce((max, r) => (r.updatedAt > max ? r.updatedAt : max), '');
    for (const decidedAt of [draftProgress?.lastDecision?.at, comparisonProgress?.lastDecision?.at]) {
      if (decidedAt && decidedAt > lastActivityAt) lastActivityAt = decidedAt;
    }
    const hasOlderReview = draft === null && reviews.length > 0;
    return {
      id, name: nameRow.fileName, nameRow, rows: list, draft, latestVersion, hasOlderReview, progress: draftProgress, comparison, comparisonProgress, lastActivityAt,
    };
  });
}

/**
 * The uploaded version a review draft reviews, or null when `row` is no review draft. A review
 * draft is a working draft made from a version, or from a review draft of it (its chain of
 * `parentUploadId` leads to the version through working drafts only); a comparison's redline,
 * and anything drafted from one, reviews the difference between two versions, not a version.
 * An untracked-edit draft is a review: the version whole, with the edits made without tracking
 * shown as tracked changes beside the counterparty's own (what its warning invites). The
 * service's progress (`GET /documents/progress`) picks the same draft.
 */
export function reviewedVersion(row: DocumentRow, byId: ReadonlyMap<string, DocumentRow>): DocumentRow | null {
  let at: DocumentRow | undefined = row;
  // The parent is always an earlier row, so the walk ends; the bound only guards rows the service never makes.
  for (let steps = 0; at && steps <= byId.size; steps++) {
    if (at.versionKind === 'original') return at === row ? null : at;
    if (isComparison(at)) return null;
    at = at.parentUploadId ? byId.get(at.parentUploadId) : undefined;
  }
  return null;
}

/** A working draft made by comparing two versions (`compare:<older id>`): a redline to read, not the lawyer's review. */
export function isComparison(row: Pick<DocumentRow, 'artifactId'>): boolean {
  return parseComparisonArtifactId(row.artifactId)?.kind === 'compare';
}

/**
 * What a draft a comparison made is, for its row: "Comparison v3 with v2" (the version compared,
 * the draft's parent, and the older one it was compared with), or "Untracked edits in v3" (the
 * version whose untracked edits it shows as tracked changes). Null for any other row.
 */
export function comparisonLabel(row: DocumentRow, rows: readonly DocumentRow[]): string | null {
  const made = parseComparisonArtifactId(row.artifactId);
  if (!made) return null;
  const version = (id: string | null) => rows.find((r) => r.id === id)?.documentVersion;
  const newer = version(row.parentUploadId);
  if (made.kind === 'untracked') return `Untracked edits in ${newer ? `v${newer}` : 'a version'}`;
  const older = version(made.against);
  return `Comparison ${newer ? `v${newer}` : 'of a version'} with ${older ? `v${older}` : 'a version no longer listed'}`;
}

/**
 * The newest draft showing `version`'s untracked edits as tracked changes, if one was made: its
 * warning opens it rather than make another. A comparison of the version with the version it was
 * added to shows them too (as the comparison's changes), so it serves when no untracked-edit
 * draft was made.
 */
export function untrackedDraftOf(version: DocumentRow, rows: readonly DocumentRow[]): DocumentRow | null {
  const made = (r: DocumentRow) => (r.parentUploadId === version.id ? parseComparisonArtifactId(r.artifactId) : null);
  return rows.find((r) => made(r)?.kind === 'untracked')
    ?? rows.find((r) => { const m = made(r); return m?.kind === 'compare' && m.against === version.parentUploadId; })
    ?? null;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** The series whose name (any version's) contains every word of the search, in the chosen order. */
export function visibleSeries(all: readonly Series[], search: string, sort: SeriesSort): Series[] {
  const words = search.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  const matches = all.filter((s) => {
    if (words.length === 0) return true;
    const names = s.rows.map((r) => r.fileName.toLocaleLowerCase()).join('\n');
    return words.every((w) => names.includes(w));
  });
  return matches.sort((a, b) =>
    sort === 'name'
      ? collator.compare(a.name, b.name) || (a.lastActivityAt < b.lastActivityAt ? 1 : -1)
      : a.lastActivityAt === b.lastActivityAt
        ? collator.compare(a.name, b.name)
        : a.lastActivityAt < b.lastActivityAt
          ? 1
          : -1,
  );
}
