import { parseComparisonArtifactId, UNTRACKED_EDIT_AUTHOR } from '../../contract/compare';
import type { DocumentRow } from '../../contract/document';
import { useUpload } from '../api/compare';
import { UntrackedWarning } from './UntrackedWarning';

/**
 * The top of the review page for a draft made from a version: what the draft is when a
 * comparison made it, and the untracked-edit warning of the version it was made from.
 */
/** `changes`: how many changes the draft's track holds (decided ones included). */
export function ReviewComparisonBanner({ draft, changes }: { draft: DocumentRow; changes: number }) {
  const comparison = parseComparisonArtifactId(draft.artifactId);
  const source = useUpload(draft.parentUploadId).data ?? null;
  const against = useUpload(comparison?.kind === 'compare' ? comparison.against : null).data ?? null;
  if (!source) return null;
  if (comparison?.kind === 'untracked') {
    return (
      <p role="status" data-testid="comparison-banner" className="border-b border-line bg-open-soft px-4 py-1.5 text-sm text-open max-md:truncate max-md:px-3 max-md:py-1 max-md:text-xs">
        Changes by “{UNTRACKED_EDIT_AUTHOR}” are the edits made in v{source.documentVersion} without tracking; the others are tracked changes it came with.
      </p>
    );
  }
  return (
    <>
      {comparison?.kind === 'compare' && (
        <p role="status" data-testid="comparison-banner" className="border-b border-line bg-paper px-4 py-1.5 text-sm text-ink-soft max-md:truncate max-md:px-3 max-md:py-1 max-md:text-xs">
          {changes === 0
            ? `No differences: v${source.documentVersion} is identical to ${against ? `v${against.documentVersion}` : 'the version it was compared with'}.`
            : `Comparison: what changed in v${source.documentVersion} since ${against ? `v${against.documentVersion}` : 'the older version'}, as ${changes} tracked change${changes === 1 ? '' : 's'}.`}
        </p>
      )}
      <UntrackedWarning version={source} banner />
    </>
  );
}
