import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SessionGrant } from '../../contract/auth';
import { ROUTES } from '../../contract/routes';
import { orgsOfUser } from '../auth/directory';
import { consumeHandoff, createHandoff } from '../auth/providers/handoffs';
import { ProviderClients } from '../auth/providers/provider-clients';
import { ProviderSignInFailure, ProviderSignIns, safeReturnPath } from '../auth/providers/provider-sign-in';
import type { ServiceContext } from '../context';
import { defineRoute } from '../http/define-route';
import { notFound, ProblemError } from '../http/problem';
import { issueSession } from './auth-routes';

/** oidc-provider's interaction ids (and any sane connector's) are URL-safe tokens. */
const INTERACTION_ID = /^[A-Za-z0-9_-]{1,200}$/;

/**
 * Sign-in with an OpenID Connect provider. start and callback are browser navigations,
 * so they answer redirects (failures at the callback go to `/sign-in?error=<code>`, which
 * the sign-in page explains); the handoff trade is a JSON call and answers problem details.
 */
export function registerProviderRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const clients = new ProviderClients(() => ctx.config.providers);
  const signIns = new ProviderSignIns(ctx.db, clients, () => ctx.config.publicUrl);
  const appUrl = (path: string) => `${ctx.config.publicUrl.replace(/\/+$/, '')}${path}`;
  const redirect = (reply: FastifyReply, location: string) =>
    // Nothing about a sign-in redirect may be cached or replayed from a cache.
    reply.header('cache-control', 'no-store').redirect(location, 302);

  defineRoute(app, ctx.authenticate, ROUTES.listProviders, async () => ({
    providers: ctx.config.providers.map((p) => ({ id: p.id, name: p.name })),
  }));

  defineRoute(app, ctx.authenticate, ROUTES.startProvider, async ({ params, query, reply }) => {
    const provider = clients.find(params.providerId ?? '');
    if (!provider) throw notFound(`The sign-in provider "${params.providerId}"`);
    const returnTo = safeReturnPath(query.returnTo);
    if (query.returnTo && !returnTo) {
      throw new ProblemError(400, 'invalid_request', 'returnTo must be a path of this app (starting with a single "/").',
        { errors: [{ path: 'returnTo', message: 'must be a path of this app' }] });
    }
    if (query.interaction && !INTERACTION_ID.test(query.interaction)) {
      throw new ProblemError(400, 'invalid_request', 'interaction is not a valid interaction id.',
        { errors: [{ path: 'interaction', message: 'letters, digits, "-" and "_" only' }] });
    }
    try {
      const url = await signIns.start(provider, { returnTo, interaction: query.interaction ?? null });
      return redirect(reply, url.href);
    } catch (e) {
      if (!(e instanceof ProviderSignInFailure)) throw e;
      ctx.log.warn({ provider: provider.id, code: e.code, reason: e.reason }, 'provider sign-in could not start');
      return redirect(reply, appUrl(`/sign-in?error=${e.code}`));
    }
  });

  defineRoute(app, ctx.authenticate, ROUTES.providerCallback, async ({ params, request, reply }) => {
    const provider = clients.find(params.providerId ?? '');
    if (!provider) throw notFound(`The sign-in provider "${params.providerId}"`);
    const rawQuery = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    try {
      const result = await signIns.callback(provider, new URLSearchParams(rawQuery));
      if ((await orgsOfUser(ctx.db, result.userId)).length === 0) {
        throw new ProviderSignInFailure('no_organisation', 'the account belongs to no organisation');
      }
      const handoff = await createHandoff(ctx.db, result.userId);
      ctx.log.info({ provider: provider.id, userId: result.userId, linkedBy: result.linkedBy }, 'provider sign-in');
      if (result.interaction) {
        return redirect(reply, appUrl(`/connector/authorize?${new URLSearchParams({ interaction: result.interaction, handoff })}`));
      }
      const target = new URLSearchParams({ handoff });
      if (result.returnTo) target.set('returnTo', result.returnTo);
      return redirect(reply, appUrl(`/sign-in/complete?${target}`));
    } catch (e) {
      if (!(e instanceof ProviderSignInFailure)) throw e;
      ctx.log.warn({ provider: provider.id, code: e.code, reason: e.reason }, 'provider sign-in failed');
      return redirect(reply, appUrl(`/sign-in?error=${e.code}`));
    }
  });

  defineRoute(app, ctx.authenticate, ROUTES.tradeHandoff, async ({ body, request }): Promise<SessionGrant> => {
    const userId = await consumeHandoff(ctx.db, body.handoff);
    const agent = request.headers['user-agent'];
    return issueSession(ctx, userId, 'web', agent ? agent.slice(0, 200) : null);
  });
}
