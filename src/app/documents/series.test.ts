import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DocumentRow } from '../../contract/document';
import type { DraftProgress } from '../../contract/draft-progress';
import { comparisonLabel, groupBySeries, isComparison, visibleSeries } from './series';

function row(series: string, version: number, kind: DocumentRow['versionKind'], fileName: string, updatedAt: string): DocumentRow {
  return {
    id: `${series}-${version}`, artifactId: null, orgId: 'o', createdByUserId: null, fileName, mimeType: 'x', sizeBytes: 1, purpose: 'source_doc',
    clientReferenceId: null, documentSeriesId: series, documentVersion: version, parentUploadId: null, versionKind: kind, storageKey: null,
    contentSha256: null, hasBinary: true, status: 'ready', createdAt: updatedAt, updatedAt,
  };
}

describe('documents page series', () => {
  const rows = [
    row('a', 1, 'original', 'Lease.docx', '2026-01-01T10:00:00.000Z'),
    row('a', 2, 'working_draft', 'Lease.docx', '2026-01-02T10:00:00.000Z'),
    row('a', 3, 'original', 'Lease v3.docx', '2026-01-03T10:00:00.000Z'),
    row('b', 1, 'original', 'Supply agreement.docx', '2026-01-04T10:00:00.000Z'),
    { ...row('c', 1, 'original', 'Gone.docx', '2026-01-05T10:00:00.000Z'), status: 'deleted' as const },
  ];
  const progress: DraftProgress[] = [
    { documentId: 'a-2', documentSeriesId: 'a', counts: { open: 1, in: 2, back: 0, total: 3 }, lastDecision: { at: '2026-01-09T00:00:00.000Z', kind: 'decide', byUserId: 'u', byName: 'Ann' } },
  ];

  it('names a series by its first version, finds its newest working draft and joins its progress', () => {
    const series = groupBySeries(rows, progress);
    expect(series.map((s) => s.id)).toEqual(['a', 'b']);
    const a = series[0]!;
    // A new version keeps the series' name (until the first version is renamed).
    expect(a.name).toBe('Lease.docx');
    expect(a.nameRow.id).toBe('a-1');
    expect(a.rows.map((r) => r.documentVersion)).toEqual([3, 2, 1]);
    expect(a.draft?.id).toBe('a-2');
    expect(a.progress?.counts?.in).toBe(2);
    // The last decision is newer than any upload, so it is the series' last activity.
    expect(a.lastActivityAt).toBe('2026-01-09T00:00:00.000Z');
    expect(series[1]!.draft).toBeNull();
  });

  it("never takes a comparison's redline for the review draft, and labels it with the versions it compared", () => {
    const compared = { ...row('a', 4, 'working_draft', 'Lease v3.docx', '2026-01-10T10:00:00.000Z'), artifactId: 'compare:a-1', parentUploadId: 'a-3' };
    const [a] = groupBySeries([...rows, compared], progress);
    expect(a!.draft?.id).toBe('a-2');
    expect(isComparison(compared)).toBe(true);
    expect(comparisonLabel(compared, a!.rows)).toBe('Comparison v3 with v1');
    expect(comparisonLabel(a!.draft!, a!.rows)).toBeNull();
  });

  it('adds a new version to the newest uploaded version, never to a working draft or a comparison made after it', () => {
    const compared = { ...row('a', 4, 'working_draft', 'Lease v3.docx', '2026-01-10T10:00:00.000Z'), artifactId: 'compare:a-1', parentUploadId: 'a-3' };
    const review = { ...row('a', 5, 'working_draft', 'Lease v3.docx', '2026-01-11T10:00:00.000Z'), parentUploadId: 'a-3' };
    const [a, b] = groupBySeries([...rows, compared, review], progress);
    expect(a!.rows[0]!.id).toBe('a-5');
    expect(a!.latestVersion.id).toBe('a-3');
    expect(b!.latestVersion.id).toBe('b-1');
  });

  it('sorts by last activity (newest first) or by name, and searches every version name', () => {
    const series = groupBySeries(rows, progress);
    expect(visibleSeries(series, '', 'activity').map((s) => s.id)).toEqual(['a', 'b']);
    expect(visibleSeries(series, '', 'name').map((s) => s.id)).toEqual(['a', 'b']);
    expect(visibleSeries(groupBySeries(rows), '', 'activity').map((s) => s.id)).toEqual(['b', 'a']);
    expect(visibleSeries(series, 'supply', 'activity').map((s) => s.id)).toEqual(['b']);
    expect(visibleSeries(series, 'LEASE v3', 'activity').map((s) => s.id)).toEqual(['a']);
    expect(visibleSeries(series, 'lease supply', 'activity')).toEqual([]);
  });

  it('keeps every matching series exactly once, in a total order, whatever the rows', () => {
    const arbRow = fc.record({ s: fc.constantFrom('a', 'b', 'c', 'd'), v: fc.integer({ min: 1, max: 5 }), name: fc.constantFrom('Alpha', 'beta', 'Beta 2', 'gamma'), day: fc.integer({ min: 1, max: 28 }) });
    fc.assert(
      fc.property(fc.array(arbRow, { maxLength: 20 }), fc.constantFrom<'activity' | 'name'>('activity', 'name'), (specs, sort) => {
        const seen = new Set<string>();
        const list = specs.filter((r) => !seen.has(`${r.s}-${r.v}`) && seen.add(`${r.s}-${r.v}`)).map((r) => row(r.s, r.v, 'original', `${r.name}.docx`, `2026-02-${String(r.day).padStart(2, '0')}T00:00:00.000Z`));
        const shown = visibleSeries(groupBySeries(list), '', sort);
        expect(shown.map((s) => s.id).sort()).toEqual([...new Set(list.map((r) => r.documentSeriesId))].sort());
        for (let i = 1; i < shown.length; i++) {
          const [a, b] = [shown[i - 1]!, shown[i]!];
          if (sort === 'activity') expect(a.lastActivityAt >= b.lastActivityAt).toBe(true);
          else expect(a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' })).toBeLessThanOrEqual(0);
        }
      }),
      { seed: 13, numRuns: 200 },
    );
  });
});
