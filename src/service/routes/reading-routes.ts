import type { FastifyInstance } from 'fastify';
import { ROUTES } from '../../contract/routes';
import type { ServiceContext } from '../context';
import { defineRoute } from '../http/define-route';

export function registerReadingRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  defineRoute(app, ctx.authenticate, ROUTES.readUploadText, async ({ auth, params, query }) =>
    ctx.reading.text(auth, params.uploadId!, query));
}
