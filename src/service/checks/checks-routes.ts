import type { FastifyInstance } from 'fastify';
import { ROUTES } from '../../contract/routes';
import type { ServiceContext } from '../context';
import { defineRoute } from '../http/define-route';
import type { ChecksService } from './checks-service';

export function registerChecksRoutes(app: FastifyInstance, ctx: ServiceContext, checks: ChecksService): void {
  defineRoute(app, ctx.authenticate, ROUTES.checkDocument, async ({ auth, params, query }) =>
    checks.checks(auth, params.documentId!, query.view));
}
