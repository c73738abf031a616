import { API_BASE_PATH, DRAFT_READ_PATHS, fillPath, OPENING_WINDOW_QUERY, PREFER_MINIMAL } from '../contract/opening-reads';
import { holdRead } from './api/early-reads';
import { readStoredSession } from './auth/stored-session';

/**
 * The page's first script, before the app (index.html): a link to a draft under review asks at
 * once, side by side, for what the review page reads one after another once loaded: the review
 * (minimal), the render variant and the window around the change the review opens at, and the
 * renderer's code. The app takes the answers as it asks (early-reads.ts); nothing here reads
 * them. Kept small and free of the schemas: it runs before the bundle has arrived.
 */
function startOpeningReads(): void {
  const match = /^\/documents\/([^/]+)\/?$/.exec(location.pathname);
  const session = readStoredSession();
  if (!match?.[1] || !session) return;
  const params = { documentId: decodeURIComponent(match[1]) };
  // As the app sends them (api/client.ts fetchRoute, api/render-window.ts).
  const auth = { authorization: `Bearer ${session.token}`, 'x-org-id': session.orgId };
  const url = (path: string) => API_BASE_PATH + fillPath(path, params);
  holdRead(url(DRAFT_READ_PATHS.review), { accept: 'application/json', ...auth, prefer: PREFER_MINIMAL });
  holdRead(`${url(DRAFT_READ_PATHS.renderWindow)}?${new URLSearchParams(OPENING_WINDOW_QUERY)}`, auth);
  holdRead(url(DRAFT_READ_PATHS.render), { accept: 'application/json', ...auth });
  // The renderer's code, fetched and compiled meanwhile (layout/render.ts imports the same module).
  void import('docx-preview').catch(() => undefined);
}

startOpeningReads();
