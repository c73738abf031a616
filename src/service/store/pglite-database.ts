import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable } from './database';

/** Opens (creating if needed) an embedded PGlite database in `dataDir`. */
export async function openPgliteDatabase(dataDir: string): Promise<Database> {
  // PGlite creates only the last folder of the path; a first start has no ./data yet.
  mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create({ dataDir });
  const asQueryable = (q: Pick<PGlite, 'query'>): Queryable => ({
    async query<R extends object>(sql: string, params: readonly unknown[] = []) {
      const result = await q.query<R>(sql, params as unknown[]);
      return result.rows;
    },
  });
  return {
    kind: 'pglite',
    ...asQueryable(db),
    transaction: (work) => db.transaction((tx) => work(asQueryable(tx))),
    close: () => db.close(),
  };
}
