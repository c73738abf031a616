import type { FastifyRequest } from 'fastify';
import type { OrgRole } from '../../contract/auth';
import type { RouteAccess } from '../../contract/routes';
import { roleIn } from '../auth/directory';
import type { SessionRecord, Sessions } from '../auth/sessions';
import type { Database } from '../store/database';
import { ProblemError } from './problem';

/** Who is calling, for which organisation. Set on every non-public request. */
export interface RequestAuth {
  userId: string;
  orgId: string;
  role: OrgRole;
  session: SessionRecord;
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * Authenticates a request: a live session token, and an x-org-id the user belongs to,
 * checked on every call. 401 without a valid token; 403 for an organisation that is
 * not the user's.
 */
export async function authenticate(db: Database, sessions: Sessions, request: FastifyRequest, access: RouteAccess): Promise<RequestAuth> {
  const token = bearerToken(request);
  if (!token) throw new ProblemError(401, 'unauthenticated', 'Sign in first: send Authorization: Bearer <session token>.');
  if (token.startsWith('rlk_')) {
    throw access === 'session-or-api-key'
      ? new ProblemError(401, 'unauthenticated', 'This API key is not valid.')
      : new ProblemError(403, 'session_required', 'Only session tokens are accepted on this route; API keys are not.');
  }
  const session = await sessions.resolve(db, token);
  if (!session) throw new ProblemError(401, 'unauthenticated', 'Your session has ended or the token is not valid. Sign in again.');
  const orgHeader = request.headers['x-org-id'];
  const orgId = typeof orgHeader === 'string' ? orgHeader.trim() : '';
  if (!orgId) throw new ProblemError(400, 'invalid_request', 'Send the organisation you act for in the x-org-id header.');
  const role = await roleIn(db, session.userId, orgId);
  if (!role) throw new ProblemError(403, 'forbidden', 'You are not a member of the organisation in x-org-id.');
  return { userId: session.userId, orgId, role, session };
}
