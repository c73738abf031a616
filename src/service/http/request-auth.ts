import type { FastifyRequest } from 'fastify';
import type { OrgRole } from '../../contract/auth';
import { acceptedCredentials, type RouteSpec } from '../../contract/routes';
import { resolveApiKey } from '../auth/api-keys';
import { roleIn } from '../auth/directory';
import type { SessionRecord, Sessions } from '../auth/sessions';
import type { Database } from '../store/database';
import { ProblemError } from './problem';

/** Who is calling, for which organisation. Set on every non-public request. */
export interface RequestAuth {
  userId: string;
  /** Empty on account-wide routes (access `session-no-org`), which take no x-org-id. */
  orgId: string;
  role: OrgRole;
  /** The session, or null for an organisation API key. */
  session: SessionRecord | null;
  apiKeyId: string | null;
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

function orgHeader(request: FastifyRequest): string {
  const value = request.headers['x-org-id'];
  return typeof value === 'string' ? value.trim() : '';
}

/** Resolves a bearer token that is not an ordinary session (the connector's OAuth access tokens). */
export type ExternalTokenResolver = (token: string) => Promise<SessionRecord | null>;

/** The session of a request on a session-only route (API keys never reach those). */
export function sessionOf(auth: RequestAuth): SessionRecord {
  if (!auth.session) throw new ProblemError(403, 'session_required', 'Only session tokens are accepted on this route.');
  return auth.session;
}

/**
 * Authenticates a request: a credential the route accepts (a web session, the connector's
 * token or an org API key, as the catalogue declares), and an x-org-id the user belongs
 * to, checked on every call. 401 without a valid token; 403 `session_required` for a valid
 * credential the route does not accept; 403 for an organisation that is not the caller's.
 */
export async function authenticate(
  db: Database, sessions: Sessions, request: FastifyRequest, spec: RouteSpec, resolveExternal?: ExternalTokenResolver,
): Promise<RequestAuth> {
  const token = bearerToken(request);
  if (!token) throw new ProblemError(401, 'unauthenticated', 'Sign in first: send Authorization: Bearer <session token>.');
  const accepted = acceptedCredentials(spec);
  if (token.startsWith('rlk_')) {
    if (!accepted.includes('api-key')) {
      throw new ProblemError(403, 'session_required', 'Only session tokens are accepted on this route; API keys may only create, list, read and download uploads.');
    }
    const key = await resolveApiKey(db, token);
    if (!key) throw new ProblemError(401, 'unauthenticated', 'This API key is not valid or has been revoked.');
    const orgId = orgHeader(request);
    if (!orgId) throw new ProblemError(400, 'invalid_request', 'Send the organisation you act for in the x-org-id header.');
    if (orgId !== key.orgId) throw new ProblemError(403, 'forbidden', 'This API key belongs to another organisation.');
    return { userId: key.createdByUserId ?? '', orgId, role: 'member', session: null, apiKeyId: key.id };
  }
  const session = (await sessions.resolve(db, token)) ?? (resolveExternal ? await resolveExternal(token) : null);
  if (!session) throw new ProblemError(401, 'unauthenticated', 'Your session has ended or the token is not valid. Sign in again.');
  if (!accepted.includes(session.kind)) {
    throw new ProblemError(403, 'session_required', session.kind === 'connector'
      ? 'The assistant connector may only do what its consent page named (documents, reviews, comparisons, redlines, decisions, comments); this route needs your own sign-in.'
      : 'Only the assistant connector\'s token is accepted on this route.');
  }
  if (spec.access === 'session-no-org') return { userId: session.userId, orgId: '', role: 'member', session, apiKeyId: null };
  const orgId = orgHeader(request);
  if (!orgId) throw new ProblemError(400, 'invalid_request', 'Send the organisation you act for in the x-org-id header.');
  // A connector session acts for the one organisation its grant was given for.
  if (session.orgId && session.orgId !== orgId) throw new ProblemError(403, 'forbidden', 'This connector was authorised for another organisation.');
  const role = await roleIn(db, session.userId, orgId);
  if (!role) throw new ProblemError(403, 'forbidden', 'You are not a member of the organisation in x-org-id.');
  return { userId: session.userId, orgId, role, session, apiKeyId: null };
}
