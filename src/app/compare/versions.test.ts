import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comparisonArtifactId, parseComparisonArtifactId } from '../../contract/compare';
import type { DocumentRow } from '../../contract/document';
import { previousVersionOf } from './CompareDialog';
import { isCheckedVersion, untrackedSentence } from './UntrackedWarning';

const row = (version: number, parent: string | null, kind: DocumentRow['versionKind'] = 'original'): DocumentRow => ({
  id: `id-${version}`, artifactId: null, orgId: 'o', createdByUserId: null, fileName: 'A.docx', mimeType: 'x', sizeBytes: 1,
  purpose: 'source_doc', clientReferenceId: null, documentSeriesId: 'id-1', documentVersion: version, parentUploadId: parent,
  versionKind: kind, storageKey: null, contentSha256: null, hasBinary: true, status: 'ready', createdAt: '', updatedAt: '',
});

describe('comparison helpers of the app', () => {
  it('preselects the version a version was added to, else the newest one before it, else another', () => {
    const v1 = row(1, null);
    const v2 = row(2, 'id-1');
    const v3 = row(3, 'id-2', 'working_draft');
    const v4 = row(4, 'id-1');
    const series = [v1, v2, v3, v4];
    expect(previousVersionOf(v4, series)?.id).toBe('id-1');
    expect(previousVersionOf(v3, series)?.id).toBe('id-2');
    expect(previousVersionOf({ ...v4, parentUploadId: 'gone' }, series)?.id).toBe('id-3');
    expect(previousVersionOf(v1, series)?.id).toBe('id-2');
    expect(previousVersionOf(v1, [v1])).toBeNull();
  });

  it('says how many edits were made without tracking, in the singular too', () => {
    expect(untrackedSentence(4, 5)).toBe('4 edits in v5 were made without tracking');
    expect(untrackedSentence(1, 2)).toBe('1 edit in v2 was made without tracking');
    expect(isCheckedVersion(row(2, 'id-1'))).toBe(true);
    expect(isCheckedVersion(row(1, null))).toBe(false);
    expect(isCheckedVersion(row(3, 'id-2', 'working_draft'))).toBe(false);
  });

  it('reads back every artifactId it writes, and nothing else', () => {
    fc.assert(fc.property(fc.constantFrom('compare' as const, 'untracked' as const), fc.string({ minLength: 1 }), (kind, id) => {
      expect(parseComparisonArtifactId(comparisonArtifactId(kind, id))).toEqual({ kind, against: id });
    }), { seed: 12, numRuns: 200 });
    expect(parseComparisonArtifactId(null)).toBeNull();
    expect(parseComparisonArtifactId('playbook:1')).toBeNull();
  });
});
