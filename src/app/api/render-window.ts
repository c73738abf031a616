import { RENDER_WINDOW_HEADER } from '../../contract/render-window';
import { ROUTES } from '../../contract/routes';
import { OPENING_WINDOW_QUERY } from '../../contract/opening-reads';
import { ApiError, apiUrl, authHeaders, errorFromResponse } from './client';
import { takeHeldRead } from './early-reads';

export interface RenderWindow {
  bytes: Uint8Array;
  /** Where the window's first block sits in the body, and how many blocks the body has. */
  first: number;
  total: number;
}

/**
 * The draft's render variant cut to the pages around one change (see the route). `opening`: the
 * change is the one the review opened at, whose window the page's opening may have asked for
 * already (`at=here`, opening-reads.ts).
 */
export async function fetchRenderWindow(documentId: string, around: string | null, opening = false, signal?: AbortSignal): Promise<RenderWindow> {
  const spec = ROUTES.getRenderWindow;
  const headers = authHeaders();
  let response: Response;
  try {
    const held = opening ? takeHeldRead(apiUrl(spec, { params: { documentId }, query: OPENING_WINDOW_QUERY }), headers) : null;
    response = await (held ?? fetch(apiUrl(spec, { params: { documentId }, query: { around: around ?? undefined } }), { headers, signal }));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, null, 'The service could not be reached.');
  }
  if (!response.ok) throw await errorFromResponse(spec, response.status, await response.text(), response.headers.get('retry-after'));
  const [first = 0, total = 0] = (response.headers.get(RENDER_WINDOW_HEADER) ?? '').split('/').map(Number);
  return { bytes: new Uint8Array(await response.arrayBuffer()), first, total };
}
