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
  /** The newest working draft a comparison did not make: what "Review" opens. */
  draft: DocumentRow | null;
  /**
   * The newest uploaded version (never a working draft nor a comparison's redline): what
   * "Upload new version" adds to, as the version the counterparty was sent and the one the new
   * version's untracked check compares it with.
   */
  latestVersion: DocumentRow;
  progress: DraftProgress | null;
  /** The newest of: any version's update, the draft's last decision. */
  lastActivityAt: string;
}

export type SeriesSort = 'activity' | 'name';

/** Groups the organisation's rows by series and joins each series' draft progress. */
export function groupBySeries(rows: readonly DocumentRow[], progress: readonly DraftProgress[] = []): Series[] {
  const bySeries = new Map<string, DocumentRow[]>();
  for (const row of rows) {
    if (row.status === 'deleted') continue;
    const list = bySeries.get(row.documentSeriesId) ?? [];
    list.push(row);
    bySeries.set(row.documentSeriesId, list);
  }
  const progressOf = new Map(progress.map((p) => [p.documentId, p]));
  return [...bySeries.entries()].map(([id, list]) => {
    list.sort((a, b) => b.documentVersion - a.documentVersion);
    const draft = list.find((r) => r.versionKind === 'working_draft' && !isComparison(r)) ?? null;
    const draftProgress = draft ? (progressOf.get(draft.id) ?? null) : null;
    let lastActivityAt = list.reduce((max, r) => (r.updatedAt > max ? r.updatedAt : max), '');
    const decidedAt = draftProgress?.lastDecision?.at;
    if (decidedAt && decidedAt > lastActivityAt) lastActivityAt = decidedAt;
    const nameRow = list[list.length - 1]!;
    // A series starts with an upload, so it has a version; the first row stands in only for rows the service never makes.
    const latestVersion = list.find((r) => r.versionKind === 'original') ?? nameRow;
    return { id, name: nameRow.fileName, nameRow, rows: list, draft, latestVersion, progress: draftProgress, lastActivityAt };
  });
}

/** A working draft made by comparing two versions (`compare:<older id>`): a redline to read, not the lawyer's review. */
export function isComparison(row: Pick<DocumentRow, 'artifactId'>): boolean {
  return row.artifactId?.startsWith('compare:') ?? false;
}

/** "Comparison v3 with v2": the version compared (the draft's parent) and the older one it was compared with. */
export function comparisonLabel(row: DocumentRow, rows: readonly DocumentRow[]): string | null {
  if (!isComparison(row)) return null;
  const version = (id: string | null) => rows.find((r) => r.id === id)?.documentVersion;
  const newer = version(row.parentUploadId);
  const older = version(row.artifactId!.slice('compare:'.length));
  return `Comparison ${newer ? `v${newer}` : 'of a version'} with ${older ? `v${older}` : 'a version no longer listed'}`;
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
