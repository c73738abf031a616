/**
 * The one database seam of the service. Two implementations: PGlite (embedded
 * PostgreSQL in WebAssembly, the default) and PostgreSQL through `pg` (scale-out).
 * Both speak the same SQL; nothing above this file knows which one it talks to.
 */
export type Row = Record<string, unknown>;

export interface Queryable {
  query<R extends object = Row>(sql: string, params?: readonly unknown[]): Promise<R[]>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it
   * throws. Inside, use only `tx` (PGlite serialises transactions; a query on the
   * outer handle would wait for this very transaction).
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Thrown when the database cannot be reached; the HTTP layer answers 503. */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
}
