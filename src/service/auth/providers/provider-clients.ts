import * as oidc from 'openid-client';
import { isLoopbackIssuer, type OidcProviderConfig } from './provider-config';

/** How long discovered metadata (endpoints, JWKS location) is reused before asking again. */
const METADATA_TTL_MS = 60 * 60_000;
/** Every request to a provider (discovery, token, JWKS, userinfo) gives up after this long. */
const REQUEST_TIMEOUT_SECONDS = 10;

/**
 * openid-client configurations, one per provider, discovered on first use and cached in
 * memory. The cache is only a cache: any instance can rebuild it, so nothing another
 * instance needs lives here. A failed discovery is not cached (the next sign-in retries).
 */
export class ProviderClients {
  private readonly cache = new Map<string, { config: Promise<oidc.Configuration>; at: number }>();

  constructor(private readonly providers: () => readonly OidcProviderConfig[]) {}

  find(id: string): OidcProviderConfig | null {
    return this.providers().find((p) => p.id === id) ?? null;
  }

  async configuration(provider: OidcProviderConfig): Promise<oidc.Configuration> {
    const cached = this.cache.get(provider.id);
    if (cached && Date.now() - cached.at < METADATA_TTL_MS) return cached.config;
    const config = discover(provider);
    this.cache.set(provider.id, { config, at: Date.now() });
    config.catch(() => {
      if (this.cache.get(provider.id)?.config === config) this.cache.delete(provider.id);
    });
    return config;
  }
}

async function discover(provider: OidcProviderConfig): Promise<oidc.Configuration> {
  const issuer = new URL(provider.issuer);
  const auth = provider.tokenEndpointAuthMethod === 'client_secret_post'
    ? oidc.ClientSecretPost(provider.clientSecret)
    : oidc.ClientSecretBasic(provider.clientSecret);
  const execute: ((config: oidc.Configuration) => void)[] = [
    // The ID token comes from the token endpoint over TLS, which OpenID Connect accepts in
    // place of a signature check; we check the signature as well (against the provider's JWKS).
    oidc.enableNonRepudiationChecks,
  ];
  // openid-client refuses plain http unless told otherwise. Configuration only lets http
  // through for a loopback issuer (a local or test identity provider), never for a remote one.
  if (issuer.protocol === 'http:' && isLoopbackIssuer(issuer)) execute.push(oidc.allowInsecureRequests);
  return oidc.discovery(issuer, provider.clientId, undefined, auth, { execute, timeout: REQUEST_TIMEOUT_SECONDS });
}
