import * as oidc from 'openid-client';
import type { ProviderSignInError } from '../../../contract/account';
import type { Database, Queryable } from '../../store/database';
import { findUserByEmail } from '../directory';
import { tokenDigest } from '../secrets';
import type { ProviderClients } from './provider-clients';
import type { OidcProviderConfig } from './provider-config';

/** A sign-in must come back from the provider within this time (state, nonce and verifier are forgotten after). */
export const PROVIDER_SIGN_IN_LIFETIME_MS = 10 * 60_000;

/** The scopes asked for: the subject, plus the e-mail to link an existing account by. */
const SCOPE = 'openid email profile';

/**
 * A provider sign-in that failed at its callback. `code` is what the person's browser is
 * redirected with (`/sign-in?error=<code>`); `reason` is for the log only (it may name
 * claims or the provider's own error text, never a token).
 */
export class ProviderSignInFailure extends Error {
  override readonly name = 'ProviderSignInFailure';

  constructor(readonly code: ProviderSignInError, readonly reason: string) {
    super(reason);
  }
}

export interface StartOptions {
  /** Validated app path to land on after sign-in (see safeReturnPath). */
  returnTo: string | null;
  /** The assistant connector's authorization in progress, when sign-in is part of it. */
  interaction: string | null;
}

export interface CallbackResult {
  userId: string;
  returnTo: string | null;
  interaction: string | null;
  /** How the account was found: an identity linked before, or just now by verified e-mail. */
  linkedBy: 'subject' | 'email';
}

interface PendingRow {
  provider_id: string;
  code_verifier: string;
  nonce: string;
  return_to: string | null;
  interaction_uid: string | null;
  expires_at: Date;
}

/**
 * Sign-in with an OpenID Connect provider: authorization code flow with PKCE (S256),
 * state and nonce. What the callback needs (the verifier and nonce) waits in the
 * database under the SHA-256 of the state, so any instance can finish a sign-in another
 * started, and a state works once.
 *
 * Accounts are linked, never created here: by (issuer, subject) if linked before; else by
 * the e-mail the provider vouches for (`email_verified: true`) when a Redline user has it,
 * which records the identity for next time. Anyone else is refused (`no_account`), even
 * while sign-up is open: signing up makes an organisation and needs its name, so a newcomer
 * signs up with an e-mail code first (or is invited) and can then use the provider.
 */
export class ProviderSignIns {
  constructor(
    private readonly db: Database,
    private readonly clients: ProviderClients,
    private readonly publicUrl: () => string,
  ) {}

  redirectUri(provider: OidcProviderConfig): string {
    return `${this.publicUrl().replace(/\/+$/, '')}/api/auth/providers/${provider.id}/callback`;
  }

  /** Records a new sign-in and answers the provider's authorization URL to redirect to. */
  async start(provider: OidcProviderConfig, options: StartOptions): Promise<URL> {
    const config = await this.configuration(provider);
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const codeChallenge = await oidc.calculatePKCECodeChallenge(codeVerifier);
    await this.db.query(
      `INSERT INTO provider_sign_ins (state_sha256, provider_id, code_verifier, nonce, return_to, interaction_uid, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [tokenDigest(state), provider.id, codeVerifier, nonce, options.returnTo, options.interaction,
        new Date(Date.now() + PROVIDER_SIGN_IN_LIFETIME_MS)]);
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri(provider),
      scope: SCOPE,
      state,
      nonce,
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
    });
  }

  /**
   * Finishes a sign-in from the provider's redirect: the state is consumed first (one use,
   * whatever happens next), then the code is traded and the ID token validated by
   * openid-client (issuer, audience, signature against the provider's keys, nonce, times,
   * and RFC 9207's `iss` response parameter when the provider sends it).
   */
  async callback(provider: OidcProviderConfig, query: URLSearchParams): Promise<CallbackResult> {
    const state = query.get('state');
    if (!state) throw new ProviderSignInFailure('invalid_state', 'the callback carries no state');
    const pending = (await this.db.query<PendingRow>(
      `DELETE FROM provider_sign_ins WHERE state_sha256 = $1
       RETURNING provider_id, code_verifier, nonce, return_to, interaction_uid, expires_at`, [tokenDigest(state)]))[0];
    if (!pending) throw new ProviderSignInFailure('invalid_state', 'no sign-in in progress has this state (tampered, replayed or foreign)');
    if (pending.provider_id !== provider.id) throw new ProviderSignInFailure('invalid_state', `the state belongs to provider ${pending.provider_id}`);
    if (pending.expires_at.getTime() <= Date.now()) throw new ProviderSignInFailure('state_expired', 'the sign-in took longer than its lifetime');

    const error = query.get('error');
    if (error) {
      const description = query.get('error_description');
      throw new ProviderSignInFailure(error === 'access_denied' ? 'access_denied' : 'provider_error',
        `the provider answered ${error}${description ? `: ${description}` : ''}`);
    }

    const config = await this.configuration(provider);
    const currentUrl = new URL(this.redirectUri(provider));
    currentUrl.search = query.toString();
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: pending.code_verifier,
        expectedState: state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
    } catch (e) {
      throw classifyGrantError(e);
    }
    const claims = tokens.claims();
    if (!claims) throw new ProviderSignInFailure('invalid_id_token', 'the token response has no ID token');
    const { userId, linkedBy } = await this.link(config, claims, tokens.access_token);
    return { userId, linkedBy, returnTo: pending.return_to, interaction: pending.interaction_uid };
  }

  private async configuration(provider: OidcProviderConfig): Promise<oidc.Configuration> {
    try {
      return await this.clients.configuration(provider);
    } catch (e) {
      throw new ProviderSignInFailure('provider_unavailable', `discovery of ${provider.issuer} failed: ${messageOf(e)}`);
    }
  }

  private async link(config: oidc.Configuration, claims: oidc.IDToken, accessToken: string): Promise<{ userId: string; linkedBy: 'subject' | 'email' }> {
    const linked = await userOfIdentity(this.db, claims.iss, claims.sub);
    if (linked) return { userId: linked, linkedBy: 'subject' };

    // In the code flow many providers (oidc-provider among them) put the e-mail in the
    // userinfo answer rather than the ID token.
    let email: unknown = claims.email;
    let verified: unknown = claims.email_verified;
    if (typeof email !== 'string') {
      try {
        const info = await oidc.fetchUserInfo(config, accessToken, claims.sub);
        email = info.email;
        verified = info.email_verified;
      } catch (e) {
        throw new ProviderSignInFailure('provider_unavailable', `userinfo failed: ${messageOf(e)}`);
      }
    }
    if (typeof email !== 'string') throw new ProviderSignInFailure('no_account', 'the provider shared no e-mail address and the identity is not linked');
    // Only an address the provider vouches for may claim an existing account; an unverified
    // one could be anybody's. The answer does not say whether such an account exists.
    if (verified !== true) throw new ProviderSignInFailure('no_account', 'the provider has not verified the e-mail address');
    const user = await findUserByEmail(this.db, email.trim().toLowerCase());
    if (!user) throw new ProviderSignInFailure('no_account', 'no user has the verified e-mail address');
    await this.db.query(
      `INSERT INTO user_identities (issuer, subject, user_id, email) VALUES ($1, $2, $3, $4)
       ON CONFLICT (issuer, subject) DO NOTHING`, [claims.iss, claims.sub, user.id, user.email]);
    // Two first sign-ins racing: whichever row landed is the link.
    const userId = await userOfIdentity(this.db, claims.iss, claims.sub);
    if (!userId) throw new Error('identity row vanished after insert');
    return { userId, linkedBy: 'email' };
  }
}

async function userOfIdentity(db: Queryable, issuer: string, subject: string): Promise<string | null> {
  const rows = await db.query<{ user_id: string }>('SELECT user_id FROM user_identities WHERE issuer = $1 AND subject = $2', [issuer, subject]);
  return rows[0]?.user_id ?? null;
}

/** Codes openid-client uses when the provider could not be talked to at all. */
const UNREACHABLE_CODES = new Set(['OAUTH_RESPONSE_IS_NOT_CONFORM', 'OAUTH_RESPONSE_IS_NOT_JSON']);

function classifyGrantError(e: unknown): ProviderSignInFailure {
  if (e instanceof oidc.AuthorizationResponseError || e instanceof oidc.ResponseBodyError) {
    const error = e.error;
    return new ProviderSignInFailure(error === 'access_denied' ? 'access_denied' : 'provider_error',
      `the provider answered ${error}${e.error_description ? `: ${e.error_description}` : ''}`);
  }
  if (e instanceof oidc.ClientError && !(e.code && UNREACHABLE_CODES.has(e.code))) {
    return new ProviderSignInFailure('invalid_id_token', `${e.code ?? 'validation'}: ${e.message}${e.cause instanceof Error ? ` (${e.cause.message})` : ''}`);
  }
  return new ProviderSignInFailure('provider_unavailable', `the token request failed: ${messageOf(e)}`);
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * An app path to return to after sign-in, or null if the value is not one. Only a path of
 * this origin: a single leading '/', no backslash (browsers read '/\host' as '//host'), no
 * control characters, and it must still resolve to this origin.
 */
export function safeReturnPath(value: string | undefined): string | null {
  if (!value) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\') || hasControlCharacter(value)) return null;
  const base = 'http://redline.invalid';
  const resolved = new URL(value, base);
  return resolved.origin === base ? value : null;
}

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}
