import type { FastifyInstance } from 'fastify';

/**
 * Headers on every answer. The SPA's policy allows only our own scripts and styles;
 * docx-preview renders into the page with inline style attributes and data: images
 * (embedded pictures), which is why style-src and img-src are wider than script-src.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    return payload;
  });
}
