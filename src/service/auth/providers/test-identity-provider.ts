import { generateKeyPairSync } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID Connect provider for tests: panva's oidc-provider on 127.0.0.1 (port 0),
 * with one confidential client and accounts the test defines. Its login and consent
 * "screens" are a small interaction route that finishes each prompt programmatically
 * through oidc-provider's interaction API, doing what the test says the person does next.
 */
export interface TestAccount {
  sub: string;
  email: string;
  emailVerified: boolean;
}

/** What the person at the provider does at the next login prompt. */
export type NextLogin = { kind: 'sign-in'; account: TestAccount } | { kind: 'deny' };

export interface TestIdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  next: NextLogin;
  close(): Promise<void>;
}

/** The part of oidc-provider's API the harness uses (the package ships no declarations). */
interface InteractionDetails {
  uid: string;
  prompt: { name: string };
  params: { client_id: string; scope?: string };
  session?: { accountId?: string };
  grantId?: string;
}
interface Grant {
  addOIDCScope(scope: string): void;
  save(): Promise<string>;
}
interface OidcProviderInstance {
  callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
  interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
  Grant: (new (fields: { accountId: string; clientId: string }) => Grant) & { find(id: string): Promise<Grant | undefined> };
}

export async function startTestIdentityProvider(redirectUri: string): Promise<TestIdentityProvider> {
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'redline-test';
  const clientSecret = 'a-test-client-secret-of-sufficient-length';
  const accounts = new Map<string, TestAccount>();

  const state: TestIdentityProvider = {
    issuer,
    clientId,
    clientSecret,
    next: { kind: 'deny' },
    close: () => new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((e) => (e ? reject(e) : resolve()));
    }),
  };

  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const provider = new Provider(issuer, {
    clients: [{
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    }],
    jwks: { keys: [{ ...signingKey, kid: 'test-signing-key', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: ['test-cookie-signing-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    findAccount: (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: () => ({ sub, email: account.email, email_verified: account.emailVerified }) };
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
  }) as unknown as OidcProviderInstance;
  const oidcHandler = provider.callback();

  async function interaction(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      const next = state.next;
      if (next.kind === 'deny') {
        await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'End-User aborted interaction' }, { mergeWithLastSubmission: false });
        return;
      }
      accounts.set(next.account.sub, next.account);
      await provider.interactionFinished(req, res, { login: { accountId: next.account.sub } }, { mergeWithLastSubmission: false });
      return;
    }
    // consent: grant every OpenID scope the client asked for.
    const accountId = details.session?.accountId;
    if (!accountId) throw new Error('consent prompt without a signed-in account');
    const grant = (details.grantId ? await provider.Grant.find(details.grantId) : undefined)
      ?? new provider.Grant({ accountId, clientId: details.params.client_id });
    grant.addOIDCScope(details.params.scope ?? 'openid');
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  handler = (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      interaction(req, res).catch((e: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(e instanceof Error ? e.message : String(e));
      });
      return;
    }
    void oidcHandler(req, res);
  };
  return state;
}
