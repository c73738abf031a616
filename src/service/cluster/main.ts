/**
 * `npm run start:cluster -- --instances 3`: N service instances on PostgreSQL and an S3
 * store behind HAProxy on http://127.0.0.1:8787 (health checks on /api/health/ready,
 * retries and redispatch; stats on http://127.0.0.1:8404). The production shape on one
 * machine: HAProxy's configuration is written to DATA_DIR/haproxy.cfg.
 *
 * Environment (all optional):
 *   CLUSTER_INSTANCES   instances when --instances is not given (default 3)
 *   PORT                HAProxy's port (default 8787); instances use PORT+1 .. PORT+N
 *   HAPROXY_STATS_PORT  HAProxy's stats page on loopback (default 8404)
 *   HAPROXY_BIN         the haproxy binary, when it is not on PATH or in /usr/sbin
 *   DATABASE_URL        PostgreSQL (default postgres://postgres@127.0.0.1:5432/redline_cluster, created if missing)
 *   BLOB_STORE=s3 + S3_ENDPOINT, S3_BUCKET, ...   an existing S3 store; otherwise a local s3rver
 *                       keeps objects under DATA_DIR/s3 (S3_PORT, default 4568)
 *   CODE_HMAC_KEY       shared by every instance; otherwise generated once into DATA_DIR/secrets
 *   DATA_DIR            default ./data/cluster
 * Every other variable (rate limits, SMTP_URL, LOG_LEVEL, ...) is passed to the instances.
 */
import path from 'node:path';
import { codeHmacKey } from '../secrets-file';
import { startCluster } from './cluster';
import { findHaproxy, HAPROXY_MISSING } from './haproxy';
import { startLocalS3, type LocalS3 } from './local-s3';
import { ensureDatabase } from './postgres-admin';

function instancesArg(argv: readonly string[]): number {
  const at = argv.findIndex((a) => a === '--instances' || a.startsWith('--instances='));
  const raw = at < 0 ? process.env.CLUSTER_INSTANCES ?? '3' : argv[at]!.includes('=') ? argv[at]!.split('=')[1]! : argv[at + 1] ?? '';
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 16) throw new Error(`--instances must be a whole number from 1 to 16 (got "${raw}")`);
  return n;
}

async function main(): Promise<void> {
  const instances = instancesArg(process.argv.slice(2));
  if (!findHaproxy()) {
    process.stderr.write(`${HAPROXY_MISSING}\n`);
    process.exit(1);
  }
  const port = Number(process.env.PORT ?? 8787);
  const dataDir = path.resolve(process.env.DATA_DIR ?? './data/cluster');
  const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/redline_cluster';
  await ensureDatabase(databaseUrl);

  let localS3: LocalS3 | null = null;
  let blobStoreEnv: Record<string, string>;
  if (process.env.BLOB_STORE === 's3' && process.env.S3_ENDPOINT) {
    blobStoreEnv = {}; // the instances inherit BLOB_STORE and S3_* from this environment
  } else {
    localS3 = await startLocalS3(path.join(dataDir, 's3'), { port: Number(process.env.S3_PORT ?? 4568) });
    blobStoreEnv = localS3.env;
  }

  const cluster = await startCluster({
    instances, port, dataDir, databaseUrl, blobStoreEnv,
    statsPort: Number(process.env.HAPROXY_STATS_PORT ?? 8404),
    codeHmacKey: codeHmacKey(process.env.CODE_HMAC_KEY || null, dataDir),
    seedDemo: process.env.SEED_DEMO !== 'false',
    log: (line) => process.stdout.write(`${line}\n`),
  });
  process.stdout.write([
    '',
    `  Redline cluster: ${instances} instance(s) behind HAProxy at ${cluster.url}`,
    ...cluster.instances.map((i) => `    ${i.name}: ${i.url} (pid ${i.pid})`),
    `  HAProxy stats: ${cluster.statsUrl} (configuration: ${path.join(dataDir, 'haproxy.cfg')})`,
    `  PostgreSQL: ${databaseUrl.replace(/\/\/[^@/]*@/, '//***@')}`,
    `  Blobs: ${localS3 ? `s3rver at ${localS3.endpoint}, bucket ${localS3.bucket}, files under ${path.join(dataDir, 's3')}` : `S3 at ${process.env.S3_ENDPOINT}`}`,
    '  Ctrl-C stops everything.',
    '',
  ].join('\n') + '\n');

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await cluster.stop();
    await localS3?.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`The cluster failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
