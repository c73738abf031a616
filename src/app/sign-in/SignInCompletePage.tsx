import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { SessionGrant } from '../../contract/auth';
import { describeError } from '../api/errors';
import { sessionStore } from '../auth/session';
import { tradeHandoff } from './provider-api';
import { isAppPath } from './provider-sign-in-links';

/**
 * One trade per handoff, however often the effect runs (React's StrictMode runs it twice in
 * development, and a handoff works exactly once).
 */
const trades = new Map<string, Promise<SessionGrant>>();

/**
 * `/sign-in/complete?handoff=…&returnTo=…`: where a provider sign-in lands. The handoff is a
 * single-use, 60-second value, never a session: it is taken out of the address bar at once,
 * traded for a session in a POST body, and the session is stored exactly as the e-mail code
 * sign-in stores it.
 */
export function SignInCompletePage() {
  const navigate = useNavigate();
  const [tradeFailure, setFailure] = useState<string | null>(null);
  // Read once: the address bar is rewritten below.
  const [{ handoff, returnTo }] = useState(() => {
    const params = new URLSearchParams(window.location.search);
    return { handoff: params.get('handoff'), returnTo: params.get('returnTo') };
  });

  useEffect(() => {
    window.history.replaceState(window.history.state, '', '/sign-in/complete');
    if (!handoff) return;
    let trade = trades.get(handoff);
    if (!trade) {
      trade = tradeHandoff(handoff);
      trades.set(handoff, trade);
    }
    let live = true;
    trade.then(
      (grant) => {
        if (!live) return;
        sessionStore.set({ token: grant.session_token, orgId: grant.orgId, user: grant.user, orgs: grant.orgs, expiresAt: grant.expiresAt });
        const remembered = sessionStore.takeReturnTo();
        const target = isAppPath(returnTo) ? returnTo : remembered ?? '/documents';
        navigate(target.startsWith('/sign-in') ? '/documents' : target, { replace: true });
      },
      (error: unknown) => {
        if (live) setFailure(describeError(error));
      },
    );
    return () => {
      live = false;
    };
  }, [handoff, returnTo, navigate]);

  const failure = handoff ? tradeFailure : 'This sign-in link is incomplete. Start again.';

  return (
    <main id="main" className="flex min-h-screen items-start justify-center bg-canvas px-4 pt-[12vh]">
      <div className="w-full max-w-sm rounded-md border border-line bg-paper p-6 shadow-sm">
        <h1 className="text-xl font-semibold text-brand">Redline</h1>
        {failure ? (
          <>
            <p role="alert" className="mt-4 rounded border border-danger bg-danger-soft p-2 text-sm text-danger">{failure}</p>
            <Link to="/sign-in" replace className="btn mt-4 inline-block">Back to sign-in</Link>
          </>
        ) : (
          <p role="status" className="mt-4 text-sm text-ink-soft">Signing you in…</p>
        )}
      </div>
    </main>
  );
}
