import type { FastifyInstance } from 'fastify';
import { ROUTES } from '../../contract/routes';
import type { ServiceContext } from '../context';
import { defineRoute } from '../http/define-route';
import { ProblemError } from '../http/problem';

/**
 * Development outbox only, and only where nobody but this machine reaches the service (or
 * DEV_OUTBOX=true, see config.ts): anywhere else this route does not exist at all.
 */
export function registerDevRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const outbox = ctx.outbox;
  if (!outbox || !ctx.config.devMailbox) return;
  defineRoute(app, ctx.authenticate, ROUTES.devMailbox, async ({ query }) => {
    const message = await outbox.newestTo(query.to);
    if (!message) throw new ProblemError(404, 'not_found', `No message has been sent to ${query.to}.`);
    return { id: message.id, to: message.to, subject: message.subject, text: message.text, code: message.code, sentAt: message.sentAt.toISOString() };
  });
}
