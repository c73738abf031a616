import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { sessionStore, useSession } from './session';

/**
 * Renders its children only while signed in. Otherwise (never signed in, or a 401 ended the
 * session) it sends the user to sign-in and remembers where they were, so sign-in brings them
 * straight back to the same document.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session) {
    const from = location.pathname + location.search + location.hash;
    sessionStore.rememberReturnTo(from);
    return <Navigate to="/sign-in" replace state={{ from }} />;
  }
  return children;
}
