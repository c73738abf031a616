import type { OrgMembership, UserSummary } from '../../contract/auth';

/**
 * The signed-in session as the tab stores it. The token lives in memory and in sessionStorage (so
 * a reload of the tab keeps the user signed in, while closing the tab forgets it); it is never put
 * in a URL, a cookie or localStorage. Read here without React: the opening's first script
 * (opening-reads.ts) reads it before the app has loaded.
 */
export interface Session {
  token: string;
  orgId: string;
  user: UserSummary;
  orgs: OrgMembership[];
  expiresAt: string;
}

export const SESSION_STORAGE_KEY = 'redline.session';

/** The session stored in this tab, or null: none, expired, junk, or storage unavailable. */
export function readStoredSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(SESSION_STORAGE_KEY);
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
