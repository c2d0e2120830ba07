// Database port: the same SQL on Postgres (`pg`) and embedded Postgres (PGlite).
// Each service owns one schema (its name); migrations run automatically at start.

export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
}

export interface Migration {
  /** Ordered, unique, never edited once shipped: e.g. `0001_files`. */
  id: string;
  sql: string;
}

export interface Database extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** The schema this handle works in (search_path is set to it). */
  readonly schema: string;
  /** Run fn in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Apply migrations not yet applied, in id order, each in its own transaction; safe to run concurrently. */
  migrate(migrations: Migration[]): Promise<void>;
  /** Throws when the database cannot be reached (used by /readyz). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
