import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { DOCX_MIME_TYPE } from '../contract/document';
import { buildOpenApiDocument } from '../contract/openapi';
import { API_BASE_PATH, ROUTES } from '../contract/routes';
import { Sessions } from './auth/sessions';
import { SignInCodes } from './auth/sign-in-codes';
import type { ServiceConfig } from './config';
import type { ServiceContext } from './context';
import { defineRoute } from './http/define-route';
import { installErrorHandler, sendProblem } from './http/error-handler';
import { HeavyLimits } from './http/heavy-limits';
import { ProblemError } from './http/problem';
import { authenticate } from './http/request-auth';
import { installCors } from './http/cors';
import { installCompression } from './http/compression';
import { installSlicedJsonAnswers } from './http/sliced-json-answers';
import { installSecurityHeaders } from './http/security-headers';
import type { Mailer } from './mail/mailer';
import { OutboxMailer } from './mail/outbox-mailer';
import { createSmtpMailer } from './mail/smtp-mailer';
import { registerAccountRoutes } from './routes/account-routes';
import { registerAuthRoutes } from './routes/auth-routes';
import { registerOrgRoutes } from './routes/org-routes';
import { registerProviderRoutes } from './routes/provider-routes';
import { sweepProviderSignIns } from './auth/providers/handoffs';
import { registerDevRoutes } from './routes/dev-routes';
import { Readiness } from './health/readiness';
import { registerHealthRoutes } from './routes/health-routes';
import { registerUploadRoutes } from './routes/upload-routes';
import { codeHmacKey } from './secrets-file';
import type { BlobStore } from './store/blobs/blob-store';
import { createDiskBlobStore } from './store/blobs/disk-blob-store';
import { createS3BlobStore } from './store/blobs/s3-blob-store';
import { ContentStore } from './store/content-store';
import type { Database } from './store/database';
import { migrate } from './store/migrations';
import { openPgliteDatabase } from './store/pglite-database';
import { openPostgresDatabase } from './store/postgres-database';
import { ReviewService, type ReviewFaults } from './review/review-service';
import { ReadingService } from './reading/reading-service';
import { registerReadingRoutes } from './routes/reading-routes';
import { registerDocumentRoutes } from './routes/document-routes';
import { registerReportRoutes } from './routes/report-routes';
import { registerCommentRoutes } from './routes/comment-routes';
import { registerEventRoutes } from './routes/event-routes';
import { ReviewEvents } from './live/review-events';
import { purgeStalePresence } from './live/presence';
import { purgeExpiredKeys } from './review/idempotency';
import { Connector } from './connector/connector';
import { registerConnectorRoutes } from './routes/connector-routes';
import { UploadsService } from './uploads/uploads-service';
import { ComparisonsService } from './compare/comparisons-service';
import { UntrackedChecks } from './compare/untracked-checks';
import { EngineThreads } from './engine/engine-threads';
import { registerCompareRoutes } from './routes/compare-routes';
import { registerSideBySideRoutes } from './routes/side-by-side-routes';
import { nativeZipCodec } from './engine/native-zip-codec';
import { ChecksService } from './checks/checks-service';
import { registerChecksRoutes } from './checks/checks-routes';

export interface ServiceParts {
  db?: Database;
  blobs?: BlobStore;
  mailer?: Mailer;
  /** false: no logging. A stream: the service's own log configuration, written there (tests read it). */
  logger?: false | { write(line: string): void };
  /** Test-only fault hooks (see ReviewFaults). */
  faults?: ReviewFaults;
}

export interface Service {
  app: FastifyInstance;
  /** Every route registered, as `METHOD /url` (a test holds it equal to the contract's catalogue). */
  routes: string[];
  ctx: ServiceContext;
  /** Readiness for load balancers; graceful shutdown starts by draining it. */
  readiness: Readiness;
  /**
   * Ends every open review event stream (GET /documents/{id}/events). An open stream keeps
   * the HTTP server from closing: graceful shutdown calls this first (close() and app.close()
   * do it too, through a preClose hook).
   */
  closeStreams(): Promise<void>;
  /** The review event streams of this instance (for figures and tests). */
  events: ReviewEvents;
  close(): Promise<void>;
}

async function openDatabase(config: ServiceConfig): Promise<Database> {
  if (config.databaseUrl) return openPostgresDatabase({ connectionString: config.databaseUrl });
  return openPgliteDatabase(path.join(config.dataDir, 'db'));
}

function openBlobStore(config: ServiceConfig): BlobStore {
  if (config.blobStore === 's3') {
    if (!config.s3) throw new Error('BLOB_STORE=s3 without S3 settings');
    return createS3BlobStore(config.s3);
  }
  return createDiskBlobStore(path.join(config.dataDir, 'blobs'));
}

/** Builds the whole service (database migrated, routes registered) without listening. */
export async function createService(config: ServiceConfig, parts: ServiceParts = {}): Promise<Service> {
  const app = Fastify({
    logger: parts.logger === false ? false : {
      level: config.logLevel,
      // Tokens never reach the log (ASVS 5.0 16.2.5): the header is redacted and tokens are never in URLs.
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], censor: '[redacted]' },
      // Query strings can carry single-use secrets (a sign-in handoff, an OAuth code):
      // requests are logged by path only.
      serializers: {
        req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: req.url.split('?')[0], remoteAddress: req.ip }),
      },
      ...(parts.logger ? { stream: parts.logger } : {}),
    },
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy,
    // While closing, a request that still arrives on an open connection is served, not
    // answered 503: graceful shutdown (lifecycle/) has already failed readiness, so only
    // requests a load balancer sent before it noticed arrive, and none of them is lost.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
  });
  const db = parts.db ?? (await openDatabase(config));
  await migrate(db);
  const blobs = parts.blobs ?? openBlobStore(config);
  const content = new ContentStore(db, blobs);
  const outbox = parts.mailer ? null : config.smtpUrl ? null : new OutboxMailer(db, (m) => {
    app.log.info({ to: m.to, code: m.code }, `mail (outbox) to ${m.to}: ${m.subject}`);
    if (config.announceCodes && m.code) process.stdout.write(`\n  Sign-in code for ${m.to}: ${m.code}\n\n`);
  });
  const mailer = parts.mailer ?? outbox ?? createSmtpMailer(config.smtpUrl!, config.mailFrom);
  const sessions = new Sessions(config.auth);
  const codes = new SignInCodes(db, mailer, config.auth, codeHmacKey(config.codeHmacKey, config.dataDir), config.publicUrl,
    (error) => app.log.error({ err: error }, 'sending mail failed'));
  // The engine reads within the configured limits and zips with Node's native zlib.
  const engine = { limits: { ...config.docxLimits, maxCompressedBytes: config.maxUploadBytes }, codec: nativeZipCodec };
  const engineThreads = new EngineThreads(engine.limits, config.engineThreads, config.docxWork);
  const uploads = new UploadsService(db, content, engineThreads, config.docxWork);
  const review = new ReviewService(db, content, engine, app.log, parts.faults, { openDraftsBytes: config.openDraftsBytes, work: config.docxWork, threads: engineThreads });
  const heavyLimits = new HeavyLimits(db, config.heavyLimits);
  const ctx: ServiceContext = {
    config, db, content, mailer, outbox: outbox ?? (mailer instanceof OutboxMailer ? mailer : null), sessions, codes,
    uploads,
    comparisons: new ComparisonsService(db, content, engineThreads, uploads),
    untracked: new UntrackedChecks(db, content, engineThreads, app.log),
    review,
    reading: new ReadingService(review, content, engineThreads, {
      searchTimeLimitMs: config.searchTimeLimitMs,
      admit: (actor) => heavyLimits.admitKind('reading', actor),
    }),
    engineThreads,
    checks: new ChecksService(db, content, uploads, engineThreads, review),
    authenticate: (request, spec) => authenticate(db, sessions, request, spec, (token) => ctx.connector?.resolveAccessToken(token) ?? Promise.resolve(null)),
    connector: null,
    heavyLimits,
    log: app.log,
  };

  // Heavy routes spend their per-user budget right after authentication, before any of their work.
  const authenticateOnly = ctx.authenticate;
  ctx.authenticate = async (request, spec) => {
    const auth = await authenticateOnly(request, spec);
    await heavyLimits.admit(spec, auth);
    return auth;
  };

  const routes: string[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push(`${method} ${route.url}`);
  });
  installErrorHandler(app);
  installSecurityHeaders(app);
  installCors(app, config.corsOrigins);
  installBodyHandling(app, config);
  await installCompression(app);
  installSlicedJsonAnswers(app);

  const readiness = new Readiness(db, blobs);
  registerHealthRoutes(app, ctx, readiness);
  registerAuthRoutes(app, ctx);
  registerDevRoutes(app, ctx);
  registerUploadRoutes(app, ctx);
  registerReadingRoutes(app, ctx);
  registerDocumentRoutes(app, ctx);
  registerReportRoutes(app, ctx);
  registerCommentRoutes(app, ctx);
  const events = new ReviewEvents(db, app.log);
  ctx.review.onCommitted(() => events.committed());
  registerEventRoutes(app, ctx, events);
  registerCompareRoutes(app, ctx);
  registerSideBySideRoutes(app, ctx);
  registerChecksRoutes(app, ctx);
  // The assistant connector (OAuth server + MCP); its keys and state live in the database.
  const connector = await Connector.create({ db, sessions, publicUrl: config.publicUrl });
  ctx.connector = connector;
  registerConnectorRoutes(app, ctx, connector);
  registerAccountRoutes(app, ctx);
  registerOrgRoutes(app, ctx);
  registerProviderRoutes(app, ctx);
  defineRoute(app, ctx.authenticate, ROUTES.openapi, async () => buildOpenApiDocument(`${config.publicUrl}${API_BASE_PATH}`));
  await installSpa(app, config);

  const maintenance = setInterval(() => void runMaintenance(ctx), 10 * 60_000);
  maintenance.unref();

  return {
    app,
    routes,
    ctx,
    readiness,
    events,
    closeStreams: () => events.closeAll(),
    async close() {
      clearInterval(maintenance);
      await events.closeAll();
      await app.close();
      await ctx.review.settle();
      await ctx.untracked.settle();
      await engineThreads.close();
      await mailer.close();
      if (!parts.db) await db.close();
    },
  };
}

function installBodyHandling(app: FastifyInstance, config: ServiceConfig): void {
  void app.register(fastifyMultipart, {
    limits: { fileSize: config.maxUploadBytes, files: 1, fields: 10, parts: 12, fieldSize: 10_000 },
    throwFileSizeLimit: true,
  });
  // Raw .docx bodies (saving a draft).
  app.addContentTypeParser([DOCX_MIME_TYPE, 'application/octet-stream'], { parseAs: 'buffer', bodyLimit: config.maxUploadBytes },
    (_request, body, done) => done(null, new Uint8Array(body as Buffer)));
  // Refuse a declared oversize body before reading any of it.
  app.addHook('onRequest', async (request, reply) => {
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > config.maxUploadBytes + 64 * 1024) {
      reply.header('connection', 'close');
      return sendProblem(reply, new ProblemError(413, 'payload_too_large',
        `The upload is ${Math.round(declared / 1048576)} MB; the limit is ${Math.round(config.maxUploadBytes / 1048576)} MB.`));
    }
  });
}

/** Serves the built SPA at `/`, with index.html for every client-side route. Unknown /api paths are 404 problems. */
async function installSpa(app: FastifyInstance, config: ServiceConfig): Promise<void> {
  const staticDir = config.staticDir;
  const hasSpa = staticDir !== null && existsSync(path.join(staticDir, 'index.html'));
  // Hashed assets never change under their name: cached for a year. The build writes .br and .gz
  // beside each (vite.config.ts); `preCompressed` sends the best one the browser accepts, so
  // every asset answer varies by Accept-Encoding.
  if (hasSpa) await app.register(fastifyStatic, { root: staticDir, wildcard: false, index: ['index.html'], cacheControl: false, preCompressed: true,
    setHeaders: (res, file) => {
      res.setHeader('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      res.setHeader('vary', 'Accept-Encoding');
    } });
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (url === API_BASE_PATH || url.startsWith(`${API_BASE_PATH}/`) || url.startsWith('/.well-known/') || !hasSpa || request.method !== 'GET') {
      return sendProblem(reply, new ProblemError(404, 'not_found', `No route ${request.method} ${url}.`));
    }
    return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
  });
}

/** Housekeeping every instance may run; each step is safe to run concurrently. */
export async function runMaintenance(ctx: ServiceContext): Promise<void> {
  try {
    await ctx.db.query("DELETE FROM rate_events WHERE at < now() - interval '2 hours'");
    await ctx.db.query("DELETE FROM sign_in_codes WHERE expires_at < now() - interval '1 day'");
    await sweepProviderSignIns(ctx.db);
    await purgeExpiredKeys(ctx.db);
    await purgeStalePresence(ctx.db);
    await ctx.content.sweep(ctx.config.blobGraceMs);
  } catch (error) {
    ctx.log.warn({ err: error }, 'maintenance failed; will retry');
  }
}
