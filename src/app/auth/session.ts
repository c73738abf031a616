import { useSyncExternalStore } from 'react';
import type { OrgMembership } from '../../contract/auth';
import { readStoredSession, SESSION_STORAGE_KEY, type Session } from './stored-session';

/** The signed-in session (stored-session.ts says where it is kept). */
export type { Session } from './stored-session';

/** Where a signed-out user was, so sign-in can send them back there. */
const RETURN_KEY = 'redline.returnTo';

type Listener = () => void;

class SessionStore {
  private current: Session | null = readStoredSession();
  /** Why the last session ended, shown once on the sign-in page. */
  private endedReason: string | null = null;
  private listeners = new Set<Listener>();

  get = (): Session | null => this.current;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  set(session: Session | null, endedReason: string | null = null): void {
    this.current = session;
    this.endedReason = endedReason;
    try {
      if (session) sessionStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
      else sessionStorage.removeItem(SESSION_STORAGE_KEY);
    } catch {
      // Memory still holds the session; only a reload would lose it.
    }
    for (const listener of this.listeners) listener();
  }

  switchOrg(orgId: string): void {
    if (!this.current || !this.current.orgs.some((o) => o.id === orgId)) return;
    this.set({ ...this.current, orgId });
  }

  /** The user's organisations as the service sees them now (GET /auth/session), replacing the sign-in copy. */
  refreshOrgs(orgs: OrgMembership[]): void {
    const current = this.current;
    if (!current || orgs.length === 0 || JSON.stringify(orgs) === JSON.stringify(current.orgs)) return;
    const orgId = orgs.some((o) => o.id === current.orgId) ? current.orgId : orgs[0]!.id;
    this.set({ ...current, orgs, orgId });
  }

  /** Called when the service answers 401: the session is gone, remember why. */
  expire(): void {
    if (this.current) this.set(null, 'Your session has ended. Sign in again to continue where you were.');
  }

  takeEndedReason(): string | null {
    const reason = this.endedReason;
    this.endedReason = null;
    return reason;
  }

  rememberReturnTo(path: string): void {
    try {
      sessionStorage.setItem(RETURN_KEY, path);
    } catch {
      /* best effort */
    }
  }

  takeReturnTo(): string | null {
    try {
      const path = sessionStorage.getItem(RETURN_KEY);
      sessionStorage.removeItem(RETURN_KEY);
      // Only ever return to a path of this app, never to another origin.
      return path && path.startsWith('/') && !path.startsWith('//') ? path : null;
    } catch {
      return null;
    }
  }
}

export const sessionStore = new SessionStore();

export function useSession(): Session | null {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get);
}
