import type { FastifyInstance } from 'fastify';
import { CHANGES_HEADER } from '../../contract/compare';
import { ROUTES } from '../../contract/routes';
import type { ServiceContext } from '../context';
import { defineRoute } from '../http/define-route';

/** Comparing two versions into a working draft, and the untracked-edit check of a version (issue 12). */
export function registerCompareRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { comparisons, untracked } = ctx;

  defineRoute(app, ctx.authenticate, ROUTES.compareVersions, async ({ auth, params, body, reply, timing }) => {
    const draft = await timing.measure('compare', () => comparisons.compare(auth, params.uploadId!, body));
    reply.header(CHANGES_HEADER, String(draft.changes));
    return draft.document;
  });

  defineRoute(app, ctx.authenticate, ROUTES.getUntracked, async ({ auth, params, reply }) => {
    const answer = await untracked.report(auth.orgId, params.uploadId!);
    if (answer.state === 'ready') return answer.report;
    return reply.code(202).header('retry-after', String(answer.retryAfterSeconds)).header('cache-control', 'no-store').send(answer);
  });

  defineRoute(app, ctx.authenticate, ROUTES.untrackedWorkingDraft, async ({ auth, params, reply, timing }) => {
    const draft = await timing.measure('compare', () => comparisons.untrackedWorkingDraft(auth, params.uploadId!));
    reply.header(CHANGES_HEADER, String(draft.changes));
    return draft.document;
  });
}
