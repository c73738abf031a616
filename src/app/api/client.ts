import type { z } from 'zod';
import { Problem } from '../../contract/problem';
import { API_BASE_PATH, routePath, type RouteSpec } from '../../contract/routes';
import { sessionStore } from '../auth/session';
import { takeHeldRead } from './early-reads';
import { ApiError } from './errors';

export { ApiError, describeError } from './errors';

type ResponseOf<S extends RouteSpec> = S['response'] extends z.ZodType ? z.output<S['response']> : void;

export interface CallOptions {
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  signal?: AbortSignal;
  /** Extra request headers (an Idempotency-Key, say). */
  headers?: Record<string, string>;
}

export function apiUrl(spec: RouteSpec, options: Pick<CallOptions, 'params' | 'query'> = {}): string {
  let url = API_BASE_PATH + routePath(spec, options.params);
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(options.query ?? {})) if (value !== undefined) query.set(key, String(value));
  if ([...query].length) url += `?${query}`;
  return url;
}

/** Headers every authenticated call carries: the bearer token and the organisation acted for. */
export function authHeaders(): Record<string, string> {
  const session = sessionStore.get();
  if (!session || session.token === '') return {};
  return { authorization: `Bearer ${session.token}`, 'x-org-id': session.orgId };
}

/** Turns a non-2xx answer into an ApiError; a 401 on an authenticated route ends the session. */
export async function errorFromResponse(spec: RouteSpec, status: number, bodyText: string, retryAfter: string | null): Promise<ApiError> {
  let problem: Problem | null = null;
  try {
    const parsed = Problem.safeParse(JSON.parse(bodyText));
    if (parsed.success) problem = parsed.data;
  } catch {
    // Not JSON: a proxy's HTML error page, say. Fall through to a generic message.
  }
  const retryAfterSeconds = problem?.retryAfterSeconds ?? (retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : null);
  if (status === 401 && spec.access !== 'public') sessionStore.expire();
  const message = problem?.detail || problem?.title || `The service answered ${status}.`;
  return new ApiError(status, problem, message, retryAfterSeconds);
}

/**
 * Sends one route's request with the session's headers; a network failure or a non-2xx answer
 * throws an ApiError. For answers whose status or headers matter (callApi reads only the body).
 */
export async function fetchRoute(spec: RouteSpec, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (spec.access !== 'public') Object.assign(headers, authHeaders());
  if (options.headers) Object.assign(headers, options.headers);
  let body: BodyInit | undefined;
  if (options.body !== undefined) {
    if (options.body instanceof FormData) body = options.body;
    else {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
  }
  let response: Response;
  try {
    const url = apiUrl(spec, options);
    // The page's opening may have asked for it already (opening-reads.ts).
    const held = spec.method === 'GET' ? takeHeldRead(url, headers) : null;
    response = await (held ?? fetch(url, { method: spec.method, headers, body, signal: options.signal }));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, null, 'The service could not be reached. Check your connection and try again.');
  }
  if (!response.ok) throw await errorFromResponse(spec, response.status, await response.text(), response.headers.get('retry-after'));
  return response;
}

/**
 * Reads a successful answer, validated against a schema (the route's response schema unless
 * told), so a drift between app and service shows up as a clear error instead of undefined
 * fields deep in the UI.
 */
export async function readAnswer<T extends z.ZodType>(spec: RouteSpec, response: Response, schema: T): Promise<z.output<T>> {
  const text = await response.text();
  const parsed = schema.safeParse(text === '' ? undefined : JSON.parse(text));
  if (!parsed.success) {
    throw new ApiError(response.status, null, `The service sent an answer this app does not understand (${spec.method} ${spec.path}).`);
  }
  return parsed.data;
}

/** Calls one route of the catalogue: the path, method and access come from ROUTES. */
export async function callApi<S extends RouteSpec>(spec: S, options: CallOptions = {}): Promise<ResponseOf<S>> {
  const response = await fetchRoute(spec, options);
  if (!spec.response) {
    await response.text();
    return undefined as ResponseOf<S>;
  }
  return (await readAnswer(spec, response, spec.response)) as ResponseOf<S>;
}

/** Downloads a binary answer (a .docx) with the session's headers; tokens never go in a URL. */
export async function downloadBlob(spec: RouteSpec, params: Record<string, string>): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(apiUrl(spec, { params }), { headers: authHeaders() });
  } catch {
    throw new ApiError(0, null, 'The service could not be reached. Check your connection and try again.');
  }
  if (!response.ok) throw await errorFromResponse(spec, response.status, await response.text(), response.headers.get('retry-after'));
  return response.blob();
}
