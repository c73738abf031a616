import type { FastifyBaseLogger } from 'fastify';
import type { Sessions } from './auth/sessions';
import type { SignInCodes } from './auth/sign-in-codes';
import type { ServiceConfig } from './config';
import type { Authenticator } from './http/define-route';
import type { Mailer } from './mail/mailer';
import type { OutboxMailer } from './mail/outbox-mailer';
import type { ContentStore } from './store/content-store';
import type { Database } from './store/database';
import type { ReviewService } from './review/review-service';
import type { UploadsService } from './uploads/uploads-service';

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
  authenticate: Authenticator;
  log: FastifyBaseLogger;
}
