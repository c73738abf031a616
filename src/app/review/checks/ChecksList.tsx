import type { CheckKind } from '../../../contract/checks';
import { useChecks } from './useChecks';

const KIND_LABEL: Record<CheckKind, string> = {
  undefined_term: 'Undefined term',
  unused_definition: 'Unused definition',
  duplicate_definition: 'Defined twice',
  term_variant: 'Term variant',
  broken_cross_reference: 'Broken cross-reference',
  numbering_out_of_sequence: 'Numbering',
  placeholder: 'Placeholder',
};

/**
 * The checks of the draft as accepting every change would leave it: page, clause and message
 * of each finding, those a change brings marked as such (issue 35). Collapsed until opened, so
 * the review's own panels keep their place.
 */
export function ChecksList({ documentId, contentSha256 }: { documentId: string; contentSha256: string | null }) {
  const checks = useChecks(documentId, contentSha256, 'accepted');
  const findings = checks.data ?? [];
  return (
    <details className="rl-phone-panel border-b border-line p-3 text-sm" data-testid="checks-list">
      <summary className="cursor-pointer font-semibold">
        Checks {checks.isPending ? '(checking…)' : `(${findings.length})`}
      </summary>
      {checks.isError && <p className="mt-1 text-ink-soft">The checks could not be run.</p>}
      {!checks.isPending && !checks.isError && findings.length === 0 && <p className="mt-1 text-ink-soft">No finding: terms, cross-references, numbering and placeholders are in order.</p>}
      {findings.length > 0 && (
        <ol aria-label="Checks" className="mt-2 max-h-72 space-y-1 overflow-y-auto">
          {findings.map((f) => (
            <li key={f.id} className="rounded border border-line px-2 py-1" data-kind={f.kind}>
              <span className="text-ink-soft">p. {f.page}{f.clause ? ` · ${f.clause}` : ''} · {KIND_LABEL[f.kind]}{f.causedBy.length > 0 ? ' · brought by a change' : ''}</span>
              <br />
              {f.message}
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}
