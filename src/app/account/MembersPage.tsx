import { useId, useState, type FormEvent } from 'react';
import type { OrgMember } from '../../contract/account';
import type { OrgRole } from '../../contract/auth';
import { ApiError, describeError } from '../api/errors';
import { useSession } from '../auth/session';
import { Dialog } from '../components/Dialog';
import { formatDateTime } from '../components/format';
import { useInviteMember, useMembers, useRemoveMember } from './account-hooks';

const ROLE_LABEL: Record<OrgRole, string> = { owner: 'Owner', member: 'Member' };

function inviteMessage(error: unknown): string {
  if (error instanceof ApiError && error.code === 'invalid_request') return error.problem?.errors?.[0]?.message ?? error.message;
  return describeError(error);
}

/** `/account/members`: who belongs to the organisation; owners invite and remove. */
export function MembersPage() {
  const session = useSession();
  const members = useMembers();
  const invite = useInviteMember();
  const remove = useRemoveMember();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<OrgRole>('member');
  const [inviteError, setInviteError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [removing, setRemoving] = useState<OrgMember | null>(null);
  const headingId = useId();
  const emailId = useId();
  const roleId = useId();
  const org = session?.orgs.find((o) => o.id === session.orgId);
  const isOwner = org?.role === 'owner';

  async function onInvite(event: FormEvent) {
    event.preventDefault();
    if (invite.isPending) return;
    setInviteError(null);
    setMessage(null);
    try {
      const member = await invite.mutateAsync({ email: email.trim(), role });
      setMessage(`Invited ${member.email} as ${ROLE_LABEL[member.role].toLowerCase()}. They sign in with an e-mail code and find ${org?.name ?? 'the organisation'} there.`);
      setEmail('');
      setRole('member');
    } catch (error) {
      setInviteError(inviteMessage(error));
    }
  }

  async function confirmRemove(member: OrgMember) {
    try {
      await remove.mutateAsync(member.userId);
      setMessage(`Removed ${member.email} from ${org?.name ?? 'the organisation'}.`);
    } catch (error) {
      setMessage(`Could not remove ${member.email}: ${describeError(error)}`);
    } finally {
      setRemoving(null);
    }
  }

  return (
    <section aria-labelledby={headingId} className="mx-auto w-full max-w-5xl px-3 py-4 sm:px-4">
      <h1 id={headingId} className="text-xl font-semibold">Members</h1>
      <p className="mt-1 text-sm text-ink-soft">
        People in {org?.name ?? 'this organisation'}.{isOwner ? ' As an owner you can invite and remove members.' : ' Owners can invite and remove members.'}
      </p>

      {isOwner && (
        <form className="mt-4 flex flex-wrap items-end gap-3" onSubmit={(e) => void onInvite(e)} noValidate>
          <div className="flex flex-col gap-1">
            <label htmlFor={emailId} className="text-sm font-medium">E-mail</label>
            <input
              id={emailId}
              className="field w-72"
              type="email"
              name="email"
              autoComplete="off"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-invalid={inviteError ? true : undefined}
              aria-describedby={inviteError ? `${emailId}-error` : undefined}
            />
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={roleId} className="text-sm font-medium">Role</label>
            <select id={roleId} className="field" value={role} onChange={(e) => setRole(e.target.value as OrgRole)}>
              <option value="member">Member</option>
              <option value="owner">Owner</option>
            </select>
          </div>
          <button type="submit" className="btn btn-primary" disabled={invite.isPending || email.trim() === ''}>
            {invite.isPending ? 'Inviting…' : 'Invite'}
          </button>
          {inviteError && (
            <p id={`${emailId}-error`} role="alert" className="basis-full rounded border border-danger bg-danger-soft p-2 text-sm text-danger">
              {inviteError}
            </p>
          )}
        </form>
      )}

      <div aria-live="polite" className="mt-3 text-sm">{message && <p>{message}</p>}</div>

      {members.isPending ? (
        <p role="status" className="mt-4 text-ink-soft">Loading members…</p>
      ) : members.isError ? (
        <div role="alert" className="mt-4 rounded border border-danger bg-danger-soft p-3 text-danger">
          <p>Could not load the members: {describeError(members.error)}</p>
          <button type="button" className="btn mt-2" onClick={() => void members.refetch()}>Try again</button>
        </div>
      ) : (
        <table className="rl-stack-table mt-2 w-full border-collapse bg-paper text-sm">
          <caption className="sr-only">Members of {org?.name ?? 'the organisation'}</caption>
          <thead>
            <tr className="border-b border-line text-left text-ink-soft">
              <th scope="col" className="px-2 py-1.5 font-medium">Name</th>
              <th scope="col" className="px-2 py-1.5 font-medium">E-mail</th>
              <th scope="col" className="px-2 py-1.5 font-medium">Role</th>
              <th scope="col" className="px-2 py-1.5 font-medium">Joined</th>
              {isOwner && <th scope="col" className="px-2 py-1.5 font-medium"><span className="sr-only">Actions</span></th>}
            </tr>
          </thead>
          <tbody>
            {members.data.items.map((member) => (
              <tr key={member.userId} className="border-t border-line align-middle">
                <td className="px-2 py-1.5 max-sm:basis-full max-sm:font-medium">
                  {member.name}
                  {member.userId === session?.user.id && <span className="ml-2 text-xs text-ink-soft">(you)</span>}
                </td>
                <td className="px-2 py-1.5">{member.email}</td>
                <td className="whitespace-nowrap px-2 py-1.5">{ROLE_LABEL[member.role]}</td>
                <td className="whitespace-nowrap px-2 py-1.5" data-label="Joined"><time dateTime={member.joinedAt}>{formatDateTime(member.joinedAt)}</time></td>
                {isOwner && (
                  <td className="px-2 py-1.5 text-right max-sm:ml-auto">
                    {member.userId !== session?.user.id && (
                      <button type="button" className="btn btn-quiet text-danger" onClick={() => setRemoving(member)}>
                        Remove<span className="sr-only"> {member.email}</span>
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <Dialog open={removing !== null} title="Remove member?" onClose={() => setRemoving(null)}>
        <p className="text-sm">
          {removing?.email} will no longer see the documents of {org?.name ?? 'this organisation'}.
        </p>
        <div className="mt-4 flex justify-end gap-2">
          <button type="button" className="btn" onClick={() => setRemoving(null)}>Cancel</button>
          <button type="button" className="btn btn-danger" disabled={remove.isPending} onClick={() => removing && void confirmRemove(removing)}>
            {remove.isPending ? 'Removing…' : 'Remove'}
          </button>
        </div>
      </Dialog>
    </section>
  );
}
