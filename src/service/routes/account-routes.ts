import type { FastifyInstance } from 'fastify';
import { ROUTES } from '../../contract/routes';
import type { ServiceContext } from '../context';
import { defineRoute } from '../http/define-route';
import { notFound } from '../http/problem';
import { sessionOf } from '../http/request-auth';

/** The signed-in user's own sessions: list, end one, end all (ASVS 5.0 7.4.3, 7.5.2). */
export function registerAccountRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  defineRoute(app, ctx.authenticate, ROUTES.listSessions, async ({ auth }) => {
    const current = sessionOf(auth).id;
    const sessions = await ctx.sessions.listOfUser(ctx.db, auth.userId);
    return {
      items: sessions.map((s) => ({
        id: s.id, kind: s.kind, client: s.client, createdAt: s.createdAt.toISOString(), lastUsedAt: s.lastUsedAt.toISOString(),
        expiresAt: s.expiresAt.toISOString(), current: s.id === current,
      })),
    };
  });

  defineRoute(app, ctx.authenticate, ROUTES.endSession, async ({ auth, params }) => {
    sessionOf(auth);
    if (!(await ctx.sessions.revokeOfUser(ctx.db, auth.userId, params.sessionId!))) throw notFound('This session');
  });

  // Effective on the next request everywhere: sessions are checked in the database on
  // every call, and the connector's grants (with their refresh tokens) go too.
  defineRoute(app, ctx.authenticate, ROUTES.signOutEverywhere, async ({ auth }) => {
    sessionOf(auth);
    const grantsRevoked = ctx.connector ? await ctx.connector.revokeAllGrantsOfUser(auth.userId) : 0;
    const sessionsEnded = await ctx.sessions.revokeAllOfUser(ctx.db, auth.userId);
    return { sessionsEnded, grantsRevoked };
  });
}
