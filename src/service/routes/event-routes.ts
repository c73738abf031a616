import type { FastifyInstance } from 'fastify';
import { LAST_EVENT_ID_HEADER } from '../../contract/events';
import { ROUTES } from '../../contract/routes';
import type { ServiceContext } from '../context';
import { defineRoute } from '../http/define-route';
import { notFound, ProblemError } from '../http/problem';
import type { ReviewEvents } from '../live/review-events';
import { findUpload } from '../uploads/upload-rows';

/**
 * GET /documents/{id}/events: the draft's decision-log entries as Server-Sent Events,
 * authenticated like every document route (Authorization and x-org-id headers: the app
 * reads it with fetch streaming, so no token ever goes in a URL). A reconnect sends
 * Last-Event-ID and gets every entry after it.
 */
export function registerEventRoutes(app: FastifyInstance, ctx: ServiceContext, events: ReviewEvents): void {
  defineRoute(app, ctx.authenticate, ROUTES.reviewEvents, async ({ request, reply, auth, params }) => {
    const row = await findUpload(ctx.db, auth.orgId, params.documentId!);
    if (!row) throw notFound('This document');
    if (row.version_kind !== 'working_draft') {
      throw new ProblemError(409, 'not_working_draft', 'Only a working draft has a review to follow; start one from this version first.');
    }
    const header = request.headers[LAST_EVENT_ID_HEADER];
    let lastEventId: number | null = null;
    if (header !== undefined) {
      if (typeof header !== 'string' || !/^\d{1,9}$/.test(header.trim())) {
        throw new ProblemError(400, 'invalid_request', 'Last-Event-ID must be the id of an event this stream sent (a log sequence number).',
          { errors: [{ path: 'Last-Event-ID', message: 'not a log sequence number' }] });
      }
      lastEventId = Number(header.trim());
    }
    // A session that ends (sign-out, sign out everywhere, expiry) ends its streams within a minute (checked every sixth heartbeat).
    const stillAuthorised = () => ctx.authenticate(request, ROUTES.reviewEvents).then(() => true, (error: unknown) => !(error instanceof ProblemError));
    await events.open(reply, row.id, auth.userId, lastEventId, stillAuthorised);
    return reply;
  });

  // Fastify's close waits for open connections: end the streams first (SIGTERM, tests).
  app.addHook('preClose', async () => events.closeAll());
}
