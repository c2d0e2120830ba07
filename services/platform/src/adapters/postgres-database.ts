// Database port on PostgreSQL with `pg`: one pool per service, its search_path pinned to the
// service's schema on every connection, migrations serialized across processes by an advisory lock.
import pg from 'pg';
import type { Logger } from 'pino';
import type { Database, Migration, Queryable, QueryResult } from '../ports/database.ts';
import {
  applyMigration,
  assertSchemaName,
  ledgerSql,
  migrationLockSql,
  orderMigrations,
  quoteIdent,
  registerTransaction,
  sqlPreview,
  transactionCommitted,
  transactionEnded,
  wrapDbError,
} from './database-common.ts';

export type DbLogger = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;

export interface PostgresDatabaseOptions {
  /** postgres://user:pass@host:port/db */
  url: string;
  schema: string;
  logger?: DbLogger;
  /** Pool size (default 10). */
  max?: number;
  /** How long to wait for a connection before failing (default 5 s), so /readyz answers promptly. */
  connectionTimeoutMs?: number;
}

// Same value types as PGlite: int8 (counts, sizes) as numbers rather than pg's default strings.
const INT8_OID = 20;
const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID && format !== 'binary') return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

export function createPostgresDatabase(options: PostgresDatabaseOptions): Database {
  const { url, schema } = options;
  assertSchemaName(schema);
  const log: DbLogger = options.logger ?? silentLogger;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    // set at connection start-up, so every connection (and every reconnect) works in the schema
    options: `-c search_path=${quoteIdent(schema)}`,
    types: typeParsers,
    application_name: `kaboodle-${schema}`,
  });
  // An idle connection dying (server restart) must not crash the process; the next query reconnects.
  pool.on('error', (err) => log.warn({ err, schema }, 'idle postgres connection failed'));

  const discard = new WeakSet<Error>();
  let closed = false;
  let schemaReady: Promise<void> | undefined;

  const assertOpen = (): void => {
    if (closed) throw new Error(`database ${schema} is closed`);
  };

  // Created lazily on first use (not in the factory, which cannot be async); retried after a failure.
  const ensureSchema = (): Promise<void> => {
    schemaReady ??= withClient('creating schema', async (client) => {
      await client.query('BEGIN');
      try {
        await client.query(migrationLockSql, [schema]);
        await client.query(ledgerSql(schema));
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      }
    }).catch((err: unknown) => {
      schemaReady = undefined;
      throw err;
    });
    return schemaReady;
  };

  async function withClient<T>(doing: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    assertOpen();
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (err) {
      throw wrapDbError(`${doing} in ${schema}: connecting to postgres`, err);
    }
    let broken: Error | undefined;
    try {
      return await fn(client);
    } catch (err) {
      // a connection left mid-transaction (rollback failed) must not go back into the pool
      if (err instanceof Error && discard.has(err)) broken = err;
      throw err;
    } finally {
      client.release(broken);
    }
  }

  async function run<T>(
    target: pg.Pool | pg.PoolClient,
    sql: string,
    params?: unknown[],
  ): Promise<QueryResult<T>> {
    try {
      const res = await target.query(sql, params);
      // a multi-statement text returns one result per statement: report the last, like PGlite's exec
      const last = Array.isArray(res) ? (res[res.length - 1] as pg.QueryResult) : res;
      return { rows: (last?.rows ?? []) as T[], rowCount: last?.rowCount ?? 0 };
    } catch (err) {
      throw wrapDbError(`running ${sqlPreview(sql)} in ${schema}`, err);
    }
  }

  const db: Database = {
    kind: 'postgres',
    schema,

    async query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>> {
      assertOpen();
      await ensureSchema();
      return run<T>(pool, sql, params);
    },

    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      await ensureSchema();
      return withClient('starting a transaction', async (client) => {
        let active = true;
        const tx: Queryable = {
          query: <R>(sql: string, params?: unknown[]) => {
            if (!active) return Promise.reject(new Error(`transaction in ${schema} has already ended`));
            return run<R>(client, sql, params);
          },
        };
        registerTransaction(tx);
        await run(client, 'BEGIN');
        let result: T;
        try {
          result = await fn(tx);
        } catch (err) {
          active = false;
          transactionEnded(tx);
          try {
            await client.query('ROLLBACK');
          } catch (rollbackErr) {
            log.warn({ err: rollbackErr, schema }, 'rollback failed');
            // the connection is in an unknown state: mark it so withClient discards it
            const failure = wrapDbError(`rolling back in ${schema} after ${String(err)}`, rollbackErr);
            discard.add(failure);
            throw failure;
          }
          throw err;
        }
        active = false;
        try {
          await run(client, 'COMMIT');
        } catch (err) {
          transactionEnded(tx);
          throw err;
        }
        transactionCommitted(tx);
        return result;
      });
    },

    async migrate(migrations: Migration[]): Promise<void> {
      const ordered = orderMigrations(migrations);
      await ensureSchema();
      for (const m of ordered) {
        await withClient(`applying migration ${m.id}`, async (client) => {
          await applyMigration(
            {
              query: async <T>(sql: string, params?: unknown[]) =>
                (await client.query(sql, params)) as unknown as { rows: T[] },
              exec: (sql) => client.query(sql),
            },
            schema,
            m,
            log,
          );
        });
      }
    },

    async ping(): Promise<void> {
      assertOpen();
      try {
        await pool.query('SELECT 1');
      } catch (err) {
        throw wrapDbError(`pinging postgres for ${schema}`, err);
      }
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
  return db;
}

const noop = (): void => {};
export const silentLogger: DbLogger = {
  debug: noop,
  info: noop,
  warn: noop,
  error: noop,
} as unknown as DbLogger;
