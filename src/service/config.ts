import path from 'node:path';

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
  blobStore: 'disk';
  /** Set: real SMTP. Unset: the development outbox. */
  smtpUrl: string | null;
  mailFrom: string;
  /** Key of the HMAC that sign-in codes are stored under; generated into dataDir when unset. */
  codeHmacKey: string | null;
  maxUploadBytes: number;
  /** Caps on what a .docx may unpack to (zip-bomb defence); passed to the engine's reader. */
  docxLimits: { maxUncompressedBytes: number; maxEntries: number };
  auth: AuthLimits;
  /** Serve the built SPA from this folder (null: API only). */
  staticDir: string | null;
  seedDemo: boolean;
  logLevel: string;
  blobGraceMs: number;
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

/** Reads the configuration from the environment; every variable is documented in README.md. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const port = intFromEnv(env, 'PORT', 8787);
  const host = env.HOST ?? '127.0.0.1';
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  const blobStore = env.BLOB_STORE ?? 'disk';
  if (blobStore !== 'disk') throw new Error(`BLOB_STORE must be "disk" (got "${blobStore}")`);
  const auth: AuthLimits = { ...DEFAULT_AUTH_LIMITS };
  const overrides: [keyof AuthLimits, string][] = [
    ['maxSendsPerIpPerMinute', 'RATE_SENDS_PER_IP_PER_MINUTE'],
    ['maxVerifiesPerIpPer5Minutes', 'RATE_VERIFIES_PER_IP_PER_5_MINUTES'],
    ['maxCodesPerAddressPerHour', 'RATE_CODES_PER_ADDRESS_PER_HOUR'],
    ['resendCooldownMs', 'RATE_RESEND_COOLDOWN_MS'],
    ['maxFailedVerifiesPerAddressPerHour', 'RATE_FAILED_VERIFIES_PER_ADDRESS_PER_HOUR'],
  ];
  for (const [key, name] of overrides) auth[key] = intFromEnv(env, name, auth[key]);
  return {
    host,
    port,
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${port}`,
    dataDir,
    databaseUrl: env.DATABASE_URL || null,
    blobStore,
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM ?? 'Redline <no-reply@redline.local>',
    codeHmacKey: env.CODE_HMAC_KEY || null,
    maxUploadBytes: intFromEnv(env, 'MAX_UPLOAD_BYTES', 50 * 1024 * 1024),
    docxLimits: {
      maxUncompressedBytes: intFromEnv(env, 'DOCX_MAX_UNCOMPRESSED_BYTES', 400 * 1024 * 1024),
      maxEntries: intFromEnv(env, 'DOCX_MAX_ENTRIES', 2000),
    },
    auth,
    staticDir: env.STATIC_DIR === '' ? null : path.resolve(env.STATIC_DIR ?? './dist'),
    seedDemo: env.SEED_DEMO !== 'false',
    logLevel: env.LOG_LEVEL ?? 'info',
    blobGraceMs: intFromEnv(env, 'BLOB_SWEEP_GRACE_MS', 3600_000),
  };
}
