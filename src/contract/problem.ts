import { z } from 'zod';

/**
 * Stable machine words for every failure the service answers. Clients branch on
 * `code`, never on `title` or `detail`.
 */
export const ERROR_CODES = [
  'invalid_request',
  'unauthenticated',
  'forbidden',
  'session_required',
  'not_own_proposal',
  'not_found',
  'conflict',
  'not_working_draft',
  'unknown_change_ids',
  'already_decided',
  // If-Match named a review listing version the draft has moved on from (issue 36.1): nothing was applied.
  'listing_changed',
  // An Idempotency-Key sent again with a different request (issue 16).
  'idempotency_key_reused',
  'conflicting_change_ids',
  'edit_not_found',
  'nothing_to_undo',
  'note_without_decision',
  'note_too_long',
  // Comments (issue 14): a comment id the draft does not hold; an anchor text that does not occur.
  'comment_not_found',
  'anchor_not_found',
  // Reading and anchored edits (issue 25): a page cursor of a content that has since changed; an
  // edit's block that is not in the draft, whose version moved on, or whose find matches more than once.
  'stale_cursor',
  // A page cursor that does not decode to a position the service could have given (issue 31).
  'invalid_cursor',
  // The checks (issue 35): a finding id the draft's accepted view does not have; a finding with no certain fix.
  'unknown_finding_ids',
  'no_certain_fix',
  'block_not_found',
  // Issue 31: an anchored edit naming a comment's paragraph (edits act on the body, headers, footers and notes).
  'block_in_comment',
  'stale_anchor',
  'ambiguous_anchor',
  // Search (issue 31): a regular expression RE2 does not run (a back-reference, a look-around, any
  // other syntax it lacks, too large a program: `construct` names which); a search that ran past
  // its time limit on this document (the work was ended).
  'unsupported_regex',
  'search_too_slow',
  'invalid_code',
  'code_expired',
  'code_burnt',
  'invalid_handoff',
  'handoff_expired',
  // The assistant connector's OAuth server, where it cannot redirect back to the client (RFC 6749 4.1.2.1).
  'invalid_client',
  'invalid_redirect_uri',
  'oauth_error',
  'interaction_expired',
  'method_not_allowed',
  'invalid_docx',
  // Text holding a character a Word document cannot hold (XML 1.0: C0 controls but tab and line
  // breaks, U+FFFE, U+FFFF, lone surrogates), in any field a client sends (issue 31).
  'forbidden_character',
  'unsupported_media_type',
  'payload_too_large',
  'rate_limited',
  'service_unavailable',
  // Readiness: a dependency did not answer in time, or the instance is shutting down.
  'not_ready',
  'internal_error',
] as const;
export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

/**
 * What a search refuses in a regular expression (unsupported_regex): a back-reference, a
 * look-ahead or look-behind (none can be matched in linear time), an escape or group syntax RE2
 * lacks, a repetition count over 1000, a pattern compiling too large, or malformed syntax.
 */
export const UNSUPPORTED_REGEX_CONSTRUCTS = ['backreference', 'lookahead', 'lookbehind', 'escape', 'group_syntax', 'repeat_count', 'too_large', 'syntax'] as const;
export const UnsupportedRegexConstruct = z.enum(UNSUPPORTED_REGEX_CONSTRUCTS);
export type UnsupportedRegexConstruct = z.infer<typeof UnsupportedRegexConstruct>;

/** RFC 9457 problem details, served as application/problem+json. */
export const Problem = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: ErrorCode,
  errors: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .optional()
    .describe('Field-level problems of a bad request body.'),
  ids: z.array(z.string()).optional().describe('The change ids a batch was refused for.'),
  retryAfterSeconds: z.number().int().optional(),
  limit: z.string().optional().describe('payload_too_large from a work limit: the setting whose limit the .docx passed, e.g. DOCX_MAX_PARAGRAPHS.'),
  decisions: z
    .array(z.object({
      id: z.string(),
      state: z.enum(['in', 'back']),
      decidedAt: z.string(),
      decidedByUserId: z.string().nullable(),
      decidedByName: z.string().nullable(),
    }))
    .optional()
    .describe('already_decided: how, when and by whom each refused change was decided.'),
  blockId: z.string().optional().describe('Anchored redline edits: the block the refused edit named.'),
  blockText: z.string().optional().describe('Anchored redline edits: that block\'s text as it reads now.'),
  candidates: z
    .array(z.object({ occurrence: z.number().int(), start: z.number().int(), end: z.number().int(), context: z.string() }))
    .optional()
    .describe('ambiguous_anchor: every occurrence of find in the block; anchor_not_found: its matches in other case. Offsets into the block text without deleted text.'),
  construct: UnsupportedRegexConstruct.optional().describe('unsupported_regex: what the search refused in the pattern.'),
});
export type Problem = z.infer<typeof Problem>;

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export function problemType(code: ErrorCode): string {
  return `https://redline.dev/problems/${code.replace(/_/g, '-')}`;
}
