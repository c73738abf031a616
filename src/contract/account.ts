import { z } from 'zod';
import { clientString } from './client-text';
import { EmailAddress, OrgRole } from './auth';
import { Timestamp } from './document';

/** POST /auth/sign-up/request-code: a code that, verified, creates the user and their organisation. */
export const SignUpRequestCodeBody = z.strictObject({
  identifier: EmailAddress,
  name: clientString().trim().min(1, 'name is required').max(120),
  organisation: clientString().trim().min(1, 'organisation is required').max(120),
});
export type SignUpRequestCodeBody = z.infer<typeof SignUpRequestCodeBody>;

export const SessionListItem = z.object({
  id: z.string(),
  kind: z.enum(['web', 'connector']),
  client: z.string().nullable(),
  createdAt: Timestamp,
  lastUsedAt: Timestamp,
  expiresAt: Timestamp,
  current: z.boolean().describe('True for the session this request was made with.'),
});
export type SessionListItem = z.infer<typeof SessionListItem>;
export const SessionList = z.object({ items: z.array(SessionListItem) });
export type SessionList = z.infer<typeof SessionList>;

export const SignOutEverywhereResult = z.object({
  sessionsEnded: z.number().int(),
  grantsRevoked: z.number().int(),
});
export type SignOutEverywhereResult = z.infer<typeof SignOutEverywhereResult>;

export const OrgMember = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string(),
  role: OrgRole,
  joinedAt: Timestamp,
});
export type OrgMember = z.infer<typeof OrgMember>;
export const OrgMemberList = z.object({ items: z.array(OrgMember) });
export type OrgMemberList = z.infer<typeof OrgMemberList>;
export const InviteMemberBody = z.strictObject({ email: EmailAddress, role: OrgRole.default('member') });
export type InviteMemberBody = z.infer<typeof InviteMemberBody>;

export const CreateApiKeyBody = z.strictObject({ name: clientString().trim().min(1, 'name is required').max(100) });
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyBody>;
/** The key itself is shown once, in this answer; only its hash is stored. */
export const CreatedApiKey = z.object({ id: z.string(), name: z.string(), key: z.string(), createdAt: Timestamp });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;
export const ApiKeySummary = z.object({
  id: z.string(), name: z.string(), prefix: z.string(), createdAt: Timestamp, lastUsedAt: Timestamp.nullable(),
});
export type ApiKeySummary = z.infer<typeof ApiKeySummary>;
export const ApiKeyList = z.object({ items: z.array(ApiKeySummary) });

/** Sign-in providers (OpenID Connect). */
export const SignInProvider = z.object({ id: z.string(), name: z.string() });
export const SignInProviderList = z.object({ providers: z.array(SignInProvider) });
export type SignInProviderList = z.infer<typeof SignInProviderList>;
export const ProviderStartQuery = z.object({
  returnTo: clientString().max(500).optional().describe('App path to return to after sign-in (same origin only).'),
  interaction: clientString().max(200).optional().describe('Connector authorization in progress (its interaction id).'),
});
export const HandoffBody = z.strictObject({ handoff: clientString().min(10).max(200) });
export type HandoffBody = z.infer<typeof HandoffBody>;
/**
 * Why a provider sign-in failed at its callback. The service redirects to
 * `/sign-in?error=<code>` (a browser navigation has no JSON to read); the sign-in page
 * turns the code into a sentence.
 */
export const ProviderSignInError = z.enum([
  'access_denied', // the person declined at the provider
  'provider_error', // the provider answered with another error (at the redirect or its token endpoint)
  'invalid_state', // no such sign-in in progress: a tampered, replayed or foreign state
  'state_expired', // the sign-in took longer than its 10 minutes
  'invalid_id_token', // the ID token failed validation (issuer, audience, signature, nonce, times)
  'no_account', // no Redline account is linked to this identity or its verified e-mail
  'no_organisation', // the account belongs to no organisation
  'provider_unavailable', // the provider could not be reached
]);
export type ProviderSignInError = z.infer<typeof ProviderSignInError>;

/** The connector's consent page answer. */
export const ConnectorConsentBody = z.strictObject({
  interaction: clientString().min(1).max(200),
  approve: z.boolean(),
  orgId: clientString().optional().describe('The organisation the assistant will act for (defaults to the first).'),
});
export type ConnectorConsentBody = z.infer<typeof ConnectorConsentBody>;
export const ConnectorConsentResult = z.object({ redirectTo: z.string() });
/** What the consent page shows: the client, where it sends the answer, and what it may do. */
export const ConnectorInteraction = z.object({
  interaction: z.string(),
  clientId: z.string(),
  clientName: z.string().nullable(),
  redirectHost: z.string().describe('Host of the redirect URI the authorization answer goes to.'),
  scopes: z.array(z.string()),
  abilities: z.array(z.string()).describe('What the assistant may do, one sentence each.'),
  expiresAt: z.string(),
});
export type ConnectorInteraction = z.infer<typeof ConnectorInteraction>;
