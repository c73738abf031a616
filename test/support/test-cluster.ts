import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startCluster, type Cluster } from '../../src/service/cluster/cluster';
import { startLocalS3 } from '../../src/service/cluster/local-s3';
import { createScratchDatabase } from '../../src/service/cluster/postgres-admin';
import type { Database } from '../../src/service/store/database';
import { openPostgresDatabase } from '../../src/service/store/postgres-database';

export interface TestCluster {
  cluster: Cluster;
  /** A small pool on the cluster's own database, for set-up and checks. */
  db: Database;
  stop(): Promise<void>;
}

/**
 * N real service processes on a scratch PostgreSQL database of their own and one s3rver,
 * behind HAProxy, with sign-in limits relaxed for tests.
 */
export async function startTestCluster(serverUrl: string, instances: number, prefix: string, env: Record<string, string> = {}): Promise<TestCluster> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  const s3 = await startLocalS3(path.join(tmp, 's3'));
  const database = await createScratchDatabase(serverUrl, prefix.replace(/\W/g, '_'));
  const cluster = await startCluster({
    instances, databaseUrl: database.url, blobStoreEnv: s3.env, dataDir: tmp,
    codeHmacKey: randomBytes(32).toString('base64url'),
    // Tests sign the same person in several times; the per-IP limits stay at DESIGN's values unless `env` says otherwise.
    env: { LOG_LEVEL: 'warn', STATIC_DIR: '', RATE_RESEND_COOLDOWN_MS: '0', RATE_CODES_PER_ADDRESS_PER_HOUR: '1000', SMTP_URL: '', ...env },
    startTimeoutMs: 45_000,
  });
  const db = openPostgresDatabase({ connectionString: database.url, maxConnections: 2 });
  return {
    cluster,
    db,
    async stop() {
      await db.close();
      await cluster.stop();
      await database.drop();
      await s3.close();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
