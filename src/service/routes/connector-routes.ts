import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ROUTES } from '../../contract/routes';
import { roleIn } from '../auth/directory';
import type { Connector } from '../connector/connector';
import { createMcpServer } from '../connector/mcp-tools';
import { OAUTH_PREFIX } from '../connector/oauth-server';
import type { ServiceContext } from '../context';
import { defineRoute } from '../http/define-route';
import { sendProblem } from '../http/error-handler';
import { ProblemError } from '../http/problem';
import { bearerToken } from '../http/request-auth';

/** The consent routes' path: the browser-binding cookie is sent only there. */
const CONSENT_COOKIE_PATH = '/api/auth/connector';
const bindingCookie = (uid: string) => `redline_connector_${uid}`;

function hasCookie(request: FastifyRequest, name: string): boolean {
  const header = request.headers.cookie ?? '';
  return header.split(';').some((part) => part.trim() === `${name}=1`);
}

/** Metadata is the same for every caller (built from PUBLIC_URL, never from the request), so caches may keep it. */
const METADATA_CACHE_CONTROL = 'public, max-age=3600';

/**
 * oidc-provider builds every absolute URL it answers (discovery's endpoints, the resume URL
 * the consent page sends the browser to) from the request's Host and, behind a trusted
 * proxy, X-Forwarded-Host/-Proto. A caller chooses those headers; PUBLIC_URL is the
 * address people open. So each request reaches it as a request to PUBLIC_URL: Host and
 * X-Forwarded-Host are PUBLIC_URL's host, X-Forwarded-Proto its scheme (the provider
 * trusts only these, see oauth-server.ts), and X-Forwarded-For is dropped unless the
 * service trusts its proxy.
 */
function atPublicUrl(raw: IncomingMessage, publicUrl: URL, trustProxy: boolean): void {
  raw.headers.host = publicUrl.host;
  raw.headers['x-forwarded-host'] = publicUrl.host;
  raw.headers['x-forwarded-proto'] = publicUrl.protocol.slice(0, -1);
  if (!trustProxy) delete raw.headers['x-forwarded-for'];
}

/**
 * The assistant connector's HTTP surface:
 * - oidc-provider's endpoints under /oauth (authorize, token, registration, revocation,
 *   jwks), handed the raw request (Fastify parses no body there) and the raw reply;
 * - /.well-known metadata: RFC 8414 authorization server (and its OpenID alias), RFC 9728
 *   protected resource (at the root and path-aware for /api/mcp);
 * - GET /oauth/interaction/:uid, where the authorization endpoint sends the browser: it
 *   checks the browser holds oidc-provider's cookie for that interaction, binds the
 *   interaction to the browser with our own cookie (path /api/auth/connector, so only
 *   the two consent routes see it), and goes on to the SPA's /connector/authorize page;
 * - the catalogue's consent routes and the MCP endpoint.
 */
export function registerConnectorRoutes(app: FastifyInstance, ctx: ServiceContext, connector: Connector): void {
  const provider = connector.provider;
  const publicUrl = new URL(connector.issuer);
  const handle = provider.callback();
  const secureCookies = connector.issuer.startsWith('https:');

  void app.register(async (scope) => {
    // oidc-provider reads its own bodies (form-encoded token requests, JSON registration).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const forward = async (request: FastifyRequest, reply: FastifyReply) => {
      atPublicUrl(request.raw, publicUrl, ctx.config.trustProxy);
      reply.hijack();
      await handle(request.raw, reply.raw);
    };
    const metadata = async (request: FastifyRequest, reply: FastifyReply) => {
      // RFC 8414 metadata is the same document as OpenID discovery (a superset of it).
      request.raw.url = '/.well-known/openid-configuration';
      reply.raw.setHeader('cache-control', METADATA_CACHE_CONTROL);
      return forward(request, reply);
    };
    scope.all(`${OAUTH_PREFIX}/*`, forward);
    scope.get('/.well-known/openid-configuration', metadata);
    scope.get('/.well-known/oauth-authorization-server', metadata);
  });

  const resourceMetadata = async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', METADATA_CACHE_CONTROL);
    return connector.protectedResourceMetadata();
  };
  app.get('/.well-known/oauth-protected-resource', resourceMetadata);
  app.get(`/.well-known/oauth-protected-resource${new URL(connector.resource).pathname}`, resourceMetadata);

  app.get<{ Params: { uid: string } }>(`${OAUTH_PREFIX}/interaction/:uid`, async (request, reply) => {
    const { uid } = request.params;
    let interaction;
    try {
      interaction = await provider.interactionDetails(request.raw, reply.raw);
    } catch {
      interaction = null;
    }
    if (!interaction || interaction.uid !== uid) {
      return reply.redirect(`/connector/authorize?error=interaction_expired`, 303);
    }
    const maxAge = Math.max(0, interaction.exp - Math.floor(Date.now() / 1000));
    reply.header('set-cookie', `${bindingCookie(uid)}=1; Path=${CONSENT_COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secureCookies ? '; Secure' : ''}`);
    return reply.redirect(`/connector/authorize?interaction=${encodeURIComponent(uid)}`, 303);
  });

  defineRoute(app, ctx.authenticate, ROUTES.connectorInteraction, async ({ request, params }) =>
    connector.describeInteraction(params.interaction!, hasCookie(request, bindingCookie(params.interaction!))));

  defineRoute(app, ctx.authenticate, ROUTES.connectorConsent, async ({ request, auth, body }) => {
    // Only a person's own sign-in may connect an assistant; a connector's token may not approve another.
    if (auth.session?.kind !== 'web') throw new ProblemError(403, 'session_required', 'Approve the assistant with your own sign-in, not a connector token.');
    const redirectTo = await connector.answerConsent(auth.userId, body, hasCookie(request, bindingCookie(body.interaction)));
    return { redirectTo };
  });

  /** The connector session of an MCP request, or a 401 naming the resource metadata (RFC 9728 section 5.1). */
  const mcpCaller = async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerToken(request);
    const session = token ? await connector.resolveAccessToken(token) : null;
    const role = session?.orgId ? await roleIn(ctx.db, session.userId, session.orgId) : null;
    if (session && session.orgId && role) return { userId: session.userId, orgId: session.orgId };
    reply.header('www-authenticate',
      `Bearer resource_metadata="${connector.resourceMetadataUrl}", scope="documents"${token ? ', error="invalid_token"' : ''}`);
    sendProblem(reply, new ProblemError(401, 'unauthenticated', token
      ? 'This access token is not valid here: expired, revoked, or issued for another resource. Authorize the connector again.'
      : 'Authorize the connector first (OAuth 2.0, see the WWW-Authenticate header).'));
    return null;
  };

  defineRoute(app, ctx.authenticate, ROUTES.mcpPost, async ({ request, reply }) => {
    const actor = await mcpCaller(request, reply);
    if (!actor) return reply;
    // Stateless Streamable HTTP: a server and transport per request, so any instance can
    // answer any request and nothing lives in memory between them.
    const server = createMcpServer(actor, ctx);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
    return reply;
  });

  const noStream = async ({ request, reply }: { request: FastifyRequest; reply: FastifyReply }) => {
    if (!(await mcpCaller(request, reply))) return reply;
    // Stateless: no server-initiated stream and no MCP session to end (MCP allows 405 for both).
    reply.header('allow', 'POST');
    return sendProblem(reply, new ProblemError(405, 'method_not_allowed', 'This MCP endpoint is stateless: send every message with POST.'));
  };
  defineRoute(app, ctx.authenticate, ROUTES.mcpGet, noStream);
  defineRoute(app, ctx.authenticate, ROUTES.mcpDelete, noStream);
}
