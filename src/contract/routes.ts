import { z } from 'zod';
import {
  DevMailboxMessage,
  DevMailboxQuery,
  RequestCodeAccepted,
  RequestCodeBody,
  SessionDescription,
  SessionGrant,
  VerifyBody,
} from './auth';
import {
  ApiKeyList,
  ConnectorConsentBody,
  ConnectorConsentResult,
  ConnectorInteraction,
  CreateApiKeyBody,
  CreatedApiKey,
  HandoffBody,
  InviteMemberBody,
  OrgMember,
  OrgMemberList,
  ProviderStartQuery,
  SessionList,
  SignInProviderList,
  SignOutEverywhereResult,
  SignUpRequestCodeBody,
} from './account';
import { DocumentRow, RenameUploadBody, UploadList, UploadListQuery } from './document';
import { ApplyRevisionsBody, RedlineEditsBody, ReviewResponse } from './review';

/**
 * Who may call a route:
 * - `public`: nobody needs to be signed in (sign-in routes, the OpenAPI document).
 * - `session`: a session token (web or connector) plus x-org-id.
 * - `session-or-api-key`: also an organisation API key (`rlk_...`): upload automation.
 * - `session-no-org`: a session token; no x-org-id (account-wide: sessions, sign-out everywhere).
 * - `own`: the route checks its own credentials (the MCP endpoint's connector bearer token).
 */
export type RouteAccess = 'public' | 'session' | 'session-or-api-key' | 'session-no-org' | 'own';

/** How a route's request body arrives. */
export type BodyKind = 'none' | 'json' | 'multipart' | 'docx';

export interface RouteSpec {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path under the API base (`/api`), with `{param}` placeholders as in the interface. */
  readonly path: string;
  readonly summary: string;
  readonly access: RouteAccess;
  readonly bodyKind: BodyKind;
  readonly body?: z.ZodType;
  readonly query?: z.ZodType;
  readonly status: number;
  /** null: the answer is bytes (a .docx) or empty. */
  readonly response: z.ZodType | null;
  readonly responseMediaType?: string;
}

function route<const S extends RouteSpec>(spec: S): S {
  return spec;
}

/** Fields of the multipart form that creates an upload (documented for OpenAPI). */
export const CreateUploadForm = z.object({
  file: z.string().describe('The .docx file (multipart file part).'),
  purpose: z.enum(['source_doc', 'playbook']).describe('source_doc or playbook'),
  clientReferenceId: z.string().max(200).optional(),
});
export const NewVersionForm = z.object({ file: z.string().describe('The .docx file (multipart file part).') });

/**
 * Every route of the service. The service registers exactly these (a test checks
 * it), the app calls them through `src/app/api`, and GET /api/openapi.json is
 * generated from them.
 */
export const ROUTES = {
  requestSignInCode: route({
    method: 'POST', path: '/auth/sign-in/request-code', access: 'public', bodyKind: 'json',
    summary: 'Send an existing user an e-mail sign-in code. Always 202, whether or not the account exists.',
    body: RequestCodeBody, status: 202, response: RequestCodeAccepted,
  }),
  verifyCode: route({
    method: 'POST', path: '/auth/verify', access: 'public', bodyKind: 'json',
    summary: 'Trade an e-mail address and its code for a session.',
    body: VerifyBody, status: 200, response: SessionGrant,
  }),
  signOut: route({
    method: 'POST', path: '/auth/sign-out', access: 'session', bodyKind: 'none',
    summary: 'End the session this request is made with.', status: 204, response: null,
  }),
  describeSession: route({
    method: 'GET', path: '/auth/session', access: 'session', bodyKind: 'none',
    summary: 'Describe the session this request is made with.', status: 200, response: SessionDescription,
  }),
  requestSignUpCode: route({
    method: 'POST', path: '/auth/sign-up/request-code', access: 'public', bodyKind: 'json',
    summary: 'Send a new user an e-mail code; verifying it creates the user and their organisation (owner).',
    body: SignUpRequestCodeBody, status: 202, response: RequestCodeAccepted,
  }),
  listProviders: route({
    method: 'GET', path: '/auth/providers', access: 'public', bodyKind: 'none',
    summary: 'The configured sign-in providers (OpenID Connect).', status: 200, response: SignInProviderList,
  }),
  startProvider: route({
    method: 'GET', path: '/auth/providers/{providerId}/start', access: 'public', bodyKind: 'none', query: ProviderStartQuery,
    summary: 'Redirect to the provider (PKCE S256, state, nonce).', status: 302, response: null,
  }),
  providerCallback: route({
    method: 'GET', path: '/auth/providers/{providerId}/callback', access: 'public', bodyKind: 'none',
    summary: "The provider's redirect back; redirects to the app with a single-use handoff.", status: 302, response: null,
  }),
  tradeHandoff: route({
    method: 'POST', path: '/auth/handoff', access: 'public', bodyKind: 'json', body: HandoffBody,
    summary: 'Trade a sign-in handoff for a session.', status: 200, response: SessionGrant,
  }),
  connectorInteraction: route({
    method: 'GET', path: '/auth/connector/interactions/{interaction}', access: 'public', bodyKind: 'none',
    summary: "The assistant connector's authorization in progress, for its consent page (only the browser that started it may read it).",
    status: 200, response: ConnectorInteraction,
  }),
  connectorConsent: route({
    method: 'POST', path: '/auth/connector/consent', access: 'session-no-org', bodyKind: 'json', body: ConnectorConsentBody,
    summary: "Answer the assistant connector's consent page.", status: 200, response: ConnectorConsentResult,
  }),
  signOutEverywhere: route({
    method: 'POST', path: '/auth/sign-out-everywhere', access: 'session-no-org', bodyKind: 'none',
    summary: 'End every session and revoke every connector grant of the user.', status: 200, response: SignOutEverywhereResult,
  }),
  listSessions: route({
    method: 'GET', path: '/auth/sessions', access: 'session-no-org', bodyKind: 'none',
    summary: "The user's active sessions.", status: 200, response: SessionList,
  }),
  endSession: route({
    method: 'DELETE', path: '/auth/sessions/{sessionId}', access: 'session-no-org', bodyKind: 'none',
    summary: 'End one of your sessions.', status: 204, response: null,
  }),
  listMembers: route({
    method: 'GET', path: '/org/members', access: 'session', bodyKind: 'none',
    summary: 'Members of the organisation.', status: 200, response: OrgMemberList,
  }),
  inviteMember: route({
    method: 'POST', path: '/org/members', access: 'session', bodyKind: 'json', body: InviteMemberBody,
    summary: 'Owners: invite an e-mail address (it signs in with a code and finds the organisation).', status: 201, response: OrgMember,
  }),
  removeMember: route({
    method: 'DELETE', path: '/org/members/{userId}', access: 'session', bodyKind: 'none',
    summary: 'Owners: remove a member (or yourself: leave). The last owner cannot.', status: 204, response: null,
  }),
  createApiKey: route({
    method: 'POST', path: '/org/api-keys', access: 'session', bodyKind: 'json', body: CreateApiKeyBody,
    summary: 'Owners: create an API key for upload automation. The key is shown once.', status: 201, response: CreatedApiKey,
  }),
  listApiKeys: route({
    method: 'GET', path: '/org/api-keys', access: 'session', bodyKind: 'none',
    summary: 'Owners: the organisation\'s API keys (never the keys themselves).', status: 200, response: ApiKeyList,
  }),
  revokeApiKey: route({
    method: 'DELETE', path: '/org/api-keys/{keyId}', access: 'session', bodyKind: 'none',
    summary: 'Owners: revoke an API key.', status: 204, response: null,
  }),
  mcpPost: route({
    method: 'POST', path: '/mcp', access: 'own', bodyKind: 'none',
    summary: 'MCP Streamable HTTP endpoint of the assistant connector (connector bearer token).', status: 200, response: null,
  }),
  mcpGet: route({
    method: 'GET', path: '/mcp', access: 'own', bodyKind: 'none',
    summary: 'MCP Streamable HTTP: server-to-client stream.', status: 200, response: null,
  }),
  mcpDelete: route({
    method: 'DELETE', path: '/mcp', access: 'own', bodyKind: 'none',
    summary: 'MCP Streamable HTTP: end the MCP session.', status: 204, response: null,
  }),
  devMailbox: route({
    method: 'GET', path: '/dev/mailbox', access: 'public', bodyKind: 'none', query: DevMailboxQuery,
    summary: 'Development outbox only: the newest message sent to an address.', status: 200, response: DevMailboxMessage,
  }),
  createUpload: route({
    method: 'POST', path: '/uploads', access: 'session-or-api-key', bodyKind: 'multipart', body: CreateUploadForm,
    summary: 'Upload a .docx as version 1 of a new series.', status: 201, response: DocumentRow,
  }),
  listUploads: route({
    method: 'GET', path: '/uploads', access: 'session-or-api-key', bodyKind: 'none', query: UploadListQuery,
    summary: 'List uploads, newest first, with cursor paging.', status: 200, response: UploadList,
  }),
  getUpload: route({
    method: 'GET', path: '/uploads/{uploadId}', access: 'session-or-api-key', bodyKind: 'none',
    summary: 'Read one upload row.', status: 200, response: DocumentRow,
  }),
  downloadUpload: route({
    method: 'GET', path: '/uploads/{uploadId}/content', access: 'session-or-api-key', bodyKind: 'none',
    summary: 'Download the .docx bytes.', status: 200, response: null,
    responseMediaType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  }),
  renameUpload: route({
    method: 'PATCH', path: '/uploads/{uploadId}', access: 'session', bodyKind: 'json', body: RenameUploadBody,
    summary: 'Rename an upload.', status: 200, response: DocumentRow,
  }),
  createVersion: route({
    method: 'POST', path: '/uploads/{uploadId}/versions', access: 'session', bodyKind: 'multipart', body: NewVersionForm,
    summary: 'Upload a new version in the same series (documentVersion + 1, parentUploadId set).', status: 201, response: DocumentRow,
  }),
  startWorkingDraft: route({
    method: 'POST', path: '/uploads/{uploadId}/working-draft', access: 'session', bodyKind: 'none',
    summary: 'Start a new working draft from a version.', status: 201, response: DocumentRow,
  }),
  deleteSeries: route({
    method: 'DELETE', path: '/uploads/{uploadId}', access: 'session', bodyKind: 'none',
    summary: 'Delete the whole document series. Answers the row with status deleted.', status: 200, response: DocumentRow,
  }),
  deleteSeriesAlias: route({
    method: 'POST', path: '/uploads/{uploadId}/delete', access: 'session', bodyKind: 'none',
    summary: 'Alias of DELETE /uploads/{uploadId}.', status: 200, response: DocumentRow,
  }),
  saveDraft: route({
    method: 'PUT', path: '/documents/{documentId}/draft', access: 'session', bodyKind: 'docx',
    summary: 'Replace the bytes of a working draft (raw .docx body, or multipart `file`).', status: 200, response: DocumentRow,
  }),
  getReview: route({
    method: 'GET', path: '/documents/{documentId}/review', access: 'session', bodyKind: 'none',
    summary: 'The working draft with its revisions, render variant and track.', status: 200, response: ReviewResponse,
  }),
  applyRevisions: route({
    method: 'POST', path: '/documents/{documentId}/revisions/apply', access: 'session', bodyKind: 'json', body: ApplyRevisionsBody,
    summary: 'Accept and reject tracked revisions of a working draft, atomically.', status: 200, response: ReviewResponse,
  }),
  undoRevisions: route({
    method: 'POST', path: '/documents/{documentId}/revisions/undo', access: 'session', bodyKind: 'none',
    summary: 'Undo the last batch of decisions (its author only; only if nothing was applied after it).', status: 200, response: ReviewResponse,
  }),
  writeRedlines: route({
    method: 'POST', path: '/documents/{documentId}/redlines', access: 'session', bodyKind: 'json', body: RedlineEditsBody,
    summary: 'Propose tracked changes, each with a justification.', status: 200, response: ReviewResponse,
  }),
  openapi: route({
    method: 'GET', path: '/openapi.json', access: 'public', bodyKind: 'none',
    summary: 'This document.', status: 200, response: null, responseMediaType: 'application/json',
  }),
} as const satisfies Record<string, RouteSpec>;

export type RouteName = keyof typeof ROUTES;

/** Fill `{param}` placeholders of a route path. */
export function routePath(spec: RouteSpec, params: Record<string, string> = {}): string {
  return spec.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${spec.path}`);
    return encodeURIComponent(value);
  });
}

export const API_BASE_PATH = '/api';
