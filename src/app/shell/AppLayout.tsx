import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, Outlet, useNavigate } from 'react-router';
import { ROUTES } from '../../contract/routes';
import { callApi } from '../api/client';
import { sessionStore, useSession } from '../auth/session';
import { OrgSwitcher } from '../components/OrgSwitcher';

/** The frame of every signed-in page: who you are, for which organisation, and a way out. */
export function AppLayout() {
  const session = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  // Fix (found by e2e/app-features.spec.ts, organisation switcher): the organisations used to
  // come only from the sign-in grant, so one joined later (an owner's invite) never appeared,
  // not even after a reload, until the next sign-in. Refresh them whenever the frame loads.
  useEffect(() => {
    const abort = new AbortController();
    callApi(ROUTES.describeSession, { signal: abort.signal })
      .then((described) => sessionStore.refreshOrgs(described.orgs))
      // The copy from sign-in stays in use; a 401 has already ended the session.
      .catch(() => undefined);
    return () => abort.abort();
  }, []);

  async function signOut() {
    try {
      await callApi(ROUTES.signOut);
    } catch {
      // Signing out locally is what matters to the person at this screen; a failed revoke
      // leaves a session that expires on its own.
    }
    queryClient.clear();
    sessionStore.set(null);
    navigate('/sign-in', { replace: true });
  }

  return (
    <div className="flex h-screen flex-col">
      <a href="#main" className="skip-link">Skip to content</a>
      <header className="flex items-center gap-x-4 gap-y-1 border-b border-line bg-paper px-3 py-2 sm:px-4">
        <Link to="/documents" className="text-lg font-semibold tracking-tight text-brand focus-ring rounded">
          Redline
        </Link>
        <nav aria-label="Main" className="flex min-w-0 gap-3 text-sm">
          <Link to="/documents" className="link">Documents</Link>
          <Link to="/account/members" className="link">Members</Link>
          <Link to="/account/sessions" className="link">Sessions</Link>
        </nav>
        <div className="ml-auto flex min-w-0 items-center gap-3 text-sm">
          {session && session.orgs.length > 1 && (
            <OrgSwitcher
              orgs={session.orgs}
              value={session.orgId}
              onChange={(orgId) => {
                sessionStore.switchOrg(orgId);
                // A document belongs to one organisation: leave any open review.
                navigate('/documents');
              }}
            />
          )}
          {session && session.orgs.length === 1 && <span className="hidden truncate text-ink-soft md:inline">{session.orgs[0]?.name}</span>}
          {/* On a phone the address would push the navigation off screen; it is on the sessions page. */}
          <span className="hidden truncate text-ink-soft lg:inline" title="Signed in as">{session?.user.email}</span>
          <button type="button" className="btn btn-quiet px-1 sm:px-2.5" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" className="flex min-h-0 flex-1 flex-col overflow-auto" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
