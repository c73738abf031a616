import type { FastifyInstance } from 'fastify';
import { ROUTES } from '../../contract/routes';
import type { ServiceContext } from '../context';
import { defineRoute } from '../http/define-route';

export function registerChecksRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { checks } = ctx;
  defineRoute(app, ctx.authenticate, ROUTES.checkDocument, async ({ auth, params, query }) =>
    checks.checks(auth, params.documentId!, query.view));
  defineRoute(app, ctx.authenticate, ROUTES.proposeCheckFixes, async ({ auth, params, body }) =>
    checks.propose(auth, params.documentId!, body.findingIds));
}
