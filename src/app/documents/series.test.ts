import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DocumentRow } from '../../contract/document';
import type { DraftProgress } from '../../contract/draft-progress';
import { comparisonLabel, groupBySeries, isComparison, reviewedVersion, untrackedDraftOf, visibleSeries } from './series';

/** Row `<series>-<version>`; `parent`: the version number it was made from (or, for a version, added to). */
function row(series: string, version: number, kind: DocumentRow['versionKind'], fileName: string, updatedAt: string, parent?: number): DocumentRow {
  return {
    id: `${series}-${version}`, artifactId: null, orgId: 'o', createdByUserId: null, fileName, mimeType: 'x', sizeBytes: 1, purpose: 'source_doc',
    clientReferenceId: null, documentSeriesId: series, documentVersion: version, parentUploadId: parent ? `${series}-${parent}` : null, versionKind: kind, storageKey: null,
    contentSha256: null, hasBinary: true, status: 'ready', createdAt: updatedAt, updatedAt,
  };
}

describe('documents page series', () => {
  const rows = [
    row('a', 1, 'original', 'Lease.docx', '2026-01-01T10:00:00.000Z'),
    row('a', 2, 'original', 'Lease v2.docx', '2026-01-02T10:00:00.000Z', 1),
    row('a', 3, 'working_draft', 'Lease v2.docx', '2026-01-03T10:00:00.000Z', 2),
    row('b', 1, 'original', 'Supply agreement.docx', '2026-01-04T10:00:00.000Z'),
    { ...row('c', 1, 'original', 'Gone.docx', '2026-01-05T10:00:00.000Z'), status: 'deleted' as const },
  ];
  const progress: DraftProgress[] = [
    { documentId: 'a-3', documentSeriesId: 'a', counts: { open: 1, in: 2, back: 0, total: 3 }, lastDecision: { at: '2026-01-09T00:00:00.000Z', kind: 'decide', byUserId: 'u', byName: 'Ann' } },
  ];

  it('names a series by its first version, finds the review of its latest version and joins its progress', () => {
    const series = groupBySeries(rows, progress);
    expect(series.map((s) => s.id)).toEqual(['a', 'b']);
    const a = series[0]!;
    // A new version keeps the series' name (until the first version is renamed).
    expect(a.name).toBe('Lease.docx');
    expect(a.nameRow.id).toBe('a-1');
    expect(a.rows.map((r) => r.documentVersion)).toEqual([3, 2, 1]);
    expect(a.latestVersion.id).toBe('a-2');
    expect(a.draft?.id).toBe('a-3');
    expect(a.hasOlderReview).toBe(false);
    expect(a.progress?.counts?.in).toBe(2);
    // The last decision is newer than any upload, so it is the series' last activity.
    expect(a.lastActivityAt).toBe('2026-01-09T00:00:00.000Z');
    expect(series[1]!.draft).toBeNull();
    expect(series[1]!.hasOlderReview).toBe(false);
  });

  it("never takes a comparison's redline for the review draft, and labels it with the versions it compared", () => {
    const compared = { ...row('a', 4, 'working_draft', 'Lease v2.docx', '2026-01-10T10:00:00.000Z', 2), artifactId: 'compare:a-1' };
    const [a] = groupBySeries([...rows, compared], progress);
    expect(a!.rows[0]!.id).toBe('a-4');
    expect(a!.draft?.id).toBe('a-3');
    expect(isComparison(compared)).toBe(true);
    expect(comparisonLabel(compared, a!.rows)).toBe('Comparison v2 with v1');
    expect(comparisonLabel(a!.draft!, a!.rows)).toBeNull();
  });

  it('adds a new version to the newest uploaded version, never to a working draft or a comparison made after it', () => {
    const compared = { ...row('a', 4, 'working_draft', 'Lease v2.docx', '2026-01-10T10:00:00.000Z', 2), artifactId: 'compare:a-1' };
    const review = row('a', 5, 'working_draft', 'Lease v2.docx', '2026-01-11T10:00:00.000Z', 2);
    const [a, b] = groupBySeries([...rows, compared, review], progress);
    expect(a!.rows[0]!.id).toBe('a-5');
    expect(a!.latestVersion.id).toBe('a-2');
    expect(b!.latestVersion.id).toBe('b-1');
  });

  it("reviews the latest version: never drafts from a redline, a draft of one or an older version's review, and opens the newest review of it", () => {
    const at = (day: number) => `2026-03-${String(day).padStart(2, '0')}T10:00:00.000Z`;
    // v1 sent, v2 back, compared with v1: the redline is the newest row, and there is no review of v2 yet.
    const sent = row('m', 1, 'original', 'NDA.docx', at(1));
    const back = row('m', 2, 'original', 'NDA.docx', at(2), 1);
    const redline = { ...row('m', 3, 'working_draft', 'NDA.docx', at(3), 2), artifactId: 'compare:m-1' };
    let [m] = groupBySeries([sent, back, redline]);
    expect(m!.latestVersion.id).toBe('m-2');
    expect(m!.draft).toBeNull();
    expect(m!.hasOlderReview).toBe(false);

    // A draft made from the redline copies the difference between two versions: no review. A
    // draft of v1 (even made after v2 came back) reviews v1: an older review, not v2's.
    const redlineCopy = row('m', 4, 'working_draft', 'NDA.docx', at(4), 3);
    const v1Review = row('m', 5, 'working_draft', 'NDA.docx', at(5), 1);
    [m] = groupBySeries([sent, back, redline, redlineCopy, v1Review]);
    expect(m!.draft).toBeNull();
    expect(m!.hasOlderReview).toBe(true);

    // v2's review, then a draft made from that review: the newer one is the review to open.
    const v2Review = row('m', 6, 'working_draft', 'NDA.docx', at(6), 2);
    const v2ReviewCopy = row('m', 7, 'working_draft', 'NDA.docx', at(7), 6);
    [m] = groupBySeries([sent, back, redline, redlineCopy, v1Review, v2Review, v2ReviewCopy]);
    expect(m!.draft?.id).toBe('m-7');
    expect(m!.hasOlderReview).toBe(false);

    // The untracked-edit draft of v2 is v2 whole with those edits tracked: a review of v2. A
    // redline made after it stays a redline.
    const untracked = { ...row('m', 8, 'working_draft', 'NDA.docx', at(8), 2), artifactId: 'untracked:m-1' };
    const later = { ...row('m', 9, 'working_draft', 'NDA.docx', at(9), 2), artifactId: 'compare:m-1' };
    [m] = groupBySeries([sent, back, redline, redlineCopy, v1Review, v2Review, v2ReviewCopy, untracked, later]);
    expect(m!.rows[0]!.id).toBe('m-9');
    expect(m!.draft?.id).toBe('m-8');

    // Their next version: the reviews of v2 are older reviews now.
    [m] = groupBySeries([sent, back, redline, v2Review, untracked, row('m', 10, 'original', 'NDA.docx', at(10), 2)]);
    expect(m!.latestVersion.id).toBe('m-10');
    expect(m!.draft).toBeNull();
    expect(m!.hasOlderReview).toBe(true);
  });

  it("labels an untracked-edit draft with its version, and finds it for that version's warning", () => {
    const untracked = { ...row('a', 4, 'working_draft', 'Lease v2.docx', '2026-01-10T10:00:00.000Z', 2), artifactId: 'untracked:a-1' };
    const older = { ...row('a', 5, 'working_draft', 'Lease.docx', '2026-01-11T10:00:00.000Z', 1), artifactId: 'untracked:a-0' };
    const [a] = groupBySeries([...rows, untracked, older]);
    expect(isComparison(untracked)).toBe(false);
    expect(comparisonLabel(untracked, a!.rows)).toBe('Untracked edits in v2');
    expect(untrackedDraftOf(a!.latestVersion, a!.rows)?.id).toBe('a-4');
    expect(untrackedDraftOf(a!.rows.find((r) => r.id === 'a-1')!, a!.rows)?.id).toBe('a-5');
    expect(untrackedDraftOf(groupBySeries(rows)[0]!.latestVersion, rows)).toBeNull();
  });

  it('names the version a draft reviews by walking back through the drafts it was made from', () => {
    const v1 = row('r', 1, 'original', 'X.docx', '2026-04-01T00:00:00.000Z');
    const d2 = row('r', 2, 'working_draft', 'X.docx', '2026-04-02T00:00:00.000Z', 1);
    const d3 = row('r', 3, 'working_draft', 'X.docx', '2026-04-03T00:00:00.000Z', 2);
    const c4 = { ...row('r', 4, 'working_draft', 'X.docx', '2026-04-04T00:00:00.000Z', 3), artifactId: 'compare:r-1' };
    const d5 = row('r', 5, 'working_draft', 'X.docx', '2026-04-05T00:00:00.000Z', 4);
    const orphan = row('r', 6, 'working_draft', 'X.docx', '2026-04-06T00:00:00.000Z', 99);
    const byId = new Map([v1, d2, d3, c4, d5, orphan].map((r) => [r.id, r]));
    expect(reviewedVersion(v1, byId)).toBeNull();
    expect(reviewedVersion(d2, byId)?.id).toBe('r-1');
    expect(reviewedVersion(d3, byId)?.id).toBe('r-1');
    expect(reviewedVersion(c4, byId)).toBeNull();
    expect(reviewedVersion(d5, byId)).toBeNull();
    expect(reviewedVersion(orphan, byId)).toBeNull();
  });

  it('whatever the rows, starts a review only from an uploaded version and opens only a review of it', () => {
    const arbRow = fc.record({
      kind: fc.constantFrom<'original' | 'draft' | 'compare' | 'untracked'>('original', 'draft', 'compare', 'untracked'),
      parent: fc.nat(),
    });
    fc.assert(
      fc.property(fc.array(arbRow, { minLength: 1, maxLength: 12 }), (specs) => {
        // Version 1 is always an upload; every other row was made from (or added to) an earlier one.
        const list = specs.map((spec, i) => {
          const version = i + 1;
          const kind = i === 0 ? 'original' : spec.kind;
          const made = row('s', version, kind === 'original' ? 'original' : 'working_draft', 'S.docx', `2026-05-01T00:00:${String(i).padStart(2, '0')}.000Z`, i === 0 ? undefined : 1 + (spec.parent % i));
          return kind === 'compare' || kind === 'untracked' ? { ...made, artifactId: `${kind}:s-1` } : made;
        });
        const [s] = groupBySeries(list);
        const newestUpload = list.filter((r) => r.versionKind === 'original').at(-1)!;
        expect(s!.latestVersion).toBe(newestUpload);
        if (s!.draft) {
          expect(s!.draft.versionKind).toBe('working_draft');
          expect(isComparison(s!.draft)).toBe(false);
          expect(reviewedVersion(s!.draft, new Map(list.map((r) => [r.id, r])))).toBe(newestUpload);
          // No newer review of that version is passed over.
          expect(list.filter((r) => r.documentVersion > s!.draft!.documentVersion && reviewedVersion(r, new Map(list.map((x) => [x.id, x]))) === newestUpload)).toEqual([]);
        }
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it('sorts by last activity (newest first) or by name, and searches every version name', () => {
    const series = groupBySeries(rows, progress);
    expect(visibleSeries(series, '', 'activity').map((s) => s.id)).toEqual(['a', 'b']);
    expect(visibleSeries(series, '', 'name').map((s) => s.id)).toEqual(['a', 'b']);
    expect(visibleSeries(groupBySeries(rows), '', 'activity').map((s) => s.id)).toEqual(['b', 'a']);
    expect(visibleSeries(series, 'supply', 'activity').map((s) => s.id)).toEqual(['b']);
    expect(visibleSeries(series, 'LEASE v2', 'activity').map((s) => s.id)).toEqual(['a']);
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

describe('a series whose latest version was compared (issue 34.2)', () => {
  const compared = (version: number, parent: number, against: number, at: string): DocumentRow => ({
    ...row('n', version, 'working_draft', 'NDA.docx', at, parent), artifactId: `compare:n-${against}`,
  });
  const rows = [
    row('n', 1, 'original', 'NDA.docx', '2026-02-01T10:00:00.000Z'),
    row('n', 2, 'original', 'NDA.docx', '2026-02-02T10:00:00.000Z', 1),
    compared(3, 2, 1, '2026-02-03T10:00:00.000Z'),
  ];
  const progress: DraftProgress = { documentId: 'n-3', documentSeriesId: 'n', counts: { open: 2, in: 1, back: 0, total: 3 }, lastDecision: { at: '2026-02-05T00:00:00.000Z', kind: 'decide', byUserId: 'u', byName: 'Nora' } };

  it('has its comparison, with the comparison\'s progress and last decision, beside no review draft', () => {
    const [n] = groupBySeries(rows, [], [progress]);
    expect(n!.draft).toBeNull();
    expect(n!.comparison?.id).toBe('n-3');
    expect(n!.comparisonProgress?.counts).toEqual({ open: 2, in: 1, back: 0, total: 3 });
    expect(n!.lastActivityAt).toBe('2026-02-05T00:00:00.000Z');
  });

  it('a comparison of the version with the one it was added to is where its untracked edits are shown; one with another version is not', () => {
    expect(untrackedDraftOf(rows[1]!, rows)?.id).toBe('n-3');
    const v0 = row('n', 0, 'original', 'NDA.docx', '2026-01-31T10:00:00.000Z');
    expect(untrackedDraftOf(rows[1]!, [v0, rows[0]!, rows[1]!, compared(3, 2, 0, '2026-02-03T10:00:00.000Z')])).toBeNull();
  });

  it('takes the newest comparison of the latest version only: one of an older version is not the matter\'s review', () => {
    const v3 = row('n', 3, 'original', 'NDA.docx', '2026-02-04T10:00:00.000Z', 2);
    expect(groupBySeries([...rows, v3], [], [progress])[0]!.comparison).toBeNull();
    const newer = compared(4, 2, 1, '2026-02-06T10:00:00.000Z');
    expect(groupBySeries([...rows, newer])[0]!.comparison?.id).toBe('n-4');
  });
});
