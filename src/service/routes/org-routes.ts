import type { FastifyInstance } from 'fastify';
import { ROUTES } from '../../contract/routes';
import { createApiKey, listApiKeys, revokeApiKey } from '../auth/api-keys';
import { inviteMember, listMembers, removeMember } from '../auth/members';
import type { ServiceContext } from '../context';
import { defineRoute } from '../http/define-route';
import { notFound, ProblemError } from '../http/problem';
import type { RequestAuth } from '../http/request-auth';
import { sessionOf } from '../http/request-auth';
import { invitationMessage } from '../mail/messages';

function requireOwner(auth: RequestAuth): void {
  sessionOf(auth);
  if (auth.role !== 'owner') throw new ProblemError(403, 'forbidden', 'Only an owner of the organisation can do this.');
}

/** Members and API keys of the organisation in x-org-id. */
export function registerOrgRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  defineRoute(app, ctx.authenticate, ROUTES.listMembers, async ({ auth }) => {
    sessionOf(auth);
    return { items: await listMembers(ctx.db, auth.orgId) };
  });

  defineRoute(app, ctx.authenticate, ROUTES.inviteMember, async ({ auth, body }) => {
    requireOwner(auth);
    const { member } = await inviteMember(ctx.db, auth.orgId, body.email, body.role);
    const [org] = await ctx.db.query<{ name: string }>('SELECT name FROM orgs WHERE id = $1', [auth.orgId]);
    await ctx.mailer.send(invitationMessage(body.email, org?.name ?? 'an organisation', ctx.config.publicUrl))
      .catch((error: unknown) => ctx.log.error({ err: error }, 'sending the invitation failed'));
    return member;
  });

  defineRoute(app, ctx.authenticate, ROUTES.removeMember, async ({ auth, params }) => {
    sessionOf(auth);
    // Anyone may leave; only owners may remove others.
    if (params.userId !== auth.userId) requireOwner(auth);
    await removeMember(ctx.db, auth.orgId, params.userId!);
  });

  defineRoute(app, ctx.authenticate, ROUTES.createApiKey, async ({ auth, body }) => {
    requireOwner(auth);
    return createApiKey(ctx.db, auth.orgId, auth.userId, body.name);
  });

  defineRoute(app, ctx.authenticate, ROUTES.listApiKeys, async ({ auth }) => {
    requireOwner(auth);
    return { items: await listApiKeys(ctx.db, auth.orgId) };
  });

  defineRoute(app, ctx.authenticate, ROUTES.revokeApiKey, async ({ auth, params }) => {
    requireOwner(auth);
    if (!(await revokeApiKey(ctx.db, auth.orgId, params.keyId!))) throw notFound('This API key');
  });
}
