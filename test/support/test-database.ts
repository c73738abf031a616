import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Database } from '../../src/service/store/database';
import { MIGRATIONS, migrate } from '../../src/service/store/migrations';
import { openPgliteDatabase } from '../../src/service/store/pglite-database';
import { openPostgresDatabase } from '../../src/service/store/postgres-database';

const TMP = path.resolve('.tmp');

/** The template is keyed by the migrations, so a new migration makes a new template. */
function templateDir(): string {
  const key = createHash('sha256').update(JSON.stringify(MIGRATIONS)).digest('hex').slice(0, 12);
  return path.join(TMP, `pglite-template-${key}`);
}

/**
 * Creating a PGlite database costs ~5 s and ~1 GB; copying a migrated template data
 * directory costs well under a second. The first caller builds the template.
 */
export async function ensurePgliteTemplate(): Promise<string> {
  const dir = templateDir();
  if (existsSync(path.join(dir, 'PG_VERSION'))) return dir;
  mkdirSync(TMP, { recursive: true });
  const building = `${dir}.building-${process.pid}-${randomBytes(3).toString('hex')}`;
  const db = await openPgliteDatabase(building);
  await migrate(db);
  await db.close();
  try {
    renameSync(building, dir);
  } catch {
    rmSync(building, { recursive: true, force: true }); // another worker won the race
  }
  return dir;
}

export interface TestDatabase {
  db: Database;
  /** Removes everything the database left behind. */
  destroy(): Promise<void>;
}

/** A fresh, migrated database: PostgreSQL (own schema) when DATABASE_URL is set, else a PGlite copy. */
export async function openTestDatabase(): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    const db = openPostgresDatabase({ connectionString: url, schema, maxConnections: 25 });
    await migrate(db);
    return {
      db,
      async destroy() {
        await db.close();
        const cleanup = new pg.Client({ connectionString: url });
        await cleanup.connect();
        await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
        await cleanup.end();
      },
    };
  }
  const template = await ensurePgliteTemplate();
  const dir = path.join(TMP, `db-${process.pid}-${randomBytes(6).toString('hex')}`);
  cpSync(template, dir, { recursive: true });
  const db = await openPgliteDatabase(dir);
  await migrate(db);
  return {
    db,
    async destroy() {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
