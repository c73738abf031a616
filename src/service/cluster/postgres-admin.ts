import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL the cluster, its test and the load benchmark use unless DATABASE_URL says otherwise. */
export const LOCAL_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

function databaseOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1)) || 'postgres';
}

/** Whether a PostgreSQL server answers at `url` within `timeoutMs`. */
export async function postgresReachable(url: string, timeoutMs = 2_000): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Creates the database `url` names if it does not exist (connecting to the server's `postgres` database to do so). */
export async function ensureDatabase(url: string): Promise<void> {
  const name = databaseOf(url);
  const admin = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  } finally {
    await admin.end();
  }
}

/** A new, empty database on the server at `serverUrl`, dropped (connections and all) by `drop()`. */
export async function createScratchDatabase(serverUrl: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const url = withDatabase(serverUrl, name);
  await ensureDatabase(url);
  return {
    url,
    async drop() {
      const admin = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}
