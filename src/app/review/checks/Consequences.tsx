import type { CheckFinding } from '../../../contract/checks';
import { useChecks } from './useChecks';

/** The findings a decision on these changes brings: those whose causedBy names one of them. */
function broughtBy(findings: readonly CheckFinding[] | undefined, changeIds: readonly string[]): CheckFinding[] {
  return (findings ?? []).filter((f) => f.causedBy.some((id) => changeIds.includes(id)));
}

/**
 * On the current change: what accepting it and what rejecting it would break, as the checks
 * find it on the draft with every change accepted, or rejected (issue 35).
 */
export function Consequences({ documentId, contentSha256, changeIds }: { documentId: string; contentSha256: string | null; changeIds: readonly string[] }) {
  const accepted = useChecks(documentId, contentSha256, 'accepted');
  const rejected = useChecks(documentId, contentSha256, 'rejected');
  if (accepted.isPending || rejected.isPending) return <p className="mt-1 text-sm text-ink-soft" data-testid="consequences">Checking what this decision would break…</p>;
  if (accepted.isError || rejected.isError) return null;
  const ifAccepted = broughtBy(accepted.data, changeIds);
  const ifRejected = broughtBy(rejected.data, changeIds);
  if (ifAccepted.length === 0 && ifRejected.length === 0) {
    return <p className="mt-1 text-sm text-ink-soft" data-testid="consequences">Accepting or rejecting it breaks nothing the checks look for.</p>;
  }
  return (
    <div className="mt-1 text-sm" data-testid="consequences">
      {ifAccepted.length > 0 && <Breaks title="Accepting it" findings={ifAccepted} />}
      {ifRejected.length > 0 && <Breaks title="Rejecting it" findings={ifRejected} />}
    </div>
  );
}

function Breaks({ title, findings }: { title: string; findings: readonly CheckFinding[] }) {
  return (
    <section aria-label={`${title} would break`} className="mt-1 rounded border border-line bg-canvas px-2 py-1">
      <h3 className="font-semibold">{title} would break:</h3>
      <ul className="list-disc pl-5">
        {findings.slice(0, 5).map((f) => <li key={f.id}>{f.message}</li>)}
      </ul>
      {findings.length > 5 && <p className="text-ink-soft">and {findings.length - 5} more (see Checks).</p>}
    </section>
  );
}
