import { useSyncExternalStore } from 'react';
import type { OrgMembership, UserSummary } from '../../contract/auth';

/**
 * The signed-in session. The token lives in memory and in sessionStorage (so a reload of
 * the tab keeps the user signed in, while closing the tab forgets it); it is never put in
 * a URL, a cookie or localStorage.
 */
export interface Session {
  token: string;
  orgId: string;
  user: UserSummary;
  orgs: OrgMembership[];
  expiresAt: string;
}

const STORAGE_KEY = 'redline.session';
/** Where a signed-out user was, so sign-in can send them back there. */
const RETURN_KEY = 'redline.returnTo';

type Listener = () => void;

function readStored(): Session | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Session;
    if (typeof parsed.token !== 'string' || typeof parsed.orgId !== 'string') return null;
    if (Date.parse(parsed.expiresAt) <= Date.now()) return null;
    return parsed;
  } catch {
    // Storage can be unavailable (privacy modes) or hold junk: start signed out.
    return null;
  }
}

class SessionStore {
  private current: Session | null = readStored();
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
      if (session) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
      else sessionStorage.removeItem(STORAGE_KEY);
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
