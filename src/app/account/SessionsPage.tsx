import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import type { SessionListItem } from '../../contract/account';
import { describeError } from '../api/errors';
import { sessionStore } from '../auth/session';
import { Dialog } from '../components/Dialog';
import { formatDateTime } from '../components/format';
import { useEndSession, useSessions, useSignOutEverywhere } from './account-hooks';

const KIND_LABEL: Record<SessionListItem['kind'], string> = { web: 'Browser', connector: 'Assistant connector' };

/** "Firefox on Windows" from a user agent; the raw string stays in the tooltip. */
export function describeClient(client: string | null): string {
  if (!client) return 'Unknown client';
  const browser = /Edg\//.test(client) ? 'Edge' : /Firefox\//.test(client) ? 'Firefox' : /Chrom(e|ium)\//.test(client) ? 'Chrome'
    : /Safari\//.test(client) ? 'Safari' : null;
  const os = /Windows/.test(client) ? 'Windows' : /iPhone|iPad/.test(client) ? 'iOS' : /Mac OS X/.test(client) ? 'macOS'
    : /Android/.test(client) ? 'Android' : /Linux/.test(client) ? 'Linux' : null;
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os ?? client.slice(0, 60);
}

/** `/account/sessions`: where the user is signed in, and a way to end any of it. */
export function SessionsPage() {
  const sessions = useSessions();
  const endSession = useEndSession();
  const everywhere = useSignOutEverywhere();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [message, setMessage] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const headingId = useId();

  function signedOut(reason: string) {
    queryClient.clear();
    sessionStore.set(null, reason);
    navigate('/sign-in', { replace: true });
  }

  async function end(item: SessionListItem) {
    setMessage(null);
    try {
      await endSession.mutateAsync(item.id);
      if (item.current) signedOut('You ended this session.');
      else setMessage(`Ended the session of ${describeClient(item.client)}.`);
    } catch (error) {
      setMessage(`Could not end that session: ${describeError(error)}`);
    }
  }

  async function signOutEverywhere() {
    try {
      const result = await everywhere.mutateAsync();
      const grants = result.grantsRevoked ? ` and revoked ${result.grantsRevoked} assistant connector grant${result.grantsRevoked === 1 ? '' : 's'}` : '';
      signedOut(`Signed out everywhere: ended ${result.sessionsEnded} session${result.sessionsEnded === 1 ? '' : 's'}${grants}.`);
    } catch (error) {
      setConfirming(false);
      setMessage(`Could not sign out everywhere: ${describeError(error)}`);
    }
  }

  return (
    <section aria-labelledby={headingId} className="mx-auto w-full max-w-5xl px-3 py-4 sm:px-4">
      <div className="flex flex-wrap items-center gap-3">
        <h1 id={headingId} className="text-xl font-semibold">Sessions</h1>
        <p className="text-sm text-ink-soft">Everywhere you are signed in, including the assistant connector.</p>
        <button type="button" className="btn btn-danger ml-auto" onClick={() => setConfirming(true)}>
          Sign out everywhere
        </button>
      </div>

      <div aria-live="polite" className="mt-3 text-sm">{message && <p>{message}</p>}</div>

      {sessions.isPending ? (
        <p role="status" className="mt-4 text-ink-soft">Loading sessions…</p>
      ) : sessions.isError ? (
        <div role="alert" className="mt-4 rounded border border-danger bg-danger-soft p-3 text-danger">
          <p>Could not load your sessions: {describeError(sessions.error)}</p>
          <button type="button" className="btn mt-2" onClick={() => void sessions.refetch()}>Try again</button>
        </div>
      ) : (
        <table className="rl-stack-table mt-2 w-full border-collapse bg-paper text-sm">
          <caption className="sr-only">Your active sessions, most recently used first</caption>
          <thead>
            <tr className="border-b border-line text-left text-ink-soft">
              <th scope="col" className="px-2 py-1.5 font-medium">Client</th>
              <th scope="col" className="px-2 py-1.5 font-medium">Kind</th>
              <th scope="col" className="px-2 py-1.5 font-medium">Signed in</th>
              <th scope="col" className="px-2 py-1.5 font-medium">Last used</th>
              <th scope="col" className="px-2 py-1.5 font-medium">Ends</th>
              <th scope="col" className="px-2 py-1.5 font-medium"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {sessions.data.items.map((item) => (
              <tr key={item.id} className="border-t border-line align-middle">
                <td className="px-2 py-1.5 max-sm:basis-full" title={item.client ?? undefined}>
                  {describeClient(item.client)}
                  {item.current && <span className="ml-2 inline-block whitespace-nowrap rounded bg-canvas px-1.5 py-0.5 text-xs font-medium">This session</span>}
                </td>
                <td className="whitespace-nowrap px-2 py-1.5 max-sm:basis-full max-sm:text-ink-soft">{KIND_LABEL[item.kind]}</td>
                <td className="whitespace-nowrap px-2 py-1.5" data-label="Signed in"><time dateTime={item.createdAt}>{formatDateTime(item.createdAt)}</time></td>
                <td className="whitespace-nowrap px-2 py-1.5" data-label="Last used"><time dateTime={item.lastUsedAt}>{formatDateTime(item.lastUsedAt)}</time></td>
                <td className="whitespace-nowrap px-2 py-1.5" data-label="Ends"><time dateTime={item.expiresAt}>{formatDateTime(item.expiresAt)}</time></td>
                <td className="px-2 py-1.5 text-right max-sm:ml-auto">
                  <button type="button" className="btn btn-quiet text-danger" disabled={endSession.isPending} onClick={() => void end(item)}>
                    {item.current ? 'End (signs you out)' : 'End'}
                    <span className="sr-only"> session of {describeClient(item.client)}, last used {formatDateTime(item.lastUsedAt)}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <Dialog open={confirming} title="Sign out everywhere?" onClose={() => setConfirming(false)}>
        <p className="text-sm">
          This ends every session of your account, on every device and this one, and revokes the assistant connector.
          You will need to sign in again.
        </p>
        <div className="mt-4 flex justify-end gap-2">
          <button type="button" className="btn" onClick={() => setConfirming(false)}>Cancel</button>
          <button type="button" className="btn btn-danger" disabled={everywhere.isPending} onClick={() => void signOutEverywhere()}>
            {everywhere.isPending ? 'Signing out…' : 'Sign out everywhere'}
          </button>
        </div>
      </Dialog>
    </section>
  );
}
