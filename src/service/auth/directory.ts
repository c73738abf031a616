import type { OrgMembership, OrgRole, UserSummary } from '../../contract/auth';
import type { Queryable } from '../store/database';
import { newId } from './secrets';

/** Users, organisations and who belongs where. */
export async function findUserByEmail(db: Queryable, email: string): Promise<UserSummary | null> {
  const rows = await db.query<{ id: string; email: string; display_name: string }>(
    'SELECT id, email, display_name FROM users WHERE email = $1', [email]);
  const row = rows[0];
  return row ? { id: row.id, email: row.email, name: row.display_name } : null;
}

export async function findUserById(db: Queryable, id: string): Promise<UserSummary | null> {
  const rows = await db.query<{ id: string; email: string; display_name: string }>(
    'SELECT id, email, display_name FROM users WHERE id = $1', [id]);
  const row = rows[0];
  return row ? { id: row.id, email: row.email, name: row.display_name } : null;
}

/** The user's organisations, oldest membership first (the first is the default org). */
export async function orgsOfUser(db: Queryable, userId: string): Promise<OrgMembership[]> {
  const rows = await db.query<{ id: string; name: string; role: OrgRole }>(
    `SELECT o.id, o.name, m.role FROM memberships m JOIN orgs o ON o.id = m.org_id
     WHERE m.user_id = $1 ORDER BY m.created_at, o.name`, [userId]);
  return rows.map((r) => ({ id: r.id, name: r.name, role: r.role }));
}

export async function roleIn(db: Queryable, userId: string, orgId: string): Promise<OrgRole | null> {
  const rows = await db.query<{ role: OrgRole }>('SELECT role FROM memberships WHERE user_id = $1 AND org_id = $2', [userId, orgId]);
  return rows[0]?.role ?? null;
}

export async function createUser(db: Queryable, email: string, name: string): Promise<UserSummary> {
  const id = newId();
  await db.query('INSERT INTO users (id, email, display_name) VALUES ($1, $2, $3)', [id, email, name]);
  return { id, email, name };
}

export async function createOrg(db: Queryable, name: string): Promise<string> {
  const id = newId();
  await db.query('INSERT INTO orgs (id, name) VALUES ($1, $2)', [id, name]);
  return id;
}

export async function addMember(db: Queryable, orgId: string, userId: string, role: OrgRole): Promise<void> {
  await db.query(
    'INSERT INTO memberships (org_id, user_id, role) VALUES ($1, $2, $3) ON CONFLICT (org_id, user_id) DO UPDATE SET role = EXCLUDED.role',
    [orgId, userId, role]);
}
