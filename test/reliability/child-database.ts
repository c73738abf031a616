import { cpSync } from 'node:fs';
import path from 'node:path';
import { ensurePgliteTemplate } from '../support/test-database';
import { privatePostgresUnavailable, startPrivatePostgres } from './private-postgres';

export interface ChildDatabase {
  /** For the child's DATABASE_URL; unset: PGlite under dataDir/db. */
  databaseUrl?: string;
  destroy(): Promise<void>;
}

/**
 * The database a child-process service runs on, following the suite's mode: with
 * DATABASE_URL set (the PostgreSQL run) a private cluster of its own, since these
 * tests kill and restart processes and must never touch a shared server; otherwise a
 * copy of the migrated PGlite template in dataDir/db (saves the child ~5 s).
 */
export async function prepareChildDatabase(dataDir: string): Promise<ChildDatabase> {
  if (process.env.DATABASE_URL) {
    const postgres = await startPrivatePostgres();
    return { databaseUrl: postgres.url, destroy: () => postgres.destroy() };
  }
  cpSync(await ensurePgliteTemplate(), path.join(dataDir, 'db'), { recursive: true });
  return { destroy: async () => {} };
}

/** Why prepareChildDatabase cannot work here (tests skip with it), or null. */
export function childDatabaseUnavailable(): string | null {
  return process.env.DATABASE_URL ? privatePostgresUnavailable() : null;
}
