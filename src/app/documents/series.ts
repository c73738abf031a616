import type { DocumentRow } from '../../contract/document';
import type { DraftProgress } from '../../contract/draft-progress';

/** One document series (a matter) as the documents page lists it. */
export interface Series {
  id: string;
  /** The name a lawyer knows the matter by: the newest version's file name. */
  name: string;
  /** Newest version first. */
  rows: DocumentRow[];
  /** The newest working draft: what "Review" opens. */
  draft: DocumentRow | null;
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
    const draft = list.find((r) => r.versionKind === 'working_draft') ?? null;
    const draftProgress = draft ? (progressOf.get(draft.id) ?? null) : null;
    let lastActivityAt = list.reduce((max, r) => (r.updatedAt > max ? r.updatedAt : max), '');
    const decidedAt = draftProgress?.lastDecision?.at;
    if (decidedAt && decidedAt > lastActivityAt) lastActivityAt = decidedAt;
    return { id, name: list[0]!.fileName, rows: list, draft, progress: draftProgress, lastActivityAt };
  });
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
