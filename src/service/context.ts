import type { FastifyBaseLogger } from 'fastify';
import type { SessionRecord, Sessions } from './auth/sessions';
import type { SignInCodes } from './auth/sign-in-codes';
import type { ServiceConfig } from './config';
import type { ComparisonsService } from './compare/comparisons-service';
import type { UntrackedChecks } from './compare/untracked-checks';
import type { Authenticator } from './http/define-route';
import type { EngineThreads } from './engine/engine-threads';
import type { HeavyLimits } from './http/heavy-limits';
import type { Mailer } from './mail/mailer';
import type { OutboxMailer } from './mail/outbox-mailer';
import type { ContentStore } from './store/content-store';
import type { Database } from './store/database';
import type { ReviewService } from './review/review-service';
import type { ReadingService } from './reading/reading-service';
import type { UploadsService } from './uploads/uploads-service';
import type { ChecksService } from './checks/checks-service';

export interface ConnectorHooks {
  resolveAccessToken(token: string): Promise<SessionRecord | null>;
  /** Revokes every grant (and so every access and refresh token) of a user; answers how many. */
  revokeAllGrantsOfUser(userId: string): Promise<number>;
}

/** Everything a route needs, built once by createService(). */
export interface ServiceContext {
  config: ServiceConfig;
  db: Database;
  content: ContentStore;
  mailer: Mailer;
  /** Set only in outbox mail mode (the dev mailbox route exists only then). */
  outbox: OutboxMailer | null;
  sessions: Sessions;
  codes: SignInCodes;
  uploads: UploadsService;
  review: ReviewService;
  /** Reading documents as blocks, search and outline (the reading route and the assistant's tools). */
  reading: ReadingService;
  /** The checks of a draft (issue 35): defined terms, cross-references, numbering, placeholders. */
  checks: ChecksService;
  /** Comparison drafts and the untracked-edit check of new versions (issue 12). */
  comparisons: ComparisonsService;
  untracked: UntrackedChecks;
  /** The engine's worker threads: heavy work off the thread answering requests (ingests, comparisons, readings, searches, PDF reports). */
  engineThreads: EngineThreads;
  authenticate: Authenticator;
  /** Per-user budgets of the heavy operations (routes spend them when authenticated; the MCP tools through this). */
  heavyLimits: HeavyLimits;
  /**
   * The assistant connector (OAuth 2.0 server + MCP), when mounted. It resolves its
   * access tokens to connector sessions and revokes a user's grants on sign-out everywhere.
   */
  connector: ConnectorHooks | null;
  log: FastifyBaseLogger;
}
