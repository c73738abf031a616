import pg from 'pg';
import { DatabaseUnavailableError, type Database, type Queryable } from './database';

// int8 (counts, sums) as JS numbers: every int8 we read is far below 2^53.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

const CONNECTION_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004']);

function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  if (code && CONNECTION_ERROR_CODES.has(code)) return true;
  const message = error instanceof Error ? error.message : '';
  // "timeout exceeded when trying to connect": the pool stayed exhausted; the request is refused whole.
  // "not queryable": a client that already saw its connection fail refuses further statements.
  return /Connection terminated|connection (?:is )?(?:closed|ended)|terminating connection|timeout exceeded when trying to connect|not queryable|Client was closed|not connected/i.test(message);
}

function translate(error: unknown): unknown {
  return isConnectionError(error)
    ? new DatabaseUnavailableError(`database unavailable: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
    : error;
}

export interface PostgresOptions {
  connectionString: string;
  /** Schema to put first on the search_path (tests give each file its own). */
  schema?: string;
  maxConnections?: number;
}

/** A pooled PostgreSQL connection. Connection faults surface as DatabaseUnavailableError. */
export function openPostgresDatabase(options: PostgresOptions): Database {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 20,
    // Under a burst, waiting for a pooled connection is normal; only a pool stuck this long answers 503.
    connectionTimeoutMillis: 30_000,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // An idle client losing its server must not crash the process; the next query reconnects.
  pool.on('error', () => {});

  const run = async <R extends object>(client: Pick<pg.PoolClient, 'query'>, sql: string, params: readonly unknown[]) => {
    try {
      const result = await client.query<R>(sql, params as unknown[]);
      return result.rows;
    } catch (error) {
      throw translate(error);
    }
  };

  return {
    kind: 'postgres',
    query: (sql, params = []) => run(pool, sql, params),
    async transaction(work) {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw translate(error);
      }
      const tx: Queryable = { query: (sql, params = []) => run(client, sql, params) };
      let broken = false;
      // The pool listens for errors only on idle clients. A checked-out client whose server
      // goes away between two statements emits 'error' with nobody listening, which would
      // crash the process: note it, let the next statement fail (503), and discard the client.
      const onError = () => {
        broken = true;
      };
      client.on('error', onError);
      try {
        await tx.query('BEGIN');
        const result = await work(tx);
        await tx.query('COMMIT');
        return result;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch {
          broken = true;
        }
        throw translate(error);
      } finally {
        client.off('error', onError);
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}
