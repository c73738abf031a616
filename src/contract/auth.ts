import { z } from 'zod';
import { clientString } from './client-text';
import { Timestamp } from './document';

/** An e-mail address, normalised to lower case. */
export const EmailAddress = clientString()
  .trim()
  .max(254)
  .pipe(z.email({ message: 'identifier must be an e-mail address' }))
  .transform((s) => s.toLowerCase());

export const RequestCodeBody = z.strictObject({ identifier: EmailAddress });
export type RequestCodeBody = z.infer<typeof RequestCodeBody>;

export const RequestCodeAccepted = z.object({
  status: z.literal('accepted'),
  detail: z.string(),
});
export type RequestCodeAccepted = z.infer<typeof RequestCodeAccepted>;

export const VerifyBody = z.strictObject({
  identifier: EmailAddress,
  code: clientString().trim().regex(/^\d{8}$/, 'code is the 8-digit number from the e-mail'),
});
export type VerifyBody = z.infer<typeof VerifyBody>;

export const OrgRole = z.enum(['owner', 'member']);
export type OrgRole = z.infer<typeof OrgRole>;

export const OrgMembership = z.object({ id: z.string(), name: z.string(), role: OrgRole });
export type OrgMembership = z.infer<typeof OrgMembership>;

export const UserSummary = z.object({ id: z.string(), email: z.string(), name: z.string() });
export type UserSummary = z.infer<typeof UserSummary>;

/** Answer of POST /auth/verify (and of trading a handoff). */
export const SessionGrant = z.object({
  session_token: z.string(),
  orgId: z.string(),
  user: UserSummary,
  orgs: z.array(OrgMembership),
  expiresAt: Timestamp,
});
export type SessionGrant = z.infer<typeof SessionGrant>;

export const SessionKind = z.enum(['web', 'connector']);

/** Answer of GET /auth/session: the session the request was made with. */
export const SessionDescription = z.object({
  id: z.string(),
  kind: SessionKind,
  user: UserSummary,
  orgs: z.array(OrgMembership),
  createdAt: Timestamp,
  lastUsedAt: Timestamp,
  expiresAt: Timestamp,
});
export type SessionDescription = z.infer<typeof SessionDescription>;

/** GET /dev/mailbox?to=EMAIL (outbox mail mode only). */
export const DevMailboxQuery = z.object({ to: EmailAddress });
export const DevMailboxMessage = z.object({
  /** The outbox's serial number: a later message always has a larger one. */
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  code: z.string().nullable(),
  sentAt: Timestamp,
});
export type DevMailboxMessage = z.infer<typeof DevMailboxMessage>;
