import { useId } from 'react';
import type { OrgMembership } from '../../contract/auth';

/** Shown only to users of several organisations; the choice becomes the x-org-id of every call. */
export function OrgSwitcher({ orgs, value, onChange }: { orgs: OrgMembership[]; value: string; onChange: (orgId: string) => void }) {
  const id = useId();
  return (
    <span className="flex items-center gap-2">
      <label htmlFor={id} className="text-ink-soft">Organisation</label>
      <select id={id} className="field py-1" value={value} onChange={(e) => onChange(e.target.value)}>
        {orgs.map((org) => (
          <option key={org.id} value={org.id}>
            {org.name}
          </option>
        ))}
      </select>
    </span>
  );
}
