import type { FastifyInstance } from 'fastify';

/**
 * Cross-origin access for the API, by allow-list only (CORS_ORIGINS). The SPA is served
 * from the same origin and needs none; an integrator's web app on another origin is
 * listed explicitly. Unlisted origins get no CORS headers, so browsers refuse them.
 * Credentials are bearer tokens in headers, never cookies, so none are allowed.
 */
export function installCors(app: FastifyInstance, allowedOrigins: readonly string[]): void {
  const allowed = new Set(allowedOrigins);
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (!origin || !request.url.startsWith('/api/')) return;
    reply.header('vary', 'Origin');
    if (!allowed.has(origin)) {
      if (request.method === 'OPTIONS') return reply.code(403).send();
      return;
    }
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-expose-headers', 'Retry-After, Content-Disposition, Idempotent-Replayed, Redline-Changes, Preference-Applied, ETag');
    if (request.method === 'OPTIONS') {
      reply.header('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE');
      reply.header('access-control-allow-headers', 'Authorization, Content-Type, x-org-id, mcp-session-id, mcp-protocol-version, Idempotency-Key, Last-Event-ID, Prefer');
      reply.header('access-control-max-age', '600');
      return reply.code(204).send();
    }
  });
}
