import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { clientString } from '../../contract/client-text';
import { API_BASE_PATH, type RouteSpec } from '../../contract/routes';
import { zodProblem } from './error-handler';
import type { RequestAuth } from './request-auth';
import { ServerTiming } from './server-timing';

/** Path parameters are text a client sends like any other (an id holding U+0000 would reach the database). */
const PathParams = z.record(z.string(), clientString());

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

export interface RouteContext<S extends RouteSpec> {
  request: FastifyRequest;
  reply: FastifyReply;
  params: Record<string, string>;
  body: S['bodyKind'] extends 'json' ? Infer<S['body']> : undefined;
  query: Infer<S['query']>;
  /** Set for every route that is not public (or that checks its own credentials). */
  auth: S['access'] extends 'public' | 'own' ? null : RequestAuth;
  /** Phases measured here are answered in the Server-Timing header. */
  timing: ServerTiming;
}

export type Authenticator = (request: FastifyRequest, spec: RouteSpec) => Promise<RequestAuth>;

/**
 * Registers the handler of one catalogue route: authenticates as the spec says,
 * validates query and JSON body with the contract's schemas (400 problem details
 * naming each field), and answers the handler's value with the spec's status.
 * A handler that answers bytes or headers itself sends them and returns the reply.
 */
export function defineRoute<S extends RouteSpec>(
  app: FastifyInstance,
  authenticator: Authenticator,
  spec: S,
  handler: (ctx: RouteContext<S>) => Promise<unknown>,
  options: { logLevel?: 'warn' | 'info' | 'debug' } = {},
): void {
  const url = API_BASE_PATH + spec.path.replace(/\{(\w+)\}/g, ':$1');
  app.route({
    method: spec.method,
    url,
    ...(options.logLevel ? { logLevel: options.logLevel } : {}),
    handler: async (request, reply) => {
      const auth = spec.access === 'public' || spec.access === 'own' ? null : await authenticator(request, spec);
      const params = request.params as Record<string, string>;
      const parsedParams = PathParams.safeParse(params);
      if (!parsedParams.success) throw zodProblem(parsedParams.error, 'path');
      let query: unknown;
      if (spec.query) {
        const parsed = spec.query.safeParse(request.query ?? {});
        if (!parsed.success) throw zodProblem(parsed.error, 'query string');
        query = parsed.data;
      }
      let body: unknown;
      if (spec.bodyKind === 'json' && spec.body) {
        if (request.body === undefined || request.body === null) throw zodProblem(emptyBodyError(spec.body));
        const parsed = spec.body.safeParse(request.body);
        if (!parsed.success) throw zodProblem(parsed.error);
        body = parsed.data;
      }
      const timing = new ServerTiming();
      const ctx = { request, reply, params, body, query, auth, timing } as RouteContext<S>;
      const result = await handler(ctx);
      // A handler that answered itself (bytes, a stream, a hijacked MCP exchange, a problem it
      // sent) is done: its returned reply is a thenable, so `await` above has already waited
      // for the answer to finish and `result` is not the reply. Answering again would only log
      // FST_ERR_REP_ALREADY_SENT.
      if (reply.sent || reply.raw.headersSent) return reply;
      const phases = timing.header();
      if (phases) reply.header('server-timing', phases);
      if (result === undefined) return reply.code(spec.status).send();
      return reply.code(spec.status).send(result);
    },
  });
}

function emptyBodyError(schema: z.ZodType): z.ZodError {
  const result = schema.safeParse(undefined);
  return result.success ? (schema.safeParse(null) as { error: z.ZodError }).error : result.error;
}
