import type { FastifyInstance, FastifyReply } from 'fastify';
import { CHANGES_HEADER } from '../../contract/compare';
import { ROUTES } from '../../contract/routes';
import { UNTRACKED_MAX_WAIT_SECONDS, UNTRACKED_WAIT_SECONDS, type CheckPhases } from '../compare/untracked-checks';
import type { ServiceContext } from '../context';
import { countEntries } from '../../contract/entries';
import { listComparisonProgress } from '../compare/comparison-progress';
import { defineRoute } from '../http/define-route';
import type { ServerTiming } from '../http/server-timing';

/** Comparing two versions into a working draft, and the untracked-edit check of a version (issue 12). */
export function registerCompareRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { comparisons, untracked } = ctx;

  defineRoute(app, ctx.authenticate, ROUTES.compareVersions, async ({ auth, params, body, reply, timing }) => {
    const outcome = await timing.measure('compare', () => comparisons.compare(auth, params.uploadId!, body));
    if ('identical' in outcome) return answerNothingToReview(reply, timing, outcome);
    reply.header(CHANGES_HEADER, String(outcome.changes));
    return outcome.document;
  });

  // Counted as the documents page counts a review (entries), read from the stored track projection.
  defineRoute(app, ctx.authenticate, ROUTES.listComparisonProgress, async ({ auth }) => {
    const count = async (documentId: string) => {
      const track = (await ctx.review.review(auth, documentId)).track;
      return track ? countEntries(track.items) : null;
    };
    return { items: await listComparisonProgress(ctx.db, auth.orgId, count, (ids) => ctx.review.storedCounts(ids)) };
  });

  defineRoute(app, ctx.authenticate, ROUTES.getComparison, ({ auth, params }) => comparisons.summary(auth, params.uploadId!));

  defineRoute(app, ctx.authenticate, ROUTES.getUntracked, async ({ auth, params, request, reply, timing }) => {
    const waitMs = preferredWaitSeconds(request.headers.prefer) * 1000;
    const answer = await untracked.report(auth.orgId, params.uploadId!, waitMs, timing);
    if (answer.state === 'ready') {
      // The check's own phases, when this instance ran it (bench/untracked.ts prints them).
      const phases = untracked.phasesOf(params.uploadId!);
      if (phases) addCheckPhases(timing, phases);
      return answer.report;
    }
    const spent = timing.header();
    if (spent) reply.header('server-timing', spent);
    return reply.code(202).header('retry-after', String(answer.retryAfterSeconds)).header('cache-control', 'no-store').send(answer);
  });

  defineRoute(app, ctx.authenticate, ROUTES.untrackedWorkingDraft, async ({ auth, params, reply, timing }) => {
    const outcome = await timing.measure('compare', () => comparisons.untrackedWorkingDraft(auth, params.uploadId!));
    if ('nothingToReview' in outcome) return answerNothingToReview(reply, timing, outcome);
    reply.header(CHANGES_HEADER, String(outcome.changes));
    return outcome.document;
  });
}

/** A comparison that found nothing answers 200 with what it compared (no draft, no Redline-Changes), its time spent included. */
function answerNothingToReview(reply: FastifyReply, timing: ServerTiming, outcome: object): FastifyReply {
  const spent = timing.header();
  if (spent) reply.header('server-timing', spent);
  return reply.code(200).send(outcome);
}

/**
 * How long a GET of the untracked report waits for a running check: `Prefer: wait=N` (RFC 7240;
 * 0 answers at once), at most UNTRACKED_MAX_WAIT_SECONDS, else UNTRACKED_WAIT_SECONDS.
 */
export function preferredWaitSeconds(prefer: string | string[] | undefined): number {
  const asked = /(?:^|[,;\s])wait\s*=\s*"?(\d+)"?/i.exec([prefer ?? []].flat().join(','));
  return asked ? Math.min(Number(asked[1]), UNTRACKED_MAX_WAIT_SECONDS) : UNTRACKED_WAIT_SECONDS;
}

function addCheckPhases(timing: ServerTiming, phases: CheckPhases): void {
  for (const [name, ms] of Object.entries(phases)) timing.add(`check-${name}`, ms);
}
