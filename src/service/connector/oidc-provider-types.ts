/**
 * The part of oidc-provider 9's API this service uses. The package ships no type
 * declarations; these follow its documentation and lib/ sources (lib/provider.js,
 * lib/models/*.js, the adapter contract of lib/adapters/memory_adapter.js).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface AdapterPayload {
  grantId?: string;
  userCode?: string;
  uid?: string;
  consumed?: number;
  [key: string]: unknown;
}

export interface OidcAdapter {
  upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>;
  find(id: string): Promise<AdapterPayload | undefined>;
  findByUid(uid: string): Promise<AdapterPayload | undefined>;
  findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

export interface OidcClient {
  clientId: string;
  clientName?: string;
  redirectUris: string[];
  grantTypeAllowed(type: string): boolean;
}

export interface OidcInteraction {
  uid: string;
  exp: number;
  returnTo: string;
  grantId?: string;
  params: Record<string, unknown> & { client_id: string; redirect_uri?: string; scope?: string; resource?: string | string[] };
  prompt: { name: string; reasons: string[]; details: { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> } };
  result?: unknown;
  save(ttl: number): Promise<string>;
}

export interface OidcGrant {
  jti: string;
  accountId: string;
  clientId: string;
  addOIDCScope(scope: string): void;
  addResourceScope(resource: string, scope: string): void;
  save(): Promise<string>;
  destroy(): Promise<void>;
}

export interface OidcAccessToken {
  jti: string;
  accountId: string;
  clientId: string;
  grantId: string;
  aud?: string | string[];
  scope?: string;
  isExpired: boolean;
  consumed?: number;
}

interface OidcModel<T> {
  find(id: string, options?: { ignoreExpiration?: boolean }): Promise<T | undefined>;
}

export interface OidcProvider {
  issuer: string;
  proxy: boolean;
  callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  on(event: string, listener: (...args: unknown[]) => void): void;
  /** The interaction of a request, found by its `_interaction` cookie; throws when the browser holds none for it. */
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<OidcInteraction>;
  Interaction: OidcModel<OidcInteraction>;
  Client: OidcModel<OidcClient>;
  Grant: OidcModel<OidcGrant> & (new (fields: { accountId: string; clientId: string }) => OidcGrant);
  AccessToken: OidcModel<OidcAccessToken> & (new (fields: Record<string, unknown>) => OidcAccessToken & { save(): Promise<string> });
}

export interface OidcErrorOut {
  error: string;
  error_description?: string;
  state?: string;
}
