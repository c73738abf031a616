import { RENDER_WINDOW_HEADER } from '../../contract/render-window';
import { ROUTES } from '../../contract/routes';
import { ApiError, apiUrl, authHeaders, errorFromResponse } from './client';

export interface RenderWindow {
  bytes: Uint8Array;
  /** Where the window's first block sits in the body, and how many blocks the body has. */
  first: number;
  total: number;
}

/** The draft's render variant cut to the pages around one change (see the route). */
export async function fetchRenderWindow(documentId: string, around: string | null, signal?: AbortSignal): Promise<RenderWindow> {
  const spec = ROUTES.getRenderWindow;
  let response: Response;
  try {
    response = await fetch(apiUrl(spec, { params: { documentId }, query: { around: around ?? undefined } }), { headers: authHeaders(), signal });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, null, 'The service could not be reached.');
  }
  if (!response.ok) throw await errorFromResponse(spec, response.status, await response.text(), response.headers.get('retry-after'));
  const [first = 0, total = 0] = (response.headers.get(RENDER_WINDOW_HEADER) ?? '').split('/').map(Number);
  return { bytes: new Uint8Array(await response.arrayBuffer()), first, total };
}
