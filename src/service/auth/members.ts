import type { OrgMember } from '../../contract/account';
import type { OrgRole } from '../../contract/auth';
import { ProblemError } from '../http/problem';
import type { Database, Queryable } from '../store/database';
import { addMember, createUser, findUserByEmail } from './directory';

interface MemberRow {
  user_id: string;
  email: string;
  display_name: string;
  role: OrgRole;
  created_at: Date;
}

const toMember = (r: MemberRow): OrgMember => ({ userId: r.user_id, email: r.email, name: r.display_name, role: r.role, joinedAt: r.created_at.toISOString() });

export async function listMembers(db: Queryable, orgId: string): Promise<OrgMember[]> {
  const rows = await db.query<MemberRow>(
    `SELECT m.user_id, u.email, u.display_name, m.role, m.created_at FROM memberships m JOIN users u ON u.id = m.user_id
     WHERE m.org_id = $1 ORDER BY m.created_at, u.email`, [orgId]);
  return rows.map(toMember);
}

/**
 * Adds an address to the organisation. An address with no account gets one (named after
 * its local part until they change it): it signs in with a code and finds the org.
 */
export async function inviteMember(db: Database, orgId: string, email: string, role: OrgRole): Promise<{ member: OrgMember; created: boolean }> {
  return db.transaction(async (tx) => {
    const existing = await findUserByEmail(tx, email);
    if (existing) {
      const already = await tx.query('SELECT 1 FROM memberships WHERE org_id = $1 AND user_id = $2', [orgId, existing.id]);
      if (already.length > 0) throw new ProblemError(409, 'conflict', `${email} is already a member of this organisation.`);
    }
    const user = existing ?? (await createUser(tx, email, email.split('@')[0]!));
    await addMember(tx, orgId, user.id, role);
    const rows = await tx.query<MemberRow>(
      `SELECT m.user_id, u.email, u.display_name, m.role, m.created_at FROM memberships m JOIN users u ON u.id = m.user_id
       WHERE m.org_id = $1 AND m.user_id = $2`, [orgId, user.id]);
    return { member: toMember(rows[0]!), created: !existing };
  });
}

/** Removes a member; the last owner can neither leave nor be removed. */
export async function removeMember(db: Database, orgId: string, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    // Lock the organisation's owner rows so two concurrent removals cannot both pass the check.
    const owners = await tx.query<{ user_id: string }>("SELECT user_id FROM memberships WHERE org_id = $1 AND role = 'owner' FOR UPDATE", [orgId]);
    const target = await tx.query<{ role: OrgRole }>('SELECT role FROM memberships WHERE org_id = $1 AND user_id = $2', [orgId, userId]);
    if (!target[0]) throw new ProblemError(404, 'not_found', 'This person is not a member of the organisation.');
    if (target[0].role === 'owner' && owners.length <= 1) {
      throw new ProblemError(409, 'conflict', 'The last owner cannot leave or be removed; make someone else an owner first.');
    }
    await tx.query('DELETE FROM memberships WHERE org_id = $1 AND user_id = $2', [orgId, userId]);
    // Connector sessions act for one organisation: those of this one end with the membership.
    await tx.query('UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND org_id = $2 AND revoked_at IS NULL', [userId, orgId]);
  });
}
