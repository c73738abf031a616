import Provider, { errors } from 'oidc-provider';
import { findUserById } from '../auth/directory';
import { ProblemError } from '../http/problem';
import type { Database } from '../store/database';
import type { ConnectorKeys } from './connector-keys';
import { createOAuthAdapterClass, type GrantEvents } from './oauth-adapter';
import { redirectUriRefusal } from './redirect-uri-policy';
import type { OidcErrorOut, OidcProvider } from './oidc-provider-types';

/** The one scope of the connector's resource: everything its tools do (see CONNECTOR_ABILITIES). */
export const CONNECTOR_SCOPE = 'documents';

/** Lifetimes, in seconds. Codes and access tokens as the issue asks; refresh tokens and grants as web sessions. */
export const CONNECTOR_TTL = {
  authorizationCode: 10 * 60,
  accessToken: 60 * 60,
  /** Time to sign in with an e-mail code and consent. */
  interaction: 30 * 60,
  refreshToken: 30 * 24 * 3600,
  grant: 30 * 24 * 3600,
  /** oidc-provider's own browser session; short, since our sign-in page is the real one. */
  session: 60 * 60,
} as const;

/** Where oidc-provider's endpoints live (everything but discovery is under /oauth). */
export const OAUTH_PREFIX = '/oauth';

/** The page the authorization endpoint sends the browser to (see connector-routes). */
export const interactionPath = (uid: string) => `${OAUTH_PREFIX}/interaction/${uid}`;

export interface OAuthServerOptions {
  issuer: string;
  /** The protected resource: `${publicUrl}/api/mcp`, the only audience tokens are issued for. */
  resource: string;
  db: Database;
  keys: ConnectorKeys;
  grantEvents: GrantEvents;
}

/** Problem details for what oidc-provider cannot send back to the client's redirect URI. */
function problemOf(out: OidcErrorOut): ProblemError {
  const description = out.error_description ?? out.error;
  if (out.error === 'invalid_client') return new ProblemError(400, 'invalid_client', `Unknown or invalid client: ${description}.`);
  if (out.error === 'invalid_redirect_uri') {
    return new ProblemError(400, 'invalid_redirect_uri', `The redirect_uri is not one this client registered (it must match exactly): ${description}.`);
  }
  if (out.error === 'invalid_request' && /interaction/i.test(description)) {
    return new ProblemError(400, 'interaction_expired', `This authorization has expired or was started in another browser (${description}). Start again from the assistant.`);
  }
  return new ProblemError(400, 'oauth_error', `${out.error}: ${description}.`);
}

/**
 * The connector's OAuth 2.0 authorization server: oidc-provider, configured down to what
 * MCP authorization needs. Authorization code with PKCE (S256 only, always required),
 * dynamic client registration (RFC 7591), resource indicators (RFC 8707) with our MCP
 * endpoint as the one resource, opaque access tokens for an hour, rotating refresh tokens,
 * codes for ten minutes, single use. Redirect URIs match exactly (oidc-provider compares
 * the registered strings). Its HTML pages are not used: interactions go to our SPA, and
 * errors it cannot redirect are answered as problem details.
 */
export function createOAuthServer(options: OAuthServerOptions): OidcProvider {
  const { issuer, resource, db, keys } = options;
  const routes = Object.fromEntries(
    ['authorization', 'token', 'registration', 'jwks', 'revocation', 'end_session', 'userinfo', 'introspection',
      'pushed_authorization_request', 'device_authorization', 'code_verification', 'backchannel_authentication', 'challenge', 'credential']
      .map((name) => [name, `${OAUTH_PREFIX}/${name === 'authorization' ? 'auth' : name === 'registration' ? 'reg' : name.replace(/_/g, '-')}`]),
  );

  const provider = new Provider(issuer, {
    adapter: createOAuthAdapterClass(db, (description) => new errors.InvalidGrant!(description), options.grantEvents),
    clients: [],
    jwks: keys.jwks,
    cookies: { keys: keys.cookieKeys, long: { httpOnly: true, sameSite: 'lax' }, short: { httpOnly: true, sameSite: 'lax' } },
    // Accounts are our users; the connector asks for no claims beyond the subject.
    async findAccount(_ctx: unknown, id: string) {
      const user = await findUserById(db, id);
      return user ? { accountId: id, claims: async () => ({ sub: id }) } : undefined;
    },
    // `documents` is the resource's scope; listed here too because dynamic registration
    // accepts only these in a client's `scope` metadata, which MCP clients fill from it.
    scopes: ['openid', 'offline_access', CONNECTOR_SCOPE],
    claims: { openid: ['sub'] },
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] },
    // oidc-provider lets a web client register http redirect URIs on any host; OAuth 2.1 and
    // MCP allow http only on loopback. Listing redirect_uris here makes its validator run for
    // every client, registered now or loaded from storage.
    extraClientMetadata: {
      properties: ['redirect_uris'],
      validator(_ctx: unknown, key: string, value: unknown) {
        if (key !== 'redirect_uris' || !Array.isArray(value)) return;
        for (const uri of value) {
          const refusal = redirectUriRefusal(String(uri));
          // Described from "redirect_uris", oidc-provider answers RFC 7591's invalid_redirect_uri.
          if (refusal) throw new errors.InvalidClientMetadata!(`redirect_uris: ${refusal}`);
        }
      },
    },
    routes,
    ttl: {
      AuthorizationCode: CONNECTOR_TTL.authorizationCode,
      AccessToken: CONNECTOR_TTL.accessToken,
      IdToken: CONNECTOR_TTL.accessToken,
      Interaction: CONNECTOR_TTL.interaction,
      RefreshToken: CONNECTOR_TTL.refreshToken,
      Grant: CONNECTOR_TTL.grant,
      Session: CONNECTOR_TTL.session,
    },
    // A refresh token is good once: each use answers a new one and consumes the old
    // (reuse of a consumed one revokes the whole grant, as oidc-provider does).
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) => client.grantTypeAllowed('refresh_token'),
    // The connector's tokens outlive oidc-provider's short browser session; they end with their grant.
    expiresWithSession: async () => false,
    interactions: { url: async (_ctx: unknown, interaction: { uid: string }) => interactionPath(interaction.uid) },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      rpInitiatedLogout: { enabled: false },
      userinfo: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => resource,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx: unknown, indicator: string) => {
          if (indicator !== resource) throw new errors.InvalidTarget!(`this server issues tokens only for ${resource}`);
          return { scope: CONNECTOR_SCOPE, audience: resource, accessTokenTTL: CONNECTOR_TTL.accessToken, accessTokenFormat: 'opaque' };
        },
      },
    },
    async renderError(ctx: { status: number; type: string; body: unknown }, out: OidcErrorOut) {
      const problem = problemOf(out).toProblem();
      ctx.type = 'application/problem+json';
      ctx.body = { ...problem, status: ctx.status >= 400 ? ctx.status : problem.status, error: out.error };
    },
  }) as OidcProvider;
  // Every request reaches it with Host and X-Forwarded-Host/-Proto set to PUBLIC_URL's by
  // connector-routes (atPublicUrl), whoever sent it: those are the only headers it trusts.
  provider.proxy = true;
  return provider;
}
