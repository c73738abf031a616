import type { ConnectorConsentBody, ConnectorInteraction } from '../../contract/account';
import { orgsOfUser } from '../auth/directory';
import type { SessionRecord, Sessions } from '../auth/sessions';
import type { ConnectorHooks } from '../context';
import { ProblemError } from '../http/problem';
import type { Database, Queryable } from '../store/database';
import { loadConnectorKeys } from './connector-keys';
import type { GrantEvents } from './oauth-adapter';
import { CONNECTOR_SCOPE, CONNECTOR_TTL, createOAuthServer } from './oauth-server';
import type { OidcInteraction, OidcProvider } from './oidc-provider-types';

/**
 * What the consent page tells the user the assistant may do: its MCP tools, in words. Its
 * token is accepted on /api/mcp and on the REST routes that do the same (the catalogue's
 * `credentials`), and nowhere else: no administration, no API keys, no sessions.
 */
export const CONNECTOR_ABILITIES = [
  'Read your organisation\'s documents and their reviews: tracked changes, the track and each justification.',
  'Compare two versions of a document into a new working draft that shows the differences as tracked changes.',
  'Propose redlines: tracked changes, each with a justification, written in your name.',
  'Accept or reject changes on your behalf.',
  'Withdraw its own proposals.',
  'Read, add and reply to comments on your drafts, in your name.',
] as const;

/** Our row beside oidc-provider's Grant: which user and organisation a grant acts for. */
const GRANT_LINK_MODEL = 'ConnectorGrant';

interface GrantLink {
  userId: string;
  orgId: string;
  clientId: string;
  clientName: string | null;
}


export interface ConnectorOptions {
  db: Database;
  sessions: Sessions;
  publicUrl: string;
}

/**
 * The assistant connector: its OAuth server (oidc-provider) and how its tokens become
 * sessions of the service.
 *
 * Tokens and sessions. Consent creates an oidc-provider Grant for (user, client) and a link
 * row naming the organisation chosen on the consent page; redeeming the code opens one
 * `sessions` row of kind `connector` for that grant (its "mirror": listed in GET
 * /api/auth/sessions under the client's name, ended by DELETE /api/auth/sessions/{id} or
 * sign-out everywhere, and by oidc-provider revoking the grant for a reused code or refresh
 * token). Every
 * access token and refresh token of the grant maps to that one session: an opaque access
 * token is looked up in oidc-provider's store, must be unexpired, carry our resource
 * (`${publicUrl}/api/mcp`) as its audience and the `documents` scope, and its grant's
 * mirror session must be live. So document routes and /api/mcp accept it as that user,
 * for that one organisation. Ending the mirror session revokes the grant at its next use
 * (and its tokens with it); revoking the grant (sign-out everywhere) ends the session.
 */
export class Connector implements ConnectorHooks {
  readonly resource: string;
  readonly issuer: string;

  private constructor(
    readonly provider: OidcProvider,
    private readonly db: Database,
    private readonly sessions: Sessions,
    publicUrl: string,
  ) {
    this.issuer = publicUrl;
    this.resource = `${publicUrl}/api/mcp`;
  }

  static async create(options: ConnectorOptions): Promise<Connector> {
    const publicUrl = options.publicUrl.replace(/\/+$/, '');
    const keys = await loadConnectorKeys(options.db);
    const { db, sessions } = options;
    const grantEvents: GrantEvents = {
      tokenIssued: (grantId) => openMirrorSession(db, sessions, grantId),
      grantDestroyed: (grantId) => db.transaction(async (tx) => {
        await tx.query('DELETE FROM oauth_models WHERE model = $1 AND id = $2', [GRANT_LINK_MODEL, grantId]);
        await sessions.revokeGrant(tx, grantId);
      }),
    };
    const provider = createOAuthServer({ issuer: publicUrl, resource: `${publicUrl}/api/mcp`, db, keys, grantEvents });
    return new Connector(provider, options.db, options.sessions, publicUrl);
  }

  /** RFC 9728 metadata of the MCP endpoint. */
  protectedResourceMetadata(): Record<string, unknown> {
    return {
      resource: this.resource,
      authorization_servers: [this.issuer],
      scopes_supported: [CONNECTOR_SCOPE],
      bearer_methods_supported: ['header'],
      resource_name: 'Redline',
    };
  }

  /** Where a client finds the resource metadata (the path-aware location of RFC 9728 section 3.1). */
  get resourceMetadataUrl(): string {
    return `${this.issuer}/.well-known/oauth-protected-resource${new URL(this.resource).pathname}`;
  }

  async resolveAccessToken(token: string): Promise<SessionRecord | null> {
    // oidc-provider's opaque tokens are 43 base64url characters; anything else is not one of them.
    if (!/^[\w-]{20,100}$/.test(token)) return null;
    const accessToken = await this.provider.AccessToken.find(token);
    if (!accessToken || accessToken.isExpired || accessToken.consumed) return null;
    // RFC 8707: only a token issued for this resource is accepted here.
    if (![accessToken.aud ?? []].flat().includes(this.resource)) return null;
    if (!(accessToken.scope ?? '').split(' ').includes(CONNECTOR_SCOPE)) return null;
    const link = await this.grantLink(this.db, accessToken.grantId);
    if (!link || link.userId !== accessToken.accountId) return null;
    const session = await this.sessions.resolveGrant(this.db, accessToken.grantId);
    if (!session) {
      // The user ended the connector's session: the grant goes with it.
      await this.revokeGrant(accessToken.grantId);
      return null;
    }
    return session;
  }

  async revokeAllGrantsOfUser(userId: string): Promise<number> {
    const rows = await this.db.query<{ id: string }>(
      `SELECT id FROM oauth_models WHERE (model = $1 AND payload->>'userId' = $2) OR (model = 'Grant' AND payload->>'accountId' = $2)`,
      [GRANT_LINK_MODEL, userId]);
    const grantIds = [...new Set(rows.map((r) => r.id))];
    for (const grantId of grantIds) await this.revokeGrant(grantId);
    // oidc-provider's browser sessions of the user too: the next authorization signs in again.
    await this.db.query("DELETE FROM oauth_models WHERE model = 'Session' AND payload->>'accountId' = $1", [userId]);
    return grantIds.length;
  }

  /** Revokes a grant: every code, access and refresh token of it, the grant, its link and its session. */
  async revokeGrant(grantId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query('DELETE FROM oauth_models WHERE grant_id = $1', [grantId]);
      await tx.query("DELETE FROM oauth_models WHERE model IN ('Grant', $2) AND id = $1", [grantId, GRANT_LINK_MODEL]);
      await this.sessions.revokeGrant(tx, grantId);
    });
  }

  /** The authorization in progress, for the consent page. `bound`: the request came from the browser that started it. */
  async describeInteraction(uid: string, bound: boolean): Promise<ConnectorInteraction> {
    const interaction = await this.requireInteraction(uid, bound);
    const client = await this.provider.Client.find(interaction.params.client_id);
    if (!client) throw new ProblemError(400, 'invalid_client', 'The client of this authorization no longer exists.');
    const redirectUri = interaction.params.redirect_uri ?? client.redirectUris[0] ?? '';
    return {
      interaction: uid,
      clientId: client.clientId,
      clientName: client.clientName ?? null,
      redirectHost: URL.canParse(redirectUri) ? new URL(redirectUri).host : redirectUri,
      scopes: (interaction.params.scope ?? '').split(' ').filter(Boolean),
      abilities: [...CONNECTOR_ABILITIES],
      expiresAt: new Date(interaction.exp * 1000).toISOString(),
    };
  }

  /**
   * Records the consent page's answer and answers where the browser goes next: the
   * authorization endpoint's resume URL, which issues the code (or, declined, answers
   * access_denied) to the client's redirect URI. That URL only works in the browser that
   * started the authorization (oidc-provider's resume cookie).
   */
  async answerConsent(userId: string, body: ConnectorConsentBody, bound: boolean): Promise<string> {
    const interaction = await this.requireInteraction(body.interaction, bound);
    if (interaction.result) throw new ProblemError(409, 'conflict', 'This authorization was already answered.');
    const ttl = interaction.exp - Math.floor(Date.now() / 1000);
    if (!body.approve) {
      interaction.result = { error: 'access_denied', error_description: 'The user declined to connect the assistant.' };
      await interaction.save(ttl);
      return interaction.returnTo;
    }
    const orgs = await orgsOfUser(this.db, userId);
    const orgId = body.orgId ?? orgs[0]?.id;
    if (!orgId) throw new ProblemError(403, 'forbidden', 'You belong to no organisation the assistant could act for.');
    if (!orgs.some((o) => o.id === orgId)) throw new ProblemError(403, 'forbidden', 'You are not a member of that organisation.');
    const client = await this.provider.Client.find(interaction.params.client_id);
    if (!client) throw new ProblemError(400, 'invalid_client', 'The client of this authorization no longer exists.');

    const grant = new this.provider.Grant({ accountId: userId, clientId: client.clientId });
    // Grant what was asked for, as the page showed it. (The prompt's own details list the
    // missing scopes only once it reaches consent; an interaction that began at login has none.)
    const requested = (interaction.params.scope ?? '').split(' ').filter(Boolean);
    const oidcScopes = requested.filter((scope) => ['openid', 'offline_access', CONNECTOR_SCOPE].includes(scope));
    if (oidcScopes.length) grant.addOIDCScope(oidcScopes.join(' '));
    // Only our resource gets this far: the authorization endpoint refused any other (invalid_target).
    if (requested.includes(CONNECTOR_SCOPE)) grant.addResourceScope(this.resource, CONNECTOR_SCOPE);
    const grantId = await grant.save();
    const link: GrantLink = { userId, orgId, clientId: client.clientId, clientName: client.clientName ?? null };
    // The session comes when the client redeems its code (openMirrorSession): a consent whose
    // code is never redeemed leaves nothing on the sessions page.
    await this.db.query(
      `INSERT INTO oauth_models (model, id, payload, grant_id, expires_at) VALUES ($1, $2, $3, $2, now() + make_interval(secs => $4))`,
      [GRANT_LINK_MODEL, grantId, JSON.stringify(link), CONNECTOR_TTL.grant]);
    interaction.result = { login: { accountId: userId }, consent: { grantId } };
    await interaction.save(ttl);
    return interaction.returnTo;
  }

  private async requireInteraction(uid: string, bound: boolean): Promise<OidcInteraction> {
    const interaction = await this.provider.Interaction.find(uid);
    if (!interaction || interaction.exp * 1000 <= Date.now()) {
      throw new ProblemError(404, 'interaction_expired', 'This authorization has expired or does not exist. Start again from the assistant.');
    }
    if (!bound) {
      throw new ProblemError(403, 'forbidden', 'This authorization was started in another browser. Start again from the assistant, in this browser.');
    }
    return interaction;
  }

  private async grantLink(db: Queryable, grantId: string): Promise<GrantLink | null> {
    const rows = await db.query<{ payload: GrantLink }>(
      'SELECT payload FROM oauth_models WHERE model = $1 AND id = $2 AND expires_at > now()', [GRANT_LINK_MODEL, grantId]);
    return rows[0]?.payload ?? null;
  }
}

/**
 * The grant's mirror session, opened when its first access token is issued (the code
 * redeemed). Once per grant: a session the user ended stays ended (the next use of the
 * grant's tokens then revokes the grant, see resolveAccessToken).
 */
async function openMirrorSession(db: Database, sessions: Sessions, grantId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [link] = await tx.query<{ payload: GrantLink }>(
      'SELECT payload FROM oauth_models WHERE model = $1 AND id = $2 FOR UPDATE', [GRANT_LINK_MODEL, grantId]);
    if (!link) return;
    const existing = await tx.query('SELECT 1 FROM sessions WHERE grant_id = $1 LIMIT 1', [grantId]);
    if (existing.length > 0) return;
    const { userId, orgId, clientId, clientName } = link.payload;
    await sessions.create(tx, userId, 'connector', (clientName ?? clientId).slice(0, 200), { orgId, grantId, lifetimeMs: CONNECTOR_TTL.grant * 1000 });
  });
}
