import { z } from 'zod';
import { clientString } from './client-text';
import { API_BASE_PATH, DRAFT_READ_PATHS, fillPath } from './opening-reads';
import { LivenessAnswer, ReadinessAnswer } from './health';
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
import { CHANGES_HEADER, CompareBody, ComparisonIdentical, ComparisonProgressList, ComparisonSummary, NoUntrackedEdits, UntrackedPending, UntrackedReport } from './compare';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_TTL_HOURS, IDEMPOTENT_REPLAY_HEADER } from './events';
import { DocumentText, OutlineAnswer, OutlineQuery, ReadingQuery, SearchAnswer, SearchQuery } from './reading';
import { DocumentRow, RenameUploadBody, UploadList, UploadListQuery } from './document';
import { DecisionNoteBody } from './decision-note';
import { REPORT_CSV_MEDIA_TYPE, REPORT_PDF_MEDIA_TYPE } from './report';
import { DraftProgressList } from './draft-progress';
import { RenderWindowQuery } from './render-window';
import { SideBySideAnswer } from './side-by-side';
import { ApplyRevisionsBody, RedlineEditsBody, ReviewMinimalResponse, ReviewResponse } from './review';
import { ReviewDelta, ReviewQuery } from './listing-delta';
import { ChecksAnswer, ChecksQuery, ProposeFixesAnswer, ProposeFixesBody } from './checks';
import { AddCommentBody, CommentList, CommentsResponse, DraftDownloadQuery, ReplyBody, ResolveCommentBody } from './comments';

/**
 * Who may call a route:
 * - `public`: nobody needs to be signed in (sign-in routes, the OpenAPI document).
 * - `session`: a credential (see `credentials`) plus x-org-id.
 * - `session-no-org`: a credential; no x-org-id (account-wide: sessions, sign-out everywhere).
 * - `own`: the route checks its own credentials (the MCP endpoint's connector bearer token).
 */
export type RouteAccess = 'public' | 'session' | 'session-no-org' | 'own';

/**
 * The bearer credentials a route accepts:
 * - `web`: a person's own session (e-mail code or provider sign-in);
 * - `connector`: the assistant connector's OAuth access token, a session of kind `connector`
 *   for one organisation. Its consent page names what it may do (CONNECTOR_ABILITIES, the
 *   MCP tools); it is accepted on `/mcp` and on the REST routes that do what those tools
 *   do, and nowhere else (organisation administration, API keys, sessions: 403 `session_required`);
 * - `api-key`: an organisation API key (`rlk_...`), for upload automation only.
 */
export type Credential = 'web' | 'connector' | 'api-key';

/** A route that does what one of the connector's tools does, as its consent page names it (see `Credential`). */
const WEB_OR_CONNECTOR = ['web', 'connector'] as const satisfies readonly Credential[];

/** How a route's request body arrives. */
export type BodyKind = 'none' | 'json' | 'multipart' | 'docx';

export interface RouteSpec {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path under the API base (`/api`), with `{param}` placeholders as in the interface. */
  readonly path: string;
  readonly summary: string;
  readonly access: RouteAccess;
  /** The credentials this route accepts; unset: a web session only (`own` routes: the connector's token only). */
  readonly credentials?: readonly Credential[];
  readonly bodyKind: BodyKind;
  readonly body?: z.ZodType;
  readonly query?: z.ZodType;
  readonly status: number;
  /** null: the answer is bytes (a .docx) or empty. */
  readonly response: z.ZodType | null;
  readonly responseMediaType?: string;
  /** Optional request headers the route reads: name -> meaning. */
  readonly requestHeaders?: Readonly<Record<string, string>>;
  /** Headers of the success answer worth documenting: name -> meaning. */
  readonly responseHeaders?: Readonly<Record<string, string>>;
  /** Other success answers than `status` (e.g. 202 while a result is being computed). */
  readonly otherResponses?: readonly { status: number; description: string; response: z.ZodType; headers?: Readonly<Record<string, string>> }[];
  /** The answer to a request saying `Prefer: return=minimal` (RFC 7240), when the route honours it. */
  readonly minimalResponse?: z.ZodType;
}

function route<const S extends RouteSpec>(spec: S): S {
  return spec;
}

/** What a route accepts: its declaration, or the default (a web session; the connector's token on `own` routes). */
export function acceptedCredentials(spec: RouteSpec): readonly Credential[] {
  if (spec.access === 'public') return [];
  return spec.credentials ?? (spec.access === 'own' ? ['connector'] : ['web']);
}

/** Change requests a client may send again after a lost answer: applied once, answered each time. */
const IDEMPOTENT_REQUEST = {
  [IDEMPOTENCY_KEY_HEADER]: `A new random key per request (8 to 200 printable ASCII characters, no spaces). The same request (same caller, same body) sent again on the same draft with the same key within ${IDEMPOTENCY_KEY_TTL_HOURS} hours is applied once and its recorded answer returned (Idempotent-Replayed: true). A different request with a key already used on that draft is refused with 422 \`idempotency_key_reused\` and changes nothing.`,
} as const;
const IDEMPOTENT_ANSWER = { [IDEMPOTENT_REPLAY_HEADER]: '"true" when this is the recorded answer to an earlier send with the same Idempotency-Key.' } as const;

/** Changes to a draft answer the whole review by default; `Prefer: return=minimal` leaves the content out. */
const REVIEW_CHANGE_REQUEST = {
  ...IDEMPOTENT_REQUEST,
  Prefer: '`return=minimal` (RFC 7240): answer the Document row, the revisions and the track without `contentBase64` and `renderContentBase64` (the draft and its render variant, megabytes on a long draft); fetch the render variant when it is needed. Any other preference is ignored.',
} as const;
/** The review read may leave the content out too: the app renders from GET render, fetched beside it. */
const REVIEW_READ_REQUEST = {
  Prefer: '`return=minimal` (RFC 7240): answer the Document row, the revisions and the track without `contentBase64` and `renderContentBase64` (the draft and its render variant, megabytes on a long draft); fetch the render variant with GET /documents/{documentId}/render. Any other preference is ignored.',
} as const;
/** Undo and redline edits take the listing version the client holds too (issue 36.4), as apply does. */
const LISTING_CHANGE_REQUEST = {
  ...REVIEW_CHANGE_REQUEST,
  'If-Match': 'The review listing\'s version as last answered (its ETag). The change is made only if the draft is still at it (else 412 listing_changed, nothing changed: catch up with GET review?since=<version>); with `Prefer: return=minimal` the answer is then a ReviewDelta from it, proportional to the change (the whole minimal listing when the service no longer holds that version).',
} as const;
const REVIEW_CHANGE_ANSWER = {
  ...IDEMPOTENT_ANSWER,
  'Preference-Applied': '`return=minimal` when the answer is the minimal one asked for with Prefer; absent on the full answer.',
} as const;
/** Apply takes the listing version the client holds (issue 36.1): the batch then applies only to it, and its minimal answer is the delta from it. */
const APPLY_REQUEST = {
  ...REVIEW_CHANGE_REQUEST,
  'If-Match': 'The review listing\'s version as last answered (its ETag). The batch applies only if the draft is still at it (else 412 listing_changed, nothing applied: read the review again); with `Prefer: return=minimal` the answer is then a ReviewDelta from it, proportional to the batch (the whole minimal listing when the service no longer holds that version).',
} as const;
const LISTING_VERSION_ANSWER = {
  ETag: 'The review listing\'s version (its content and decision log): send it as If-Match with the next change, and as since to catch up.',
} as const;

/** Fields of the multipart form that creates an upload (documented for OpenAPI). */
export const CreateUploadForm = z.object({
  file: clientString().describe('The .docx file (multipart file part).'),
  purpose: z.enum(['source_doc', 'playbook']).describe('source_doc or playbook'),
  clientReferenceId: clientString().max(200).optional(),
});
export const NewVersionForm = z.object({ file: clientString().describe('The .docx file (multipart file part).') });

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
    method: 'POST', path: '/mcp', access: 'own', credentials: ['connector'], bodyKind: 'none',
    summary: 'MCP Streamable HTTP endpoint of the assistant connector (connector bearer token).', status: 200, response: null,
  }),
  mcpGet: route({
    method: 'GET', path: '/mcp', access: 'own', credentials: ['connector'], bodyKind: 'none',
    summary: 'MCP Streamable HTTP: server-to-client stream.', status: 200, response: null,
  }),
  mcpDelete: route({
    method: 'DELETE', path: '/mcp', access: 'own', credentials: ['connector'], bodyKind: 'none',
    summary: 'MCP Streamable HTTP: end the MCP session.', status: 204, response: null,
  }),
  devMailbox: route({
    method: 'GET', path: '/dev/mailbox', access: 'public', bodyKind: 'none', query: DevMailboxQuery,
    summary: 'Development outbox only: the newest message sent to an address.', status: 200, response: DevMailboxMessage,
  }),
  createUpload: route({
    method: 'POST', path: '/uploads', access: 'session', credentials: ['web', 'api-key'], bodyKind: 'multipart', body: CreateUploadForm,
    summary: 'Upload a .docx as version 1 of a new series.', status: 201, response: DocumentRow,
  }),
  listUploads: route({
    method: 'GET', path: '/uploads', access: 'session', credentials: ['web', 'connector', 'api-key'], bodyKind: 'none', query: UploadListQuery,
    summary: 'List uploads, newest first, with cursor paging. A cursor the service did not give answers 400 invalid_cursor.', status: 200, response: UploadList,
  }),
  getUpload: route({
    method: 'GET', path: '/uploads/{uploadId}', access: 'session', credentials: ['web', 'connector', 'api-key'], bodyKind: 'none',
    summary: 'Read one upload row.', status: 200, response: DocumentRow,
  }),
  downloadUpload: route({
    method: 'GET', path: '/uploads/{uploadId}/content', access: 'session', credentials: ['web', 'api-key'], bodyKind: 'none',
    summary: 'Download the .docx bytes.', status: 200, response: null,
    responseMediaType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  }),
  readUploadText: route({
    method: 'GET', path: '/uploads/{uploadId}/text', access: 'session', credentials: ['web', 'connector', 'api-key'], bodyKind: 'none', query: ReadingQuery,
    summary: 'Read an upload (original, version, working draft or playbook) as blocks: paragraphs with their visible text, clause label, heading level and style, and tables of cells of blocks, in story order (body, headers, footers, footnotes, endnotes, comments), a page of top-level blocks at a time. In the markup view (the default for working drafts) each paragraph lists its tracked changes with offsets into its text, deleted text included; accepted and rejected read the text every change accepted or rejected gives (the default for other uploads is accepted). A cursor of a content that has since changed answers 409 stale_cursor; one the service did not give (or past the end) answers 400 invalid_cursor.',
    status: 200, response: DocumentText,
  }),
  searchUploadText: route({
    method: 'GET', path: '/uploads/{uploadId}/search', access: 'session', credentials: ['web', 'connector', 'api-key'], bodyKind: 'none', query: SearchQuery,
    summary: 'Find text in an upload: every paragraph (table cells, notes, headers and comments included) whose text matches q, case-insensitive unless caseSensitive=true; regex=true for a regular expression of at most 200 characters, in RE2 syntax (linear time, whatever the pattern): literals, ., character classes ([a-z], [^0-9], [[:alpha:]], \\p{L}), \\d \\w \\s \\b and their negations, groups ((…), (?:…), (?<name>…)), alternation, the quantifiers * + ? {n,m} (counts up to 1000) and their lazy forms, ^ $ and inline flags such as (?i); JavaScript escapes \\u00a0 and \\u{…} are read as such, . stops at line breaks and \\s includes the no-break space, as in JavaScript. Back-references (\\1, \\k<name>) and look-around ((?=…), (?!…), (?<=…), (?<!…)) are refused with 422 unsupported_regex naming the construct, as is any other syntax RE2 lacks; a search running past its time limit (5 s by default) is ended with 422 search_too_slow. At most 100 hits, each with the block id, the paragraph text, the offsets of the hit and the tracked changes it overlaps; count says how many there are in all.',
    status: 200, response: SearchAnswer,
  }),
  outlineUpload: route({
    method: 'GET', path: '/uploads/{uploadId}/outline', access: 'session', credentials: ['web', 'connector', 'api-key'], bodyKind: 'none', query: OutlineQuery,
    summary: 'The outline of an upload: its headings and numbered clauses in order, each with its block id, clause label, heading level, nesting level and the start of its text.',
    status: 200, response: OutlineAnswer,
  }),
  renameUpload: route({
    method: 'PATCH', path: '/uploads/{uploadId}', access: 'session', bodyKind: 'json', body: RenameUploadBody,
    summary: 'Rename an upload.', status: 200, response: DocumentRow,
  }),
  createVersion: route({
    method: 'POST', path: '/uploads/{uploadId}/versions', access: 'session', bodyKind: 'multipart', body: NewVersionForm,
    summary: 'Upload a new version in the same series (documentVersion + 1, parentUploadId = {uploadId}: the version it answers, which its untracked check compares it with; when {uploadId} is a working draft, the series\' latest uploaded version).', status: 201, response: DocumentRow,
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
  // Issue 12: compare two versions into a redline; the untracked-edit check of a new version.
  compareVersions: route({
    method: 'POST', path: '/uploads/{uploadId}/compare', access: 'session', credentials: WEB_OR_CONNECTOR, bodyKind: 'json', body: CompareBody,
    summary: 'Compare {uploadId} with an older upload (`against`) into a new working draft in the series of {uploadId}: its changes since `against` as tracked changes, beside the pending tracked changes of {uploadId} (kept under their own authors unless `view` says otherwise). GET /uploads/{draft}/comparison says what was done with each version\'s pending changes.',
    status: 201, response: DocumentRow,
    responseHeaders: { [CHANGES_HEADER]: 'How many differences the draft carries as tracked changes (at least 1).' },
    otherResponses: [{
      status: 200, description: 'The two documents are identical (for the view compared): nothing to review, so no working draft is made.', response: ComparisonIdentical,
    }],
  }),
  getComparison: route({
    method: 'GET', path: '/uploads/{uploadId}/comparison', access: 'session', bodyKind: 'none',
    summary: 'What made a working draft that a comparison made: the versions compared, the view, how many differences, and the pending tracked changes each version held and what was done with them. 404 for any other upload.',
    status: 200, response: ComparisonSummary,
  }),
  listComparisonProgress: route({
    method: 'GET', path: '/comparisons/progress', access: 'session', bodyKind: 'none',
    summary: "Where the review of each series' newest comparison of its latest version stands (counts in entries, last decision): what the documents page shows as a series' review in progress when its latest version has no review draft.",
    status: 200, response: ComparisonProgressList,
  }),
  getUntracked: route({
    method: 'GET', path: '/uploads/{uploadId}/untracked', access: 'session', bodyKind: 'none',
    summary: 'Edits made without tracking in this version: its rejected view against the rejected view of the version it was added to.',
    requestHeaders: { Prefer: '`wait=N` (RFC 7240, 0-10): how many seconds to wait for a running check before answering 202 (default 2; 0 answers at once).' },
    status: 200, response: UntrackedReport,
    otherResponses: [{
      status: 202, description: 'The check is still running; ask again after Retry-After seconds.', response: UntrackedPending,
      headers: { 'Retry-After': 'Seconds to wait before asking again.' },
    }],
  }),
  untrackedWorkingDraft: route({
    method: 'POST', path: '/uploads/{uploadId}/untracked/working-draft', access: 'session', bodyKind: 'none',
    summary: 'A new working draft of this version with its untracked edits added as tracked changes (author "Untracked edit") beside its own tracked changes.',
    status: 201, response: DocumentRow,
    responseHeaders: { [CHANGES_HEADER]: 'How many untracked edits the draft carries as tracked changes (at least 1).' },
    otherResponses: [{
      status: 200, description: 'The version has no untracked edit: nothing to review, so no working draft is made.', response: NoUntrackedEdits,
    }],
  }),
  saveDraft: route({
    method: 'PUT', path: '/documents/{documentId}/draft', access: 'session', bodyKind: 'docx',
    summary: 'Replace the bytes of a working draft (raw .docx body, or multipart `file`).', status: 200, response: DocumentRow,
  }),
  listDraftProgress: route({
    method: 'GET', path: '/documents/progress', access: 'session', bodyKind: 'none',
    summary: "Where the review of each series' latest version stands (its newest review draft's counts, last decision): one request for the documents page.",
    status: 200, response: DraftProgressList,
  }),
  getRenderWindow: route({
    method: 'GET', path: DRAFT_READ_PATHS.renderWindow, access: 'session', bodyKind: 'none', query: RenderWindowQuery,
    summary: "The working draft's render variant cut to the body blocks around one change (a .docx): the pages a reviewer is at, before the whole draft is laid out. 422 unknown_change_ids when the change has no place in the body.",
    status: 200, response: null,
    responseMediaType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  }),
  getRender: route({
    method: 'GET', path: DRAFT_READ_PATHS.render, access: 'session', bodyKind: 'none',
    summary: "The working draft's render variant (a .docx; the draft itself when it has none): what the review answer carries as renderContentBase64, for a client that took the minimal answer to its changes (Prefer: return=minimal).",
    status: 200, response: null,
    responseMediaType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    responseHeaders: { ETag: 'The content hash of the draft the variant shows, quoted.' },
  }),
  getSideBySide: route({
    method: 'GET', path: '/documents/{documentId}/side-by-side', access: 'session', bodyKind: 'none',
    summary: "The working draft read side by side: its rejected view (the older version, for a comparison) and its render variant, every paragraph of each bookmarked, and for each redline paragraph the older paragraph it comes from (null: inserted). 404 not_found for anything but a working draft of the caller's organisation.",
    status: 200, response: SideBySideAnswer,
    responseHeaders: { ETag: 'The content hash of the draft the views were made from, quoted.' },
  }),
  getReview: route({
    method: 'GET', path: DRAFT_READ_PATHS.review, access: 'session', credentials: WEB_OR_CONNECTOR, bodyKind: 'none', query: ReviewQuery,
    summary: 'The working draft with its revisions, render variant and track.', status: 200, response: ReviewResponse,
    requestHeaders: REVIEW_READ_REQUEST, minimalResponse: z.union([ReviewDelta, ReviewMinimalResponse]),
    responseHeaders: { 'Preference-Applied': REVIEW_CHANGE_ANSWER['Preference-Applied'], ...LISTING_VERSION_ANSWER },
  }),
  applyRevisions: route({
    method: 'POST', path: '/documents/{documentId}/revisions/apply', access: 'session', credentials: WEB_OR_CONNECTOR, bodyKind: 'json', body: ApplyRevisionsBody,
    summary: 'Accept and reject tracked revisions of a working draft, atomically.', status: 200, response: ReviewResponse,
    requestHeaders: APPLY_REQUEST, minimalResponse: z.union([ReviewDelta, ReviewMinimalResponse]),
    responseHeaders: { ...REVIEW_CHANGE_ANSWER, ...LISTING_VERSION_ANSWER },
  }),
  undoRevisions: route({
    method: 'POST', path: '/documents/{documentId}/revisions/undo', access: 'session', bodyKind: 'none',
    summary: 'Undo the last batch of decisions (its author only; only if nothing was applied after it).', status: 200, response: ReviewResponse,
    requestHeaders: LISTING_CHANGE_REQUEST, minimalResponse: z.union([ReviewDelta, ReviewMinimalResponse]),
    responseHeaders: { ...REVIEW_CHANGE_ANSWER, ...LISTING_VERSION_ANSWER },
  }),
  writeRedlines: route({
    method: 'POST', path: '/documents/{documentId}/redlines', access: 'session', credentials: WEB_OR_CONNECTOR, bodyKind: 'json', body: RedlineEditsBody,
    summary: 'Propose tracked changes, each with a justification.', status: 200, response: ReviewResponse,
    requestHeaders: LISTING_CHANGE_REQUEST, minimalResponse: z.union([ReviewDelta, ReviewMinimalResponse]),
    responseHeaders: { ...REVIEW_CHANGE_ANSWER, ...LISTING_VERSION_ANSWER },
  }),
  // ---- the checks (issue 35) ----
  checkDocument: route({
    method: 'GET', path: '/documents/{documentId}/checks', access: 'session', credentials: WEB_OR_CONNECTOR, bodyKind: 'none', query: ChecksQuery,
    summary: 'The checks of a draft as accepting (view=accepted, the default) or rejecting (view=rejected) every change would leave it: undefined, unused, twice-defined and misspelt terms, broken cross-references, numbering out of sequence and placeholders; each finding with the changes that bring it (causedBy) and its exact fix when certain.',
    status: 200, response: ChecksAnswer,
  }),
  proposeCheckFixes: route({
    method: 'POST', path: '/documents/{documentId}/checks/proposals', access: 'session', credentials: WEB_OR_CONNECTOR, bodyKind: 'json', body: ProposeFixesBody,
    summary: 'Propose the certain fixes of the checks (a misspelt term, a lower-case use) as tracked changes by "Redline checks", each justified by its finding\'s message; a second call proposes nothing twice. 422 unknown_finding_ids / no_certain_fix, nothing written.',
    status: 200, response: ProposeFixesAnswer,
  }),
  healthLive: route({
    method: 'GET', path: '/health/live', access: 'public', bodyKind: 'none',
    summary: 'Liveness: the process answers. For a process supervisor; touches no dependency.', status: 200, response: LivenessAnswer,
  }),
  healthReady: route({
    method: 'GET', path: '/health/ready', access: 'public', bodyKind: 'none',
    summary: 'Readiness: the database and the blob store answer within a second and the instance is not shutting down (503 otherwise). For load balancers.',
    status: 200, response: ReadinessAnswer,
  }),
  // ---- the answer (issue 14): decision notes and the decision report ----
  noteDecision: route({
    method: 'PUT', path: '/documents/{documentId}/decisions/{changeId}/note', access: 'session', bodyKind: 'json', body: DecisionNoteBody,
    summary: 'Record (or replace, or with empty text remove) the note on a decision already made. 422 note_without_decision when the change is not decided.',
    status: 200, response: ReviewResponse,
  }),
  decisionReportPdf: route({
    method: 'GET', path: '/documents/{documentId}/report.pdf', access: 'session', bodyKind: 'none',
    summary: 'The decision report as PDF: document, version, date, totals, then every change grouped by state.',
    status: 200, response: null, responseMediaType: REPORT_PDF_MEDIA_TYPE,
  }),
  decisionReportCsv: route({
    method: 'GET', path: '/documents/{documentId}/report.csv', access: 'session', bodyKind: 'none',
    summary: 'The decision report as CSV (RFC 4180, UTF-8 with BOM; cells that would start a formula are prefixed with \').',
    status: 200, response: null, responseMediaType: REPORT_CSV_MEDIA_TYPE,
  }),
  // ---- comments and draft downloads (issue 14) ----
  listComments: route({
    method: 'GET', path: '/documents/{documentId}/comments', access: 'session', credentials: WEB_OR_CONNECTOR, bodyKind: 'none',
    summary: 'The Word comments of a working draft (threads, resolved state, the changes each covers).', status: 200, response: CommentList,
  }),
  addComment: route({
    method: 'POST', path: '/documents/{documentId}/comments', access: 'session', credentials: WEB_OR_CONNECTOR, bodyKind: 'json', body: AddCommentBody,
    summary: 'Comment on a change (changeId) or on text (anchor), as a Word comment by the signed-in user.', status: 200, response: CommentsResponse,
  }),
  replyToComment: route({
    method: 'POST', path: '/documents/{documentId}/comments/{commentId}/replies', access: 'session', credentials: WEB_OR_CONNECTOR, bodyKind: 'json', body: ReplyBody,
    summary: 'Reply in a comment\'s thread.', status: 200, response: CommentsResponse,
  }),
  resolveComment: route({
    method: 'PATCH', path: '/documents/{documentId}/comments/{commentId}', access: 'session', bodyKind: 'json', body: ResolveCommentBody,
    summary: 'Resolve or reopen a comment\'s thread.', status: 200, response: CommentsResponse,
  }),
  downloadDraft: route({
    method: 'GET', path: '/documents/{documentId}/download', access: 'session', bodyKind: 'none', query: DraftDownloadQuery,
    summary: 'Download the draft as it stands (variant=redline) or a clean copy with every open change accepted (variant=clean), with its comments kept or removed.',
    status: 200, response: null,
    responseMediaType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  }),
  reviewEvents: route({
    method: 'GET', path: '/documents/{documentId}/events', access: 'session', bodyKind: 'none',
    summary: "Server-Sent Events: the draft's decision-log entries as they commit (event entry, id = log seq; resume with Last-Event-ID), presence and heartbeats.",
    status: 200, response: null, responseMediaType: 'text/event-stream',
  }),
  openapi: route({
    method: 'GET', path: '/openapi.json', access: 'public', bodyKind: 'none',
    summary: 'This document.', status: 200, response: null, responseMediaType: 'application/json',
  }),
} as const satisfies Record<string, RouteSpec>;

export type RouteName = keyof typeof ROUTES;

/** Fill `{param}` placeholders of a route path. */
export function routePath(spec: RouteSpec, params: Record<string, string> = {}): string {
  return fillPath(spec.path, params);
}

export { API_BASE_PATH };
