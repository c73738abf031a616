import type { FastifyInstance } from 'fastify';
import { ROUTES } from '../../contract/routes';
import type { ServiceContext } from '../context';
import { defineRoute } from '../http/define-route';

export function registerReadingRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  defineRoute(app, ctx.authenticate, ROUTES.readUploadText, async ({ auth, params, query }) =>
    ctx.reading.text(auth, params.uploadId!, query));
  defineRoute(app, ctx.authenticate, ROUTES.searchUploadText, async ({ auth, params, query }) =>
    ctx.reading.search(auth, params.uploadId!, { query: query.q, regex: query.regex, caseSensitive: query.caseSensitive, ...(query.view ? { view: query.view } : {}) }));
  defineRoute(app, ctx.authenticate, ROUTES.outlineUpload, async ({ auth, params, query }) =>
    ctx.reading.outline(auth, params.uploadId!, query.view));
}
