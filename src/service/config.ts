import os from 'node:os';
import path from 'node:path';
import { parseOidcProviders, type OidcProviderConfig } from './auth/providers/provider-config';

/** The heavy operations, each with its own per-user budget (engine work, PDF rendering, stored bytes): http/heavy-limits.ts. */
export type HeavyKind = 'upload' | 'compare' | 'working_draft' | 'report' | 'reading';

/** How many of each a user may start per minute (README, Configuration: RATE_*_PER_USER_PER_MINUTE). */
export type HeavyRateLimits = Record<HeavyKind, number>;

export const DEFAULT_HEAVY_LIMITS: HeavyRateLimits = { upload: 60, compare: 20, working_draft: 60, report: 30, reading: 120 };

/** Every limit and number of the sign-in rules; DESIGN.md's values are the defaults. */
export interface AuthLimits {
  codeLifetimeMs: number;
  maxWrongTriesPerCode: number;
  maxFailedVerifiesPerAddressPerHour: number;
  resendCooldownMs: number;
  maxCodesPerAddressPerHour: number;
  maxSendsPerIpPerMinute: number;
  maxVerifiesPerIpPer5Minutes: number;
  sessionIdleMs: number;
  sessionAbsoluteMs: number;
}

export interface ServiceConfig {
  host: string;
  port: number;
  /** The address people open; used in e-mails and the start-up banner. */
  publicUrl: string;
  dataDir: string;
  /** Set: PostgreSQL. Unset: embedded PGlite under dataDir/db. */
  databaseUrl: string | null;
  blobStore: 'disk' | 's3';
  /** Set when blobStore is 's3': any S3-compatible object store. */
  s3: S3Settings | null;
  /** Set: real SMTP. Unset: the development outbox. */
  smtpUrl: string | null;
  /**
   * Serve GET /api/dev/mailbox (anyone's newest sign-in code, without sign-in): only in
   * outbox mode, and only when nothing but this machine can reach the service, or when
   * DEV_OUTBOX=true says so explicitly. See devMailboxFromEnv.
   */
  devMailbox: boolean;
  mailFrom: string;
  /** Key of the HMAC that sign-in codes are stored under; generated into dataDir when unset. */
  codeHmacKey: string | null;
  maxUploadBytes: number;
  /** Caps on what a .docx may unpack to (zip-bomb defence); passed to the engine's reader. */
  docxLimits: { maxUncompressedBytes: number; maxEntries: number };
  /** Caps on the work one upload may ask of the engine (its text parts' XML and paragraphs), checked before parsing. */
  docxWork: { maxStoryBytes: number; maxParagraphs: number };
  /** The engine's worker threads: how many, how many jobs may wait, how many one organisation may have running or waiting. */
  engineThreads: { threads: number; maxQueued: number; maxPerOrg: number };
  /** Memory for drafts kept parsed between batches (0: parse every time). */
  openDraftsBytes: number;
  auth: AuthLimits;
  /** Per-user budgets of the heavy operations, per minute (http/heavy-limits.ts). */
  heavyLimits: HeavyRateLimits;
  /** How long one document search may run before it is ended (answered 422 search_too_slow). */
  searchTimeLimitMs: number;
  /** Serve the built SPA from this folder (null: API only). */
  staticDir: string | null;
  seedDemo: boolean;
  /** Outbox mode: also print each sign-in code as a plain console line (npm start); tests turn it off. */
  announceCodes: boolean;
  /** TRUST_PROXY=true: behind a proxy that overwrites X-Forwarded-For with the client address. */
  trustProxy: boolean;
  /** Origins allowed to call the API from a browser (CORS_ORIGINS, comma-separated); none by default. */
  corsOrigins: string[];
  /** Whether anyone may sign up (creating a user and their organisation). SIGN_UP=closed turns it off. */
  signUpOpen: boolean;
  logLevel: string;
  blobGraceMs: number;
  /** Graceful shutdown: how long requests in flight may take after SIGTERM before their connections are cut. */
  shutdownGraceMs: number;
  /** Graceful shutdown: how long to keep serving with readiness failing, so load balancers notice first. */
  shutdownDrainMs: number;
  /** OpenID Connect sign-in providers, from OIDC_PROVIDERS (format: see auth/providers/provider-config.ts). */
  providers: OidcProviderConfig[];
}

export interface S3Settings {
  /** null: AWS's own endpoint for the region. */
  endpoint: string | null;
  bucket: string;
  region: string;
  /** null: the AWS SDK's default credential chain. */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  forcePathStyle: boolean;
}

export const DEFAULT_AUTH_LIMITS: AuthLimits = {
  codeLifetimeMs: 10 * 60_000,
  maxWrongTriesPerCode: 5,
  maxFailedVerifiesPerAddressPerHour: 10,
  resendCooldownMs: 60_000,
  maxCodesPerAddressPerHour: 5,
  maxSendsPerIpPerMinute: 3,
  maxVerifiesPerIpPer5Minutes: 30,
  sessionIdleMs: 7 * 24 * 3600_000,
  sessionAbsoluteMs: 30 * 24 * 3600_000,
};

function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return value;
}

/**
 * One engine thread per core beyond the first (which the main thread keeps for answering), at
 * least one, at most four: each thread may hold a large document's parse (hundreds of MB) at once.
 */
function defaultEngineThreads(): number {
  return Math.min(4, Math.max(1, os.availableParallelism() - 1));
}

/** Whether a host name or address is this machine only: 127.0.0.0/8, ::1, localhost. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return bare === 'localhost' || bare.endsWith('.localhost') || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare) || bare === '::ffff:127.0.0.1';
}

/**
 * The development outbox's mailbox hands anyone every sign-in code, so it is served only
 * where nobody but this machine can ask: the service listens on loopback only, is not
 * behind a proxy (TRUST_PROXY) and its PUBLIC_URL is a loopback address, as with
 * `npm start`. Anywhere else it takes DEV_OUTBOX=true; and a service reachable from other
 * machines with neither SMTP_URL nor DEV_OUTBOX=true refuses to start, rather than send
 * codes nowhere or to everyone.
 */
export function devMailboxFromEnv(env: NodeJS.ProcessEnv, host: string, publicUrl: string): boolean {
  const explicit = env.DEV_OUTBOX ?? '';
  if (explicit !== '' && explicit !== 'true' && explicit !== 'false') throw new Error(`DEV_OUTBOX must be "true" or "false" (got "${explicit}")`);
  if (env.SMTP_URL) return false;
  if (explicit === 'true') return true;
  const reachableFrom = [
    !isLoopbackHost(host) && `HOST=${host} listens beyond loopback`,
    env.TRUST_PROXY === 'true' && 'TRUST_PROXY=true puts it behind a proxy',
    URL.canParse(publicUrl) && !isLoopbackHost(new URL(publicUrl).hostname) && `PUBLIC_URL=${publicUrl} is not a loopback address`,
  ].filter(Boolean);
  if (reachableFrom.length === 0) return explicit !== 'false';
  throw new Error(`This service is reachable from other machines (${reachableFrom.join('; ')}), and without SMTP_URL its sign-in codes would go to `
    + 'the development outbox, whose mailbox route serves them to anyone. Set SMTP_URL to send codes by mail, or DEV_OUTBOX=true to '
    + 'serve the development mailbox anyway (a test or demo environment only).');
}

/** Reads the configuration from the environment; every variable is documented in README.md. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const port = intFromEnv(env, 'PORT', 8787);
  const host = env.HOST ?? '127.0.0.1';
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  const blobStore = env.BLOB_STORE ?? 'disk';
  if (blobStore !== 'disk' && blobStore !== 's3') throw new Error(`BLOB_STORE must be "disk" or "s3" (got "${blobStore}")`);
  const s3 = blobStore === 's3' ? s3FromEnv(env) : null;
  const auth: AuthLimits = { ...DEFAULT_AUTH_LIMITS };
  const overrides: [keyof AuthLimits, string][] = [
    ['maxSendsPerIpPerMinute', 'RATE_SENDS_PER_IP_PER_MINUTE'],
    ['maxVerifiesPerIpPer5Minutes', 'RATE_VERIFIES_PER_IP_PER_5_MINUTES'],
    ['maxCodesPerAddressPerHour', 'RATE_CODES_PER_ADDRESS_PER_HOUR'],
    ['resendCooldownMs', 'RATE_RESEND_COOLDOWN_MS'],
    ['maxFailedVerifiesPerAddressPerHour', 'RATE_FAILED_VERIFIES_PER_ADDRESS_PER_HOUR'],
  ];
  for (const [key, name] of overrides) auth[key] = intFromEnv(env, name, auth[key]);
  const heavyLimits: HeavyRateLimits = {
    upload: intFromEnv(env, 'RATE_UPLOADS_PER_USER_PER_MINUTE', DEFAULT_HEAVY_LIMITS.upload),
    compare: intFromEnv(env, 'RATE_COMPARES_PER_USER_PER_MINUTE', DEFAULT_HEAVY_LIMITS.compare),
    working_draft: intFromEnv(env, 'RATE_WORKING_DRAFTS_PER_USER_PER_MINUTE', DEFAULT_HEAVY_LIMITS.working_draft),
    report: intFromEnv(env, 'RATE_REPORTS_PER_USER_PER_MINUTE', DEFAULT_HEAVY_LIMITS.report),
    reading: intFromEnv(env, 'RATE_READINGS_PER_USER_PER_MINUTE', DEFAULT_HEAVY_LIMITS.reading),
  };
  const publicUrl = env.PUBLIC_URL ?? `http://localhost:${port}`;
  return {
    host,
    port,
    publicUrl,
    dataDir,
    databaseUrl: env.DATABASE_URL || null,
    blobStore,
    s3,
    smtpUrl: env.SMTP_URL || null,
    devMailbox: devMailboxFromEnv(env, host, publicUrl),
    mailFrom: env.MAIL_FROM ?? 'Redline <no-reply@redline.local>',
    codeHmacKey: env.CODE_HMAC_KEY || null,
    maxUploadBytes: intFromEnv(env, 'MAX_UPLOAD_BYTES', 50 * 1024 * 1024),
    docxLimits: {
      maxUncompressedBytes: intFromEnv(env, 'DOCX_MAX_UNCOMPRESSED_BYTES', 400 * 1024 * 1024),
      maxEntries: intFromEnv(env, 'DOCX_MAX_ENTRIES', 2000),
    },
    // 32 MB and 50,000 paragraphs: about 1,100 pages; the 300-page benchmark contract holds 7.5 MB and 13,800.
    docxWork: {
      maxStoryBytes: intFromEnv(env, 'DOCX_MAX_TEXT_BYTES', 32 * 1024 * 1024),
      maxParagraphs: intFromEnv(env, 'DOCX_MAX_PARAGRAPHS', 50_000),
    },
    engineThreads: {
      threads: Math.max(1, intFromEnv(env, 'ENGINE_THREADS', defaultEngineThreads())),
      maxQueued: intFromEnv(env, 'ENGINE_QUEUE_LIMIT', 16),
      maxPerOrg: Math.max(1, intFromEnv(env, 'ENGINE_JOBS_PER_ORG', 4)),
    },
    openDraftsBytes: intFromEnv(env, 'OPEN_DRAFTS_MB', 512) * 1024 * 1024,
    auth,
    heavyLimits,
    searchTimeLimitMs: Math.max(100, intFromEnv(env, 'SEARCH_TIME_LIMIT_MS', 5_000)),
    staticDir: env.STATIC_DIR === '' ? null : path.resolve(env.STATIC_DIR ?? './dist'),
    seedDemo: env.SEED_DEMO !== 'false',
    announceCodes: true,
    trustProxy: env.TRUST_PROXY === 'true',
    corsOrigins: (env.CORS_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean),
    signUpOpen: env.SIGN_UP !== 'closed',
    logLevel: env.LOG_LEVEL ?? 'info',
    blobGraceMs: intFromEnv(env, 'BLOB_SWEEP_GRACE_MS', 3600_000),
    shutdownGraceMs: intFromEnv(env, 'SHUTDOWN_GRACE_MS', 30_000),
    shutdownDrainMs: intFromEnv(env, 'SHUTDOWN_DRAIN_MS', 0),
    providers: parseOidcProviders(env.OIDC_PROVIDERS),
  };
}

/** BLOB_STORE=s3: S3_BUCKET is required; the rest default to AWS's endpoint and credential chain. */
function s3FromEnv(env: NodeJS.ProcessEnv): S3Settings {
  const bucket = env.S3_BUCKET;
  if (!bucket) throw new Error('BLOB_STORE=s3 needs S3_BUCKET');
  const accessKeyId = env.S3_ACCESS_KEY_ID || null;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || null;
  if (!accessKeyId !== !secretAccessKey) throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together or not at all');
  const pathStyle = env.S3_FORCE_PATH_STYLE ?? 'false';
  if (pathStyle !== 'true' && pathStyle !== 'false') throw new Error(`S3_FORCE_PATH_STYLE must be "true" or "false" (got "${pathStyle}")`);
  return {
    endpoint: env.S3_ENDPOINT || null,
    bucket,
    region: env.S3_REGION || 'us-east-1',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : null,
    forcePathStyle: pathStyle === 'true',
  };
}
