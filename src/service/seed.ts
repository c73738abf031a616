import { buildDemoContract } from '../docx/fixture';
import { addMember, createOrg, createUser, findUserByEmail } from './auth/directory';
import type { ServiceContext } from './context';

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_ORG = 'Demo LLP';
export const DEMO_CONTRACT = 'Master Services Agreement (demo).docx';

/**
 * First start: a demo organisation, its owner demo@example.com, and the demo contract
 * (an original and a working draft of it) carrying every revision kind. Runs once:
 * an existing demo user means the seed already ran.
 */
export async function seedDemo(ctx: ServiceContext): Promise<boolean> {
  if (await findUserByEmail(ctx.db, DEMO_EMAIL)) return false;
  const { userId, orgId } = await ctx.db.transaction(async (tx) => {
    const user = await createUser(tx, DEMO_EMAIL, 'Dana Demo');
    const org = await createOrg(tx, DEMO_ORG);
    await addMember(tx, org, user.id, 'owner');
    return { userId: user.id, orgId: org };
  });
  const original = await ctx.uploads.create(orgId, userId, { fileName: DEMO_CONTRACT, bytes: buildDemoContract() }, 'source_doc', null);
  await ctx.uploads.startWorkingDraft(orgId, userId, original.id);
  return true;
}
