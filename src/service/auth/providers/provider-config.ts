import { z } from 'zod';

/**
 * One OpenID Connect provider people may sign in with.
 *
 * Configured by the environment variable `OIDC_PROVIDERS`, a JSON array:
 *
 * ```json
 * [{"id": "google", "name": "Google", "issuer": "https://accounts.google.com",
 *   "clientId": "…apps.googleusercontent.com", "clientSecret": "…"}]
 * ```
 *
 * - `id`: lower-case letters, digits and dashes; it appears in the routes
 *   (`/api/auth/providers/{id}/start`) and in the redirect URI to register at the provider:
 *   `${PUBLIC_URL}/api/auth/providers/{id}/callback`.
 * - `name`: shown on the sign-in button ("Sign in with {name}").
 * - `issuer`: the provider's issuer identifier; its metadata is discovered from
 *   `{issuer}/.well-known/openid-configuration`. Must be https, except on a loopback host
 *   (127.0.0.1, ::1, localhost), which is allowed for local and test identity providers.
 * - `clientId`, `clientSecret`: the confidential client registered at the provider.
 * - `tokenEndpointAuthMethod` (optional): `client_secret_basic` (the OpenID default) or
 *   `client_secret_post`.
 */
export interface OidcProviderConfig {
  id: string;
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post';
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** True for an issuer on this machine, the only place plain http is accepted. */
export function isLoopbackIssuer(issuer: URL): boolean {
  return LOOPBACK_HOSTS.has(issuer.hostname);
}

const ProviderEntry = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'id must be lower-case letters, digits and dashes (at most 40)'),
  name: z.string().trim().min(1).max(60),
  issuer: z.url().refine((value) => {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackIssuer(url));
  }, 'issuer must be an https URL (plain http only on a loopback host)'),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  tokenEndpointAuthMethod: z.enum(['client_secret_basic', 'client_secret_post']).default('client_secret_basic'),
});

/** Reads `OIDC_PROVIDERS`; unset or empty means no providers. Throws with a readable message on a bad value. */
export function parseOidcProviders(raw: string | undefined): OidcProviderConfig[] {
  if (raw === undefined || raw.trim() === '') return [];
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error('OIDC_PROVIDERS must be a JSON array of {id, name, issuer, clientId, clientSecret}');
  }
  const parsed = z.array(ProviderEntry).safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new Error(`OIDC_PROVIDERS: ${first ? `${first.path.join('.')}: ${first.message}` : 'invalid'}`);
  }
  const ids = new Set<string>();
  for (const entry of parsed.data) {
    if (ids.has(entry.id)) throw new Error(`OIDC_PROVIDERS: the id "${entry.id}" is used twice`);
    ids.add(entry.id);
  }
  return parsed.data;
}
