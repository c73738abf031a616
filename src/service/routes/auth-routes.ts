import type { FastifyInstance } from 'fastify';
import type { SessionGrant } from '../../contract/auth';
import { ROUTES } from '../../contract/routes';
import { findUserById, orgsOfUser } from '../auth/directory';
import type { ServiceContext } from '../context';
import { defineRoute } from '../http/define-route';
import { ProblemError } from '../http/problem';
import { sessionOf } from '../http/request-auth';

const ACCEPTED_DETAIL = 'A code is on its way to this address if it can be used here. It works once, for 10 minutes.';

export function registerAuthRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  defineRoute(app, ctx.authenticate, ROUTES.requestSignInCode, async ({ body, request }) => {
    await ctx.codes.request(body.identifier, request.ip, 'sign_in');
    return { status: 'accepted', detail: ACCEPTED_DETAIL };
  });

  defineRoute(app, ctx.authenticate, ROUTES.requestSignUpCode, async ({ body, request }) => {
    if (!ctx.config.signUpOpen) {
      throw new ProblemError(403, 'forbidden', 'Sign-up is closed on this service. Ask an owner of your organisation to invite you.');
    }
    // Same answer whether or not the address has an account: an existing user gets a sign-in code.
    await ctx.codes.request(body.identifier, request.ip, 'sign_up', { name: body.name, organisation: body.organisation });
    return { status: 'accepted', detail: ACCEPTED_DETAIL };
  });

  defineRoute(app, ctx.authenticate, ROUTES.verifyCode, async ({ body, request }): Promise<SessionGrant> => {
    const identity = await ctx.codes.verify(body.identifier, body.code, request.ip);
    return issueSession(ctx, identity.userId, 'web', clientOf(request.headers['user-agent']));
  });

  defineRoute(app, ctx.authenticate, ROUTES.signOut, async ({ auth }) => {
    await ctx.sessions.revoke(ctx.db, sessionOf(auth).id);
  });

  defineRoute(app, ctx.authenticate, ROUTES.describeSession, async ({ auth }) => {
    const session = sessionOf(auth);
    const user = await findUserById(ctx.db, auth.userId);
    if (!user) throw new ProblemError(401, 'unauthenticated', 'This account no longer exists.');
    return {
      id: session.id,
      kind: session.kind,
      user,
      orgs: await orgsOfUser(ctx.db, auth.userId),
      createdAt: session.createdAt.toISOString(),
      lastUsedAt: session.lastUsedAt.toISOString(),
      expiresAt: session.expiresAt.toISOString(),
    };
  });
}

/** A fresh session for a user who has just proved who they are. */
export async function issueSession(ctx: ServiceContext, userId: string, kind: 'web' | 'connector', client: string | null): Promise<SessionGrant> {
  const user = await findUserById(ctx.db, userId);
  const orgs = await orgsOfUser(ctx.db, userId);
  const first = orgs[0];
  if (!user || !first) throw new ProblemError(403, 'forbidden', 'This account belongs to no organisation. Ask an owner to invite you.');
  const { token, session } = await ctx.sessions.create(ctx.db, userId, kind, client);
  return { session_token: token, orgId: first.id, user, orgs, expiresAt: session.expiresAt.toISOString() };
}

function clientOf(userAgent: string | undefined): string | null {
  return userAgent ? userAgent.slice(0, 200) : null;
}
