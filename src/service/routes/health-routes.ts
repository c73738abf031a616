import type { FastifyInstance } from 'fastify';
import { PROBLEM_CONTENT_TYPE, problemType } from '../../contract/problem';
import { ROUTES } from '../../contract/routes';
import type { ServiceContext } from '../context';
import { defineRoute } from '../http/define-route';
import type { Readiness } from '../health/readiness';

/**
 * Health routes for process supervisors and load balancers: outside authentication, cheap,
 * and logged only at warn level (a check every second would otherwise fill the log).
 */
export function registerHealthRoutes(app: FastifyInstance, ctx: ServiceContext, readiness: Readiness): void {
  const quiet = { logLevel: 'warn' } as const;
  defineRoute(app, ctx.authenticate, ROUTES.healthLive, async ({ reply }) => {
    reply.header('cache-control', 'no-store');
    return { state: 'live' as const };
  }, quiet);
  defineRoute(app, ctx.authenticate, ROUTES.healthReady, async ({ reply }) => {
    const answer = await readiness.check();
    reply.header('cache-control', 'no-store');
    if (answer.state === 'ready') return answer;
    const detail = answer.state === 'draining'
      ? 'This instance is shutting down; it finishes the requests it has and takes no new ones.'
      : `A dependency did not answer: ${Object.entries(answer.checks).filter(([, c]) => !c.ok).map(([name, c]) => `${name} (${c.error})`).join(', ')}.`;
    return reply.code(503).header('retry-after', '1').type(PROBLEM_CONTENT_TYPE).send({
      type: problemType('not_ready'), title: 'Service unavailable', status: 503, detail, code: 'not_ready', ...answer,
    });
  }, quiet);
}
