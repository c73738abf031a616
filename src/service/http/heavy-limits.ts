import { ROUTES, type RouteSpec } from '../../contract/routes';
import { hitRateLimit } from '../auth/rate-limits';
import type { HeavyKind, HeavyRateLimits } from '../config';
import type { Database } from '../store/database';
import { ProblemError } from './problem';
import type { RequestAuth } from './request-auth';

/** Which catalogue routes are heavy, and which budget each spends. */
export const HEAVY_ROUTES: ReadonlyMap<RouteSpec, HeavyKind> = new Map<RouteSpec, HeavyKind>([
  [ROUTES.createUpload, 'upload'],
  [ROUTES.createVersion, 'upload'],
  [ROUTES.saveDraft, 'upload'],
  [ROUTES.compareVersions, 'compare'],
  [ROUTES.untrackedWorkingDraft, 'compare'],
  [ROUTES.startWorkingDraft, 'working_draft'],
  [ROUTES.decisionReportPdf, 'report'],
  [ROUTES.decisionReportCsv, 'report'],
]);

const WINDOW_MS = 60_000;

const WHAT: Record<HeavyKind, string> = {
  upload: 'uploads, versions and draft saves',
  compare: 'comparisons',
  working_draft: 'new working drafts',
  report: 'decision reports',
  reading: 'searches and first readings of documents',
};

/**
 * Per-user rate limits on the heavy routes: sliding one-minute windows counted in the database
 * (rate_events, as the sign-in limits), so they hold however many instances serve the user. An
 * API key counts as its own user. Past a budget: 429 rate_limited with Retry-After, before any
 * of the request's work.
 */
export class HeavyLimits {
  constructor(private readonly db: Database, private readonly limits: HeavyRateLimits) {}

  /** Counts the request against its route's budget, if the route is heavy; throws 429 past it. */
  async admit(spec: RouteSpec, auth: RequestAuth): Promise<void> {
    const kind = HEAVY_ROUTES.get(spec);
    if (kind) await this.spend(kind, auth.apiKeyId ? `api-key:${auth.apiKeyId}` : `user:${auth.userId}`);
  }

  /**
   * Counts a heavy operation asked for otherwise than by its route (the assistant's MCP tools, the
   * reading's first readings and searches); throws 429 past the budget.
   */
  async admitKind(kind: HeavyKind, actor: { userId: string; apiKeyId?: string | null }): Promise<void> {
    await this.spend(kind, actor.apiKeyId ? `api-key:${actor.apiKeyId}` : `user:${actor.userId}`);
  }

  private async spend(kind: HeavyKind, who: string): Promise<void> {
    const limit = this.limits[kind];
    const decision = await this.db.transaction((tx) => hitRateLimit(tx, `heavy:${kind}:${who}`, limit, WINDOW_MS));
    if (!decision.allowed) {
      throw new ProblemError(429, 'rate_limited', `Too many ${WHAT[kind]}: at most ${limit} a minute. Try again in ${decision.retryAfterSeconds} s.`,
        { retryAfterSeconds: decision.retryAfterSeconds });
    }
  }
}
