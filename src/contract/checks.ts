import { z } from 'zod';
import { clientString } from './client-text';

/**
 * The checks a careful reviewer makes by hand (issue 35), computed by the service on the engine's
 * own accept-all or reject-all of a draft: defined terms, cross-references, numbering and
 * placeholders. Deterministic (no model): the same content always gives the same findings, with
 * the same ids.
 */
export const CHECK_KINDS = [
  'undefined_term',
  'unused_definition',
  'duplicate_definition',
  'term_variant',
  'broken_cross_reference',
  'numbering_out_of_sequence',
  'placeholder',
] as const;
export const CheckKind = z.enum(CHECK_KINDS);
export type CheckKind = z.infer<typeof CheckKind>;

export const CHECK_VIEWS = ['accepted', 'rejected'] as const;
export const CheckView = z.enum(CHECK_VIEWS)
  .describe('accepted: the draft after accepting every change (the default); rejected: after rejecting every change.');
export type CheckView = z.infer<typeof CheckView>;

/** The exact edit a certain fix makes in the draft as it stands: replace the `occurrence`-th `find` of the paragraph `blockId` with `replaceWith`. */
export const CheckFix = z.object({
  blockId: z.string().describe('The paragraph of the draft as it stands (markup view of the reading model).'),
  find: z.string(),
  occurrence: z.number().int().positive().describe('1-based, among the occurrences of `find` in that paragraph\'s text as it reads without deleted text (as a redline edit anchored on the block counts them).'),
  replaceWith: z.string(),
});
export type CheckFix = z.infer<typeof CheckFix>;

export const CheckFinding = z.object({
  id: z.string().describe('Stable across re-reads of the same content: a hash of the kind, the term or reference, the paragraph and the occurrence.'),
  kind: CheckKind,
  message: z.string().describe('What is wrong, as a lawyer would say it.'),
  blockId: z.string().describe('The paragraph the finding is in, as the reading model of this view (GET /uploads/{id}/text?view=…) gives it.'),
  excerpt: z.string().describe('The exact text found (for term_variant: the variant as written).'),
  term: z.string().nullable().describe('The defined term as defined (term_variant: the term it should be); null for other kinds.'),
  reference: z.string().nullable().describe('The citation as written ("Section 14.2"), or the clause number for numbering; null for other kinds.'),
  page: z.number().int().positive().describe('An estimate from the body text before the paragraph (3,000 characters a page); the app shows the laid-out page.'),
  clause: z.string().nullable().describe('The clause the paragraph is in ("7.3(a)"): its own label, else the last numbered paragraph before it.'),
  causedBy: z.array(z.string()).describe('Change ids (as the review lists them) whose acceptance (view accepted) or rejection (view rejected) brings the finding: those touching the places that make it in this view or undo it in the other. Empty when the finding stands either way.'),
  fix: CheckFix.nullable().describe('The exact edit when one is certain (a misspelt term, a lower-case use); else null.'),
});
export type CheckFinding = z.infer<typeof CheckFinding>;

export const ChecksQuery = z.strictObject({ view: CheckView.optional() });
export type ChecksQuery = z.infer<typeof ChecksQuery>;

export const ChecksAnswer = z.object({
  documentId: z.string(),
  view: CheckView,
  findings: z.array(CheckFinding),
});
export type ChecksAnswer = z.infer<typeof ChecksAnswer>;

/** The author of the changes the checks propose. */
export const CHECKS_AUTHOR = 'Redline checks';

export const ProposeFixesBody = z.strictObject({
  findingIds: z.array(clientString().min(1).max(100)).min(1).max(1000).optional()
    .describe('The findings (of the accepted view) whose fixes to propose; default: every finding that has one.'),
});
export type ProposeFixesBody = z.infer<typeof ProposeFixesBody>;

export const ProposeFixesAnswer = z.object({
  documentId: z.string(),
  proposed: z.array(z.object({ findingId: z.string(), changeIds: z.array(z.string()) }))
    .describe(`Each fix written, as tracked changes by "${CHECKS_AUTHOR}" with the finding's message as justification. Empty when every fix is already proposed (a fix proposed and pending is not in the accepted view's findings any more).`),
});
export type ProposeFixesAnswer = z.infer<typeof ProposeFixesAnswer>;
