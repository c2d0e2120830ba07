// What the Postgres and PGlite adapters share: schema names, the migration ledger, error
// classification and after-commit hooks, so both run the same SQL the same way.
import { createHash } from 'node:crypto';
import type { Migration, Queryable } from '../ports/database.ts';

/** Schema names are plain lower-case identifiers, so they can be quoted without escaping tricks. */
export function assertSchemaName(schema: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(`invalid schema name ${JSON.stringify(schema)}: use lower-case letters, digits and _`);
  }
}

export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Key for pg_advisory_xact_lock: one lock per schema, shared by every process migrating it. */
export const migrationLockSql = `SELECT pg_advisory_xact_lock(hashtext('kaboodle.migrate:' || $1::text))`;

// The schema is created only when missing: a least-privilege role (the Helm chart's CloudNativePG
// cluster gives each service a role owning a pre-made schema, no CREATE on the database) could not
// run CREATE SCHEMA IF NOT EXISTS, which checks that privilege before looking for the schema.
export const ledgerSql = (schema: string): string =>
  `DO $$ BEGIN
     IF NOT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = '${schema}') THEN
       CREATE SCHEMA ${quoteIdent(schema)};
     END IF;
   END $$;
   CREATE TABLE IF NOT EXISTS ${quoteIdent(schema)}.schema_migrations (
     id text PRIMARY KEY,
     checksum text NOT NULL,
     applied_at timestamptz NOT NULL DEFAULT now()
   );`;

export function checksum(sql: string): string {
  return createHash('sha256').update(sql).digest('hex').slice(0, 16);
}

/** Validated copy in id order; duplicate or empty ids are a programming error worth failing on. */
export function orderMigrations(migrations: Migration[]): Migration[] {
  const seen = new Set<string>();
  for (const m of migrations) {
    if (!m.id || typeof m.sql !== 'string') throw new Error(`invalid migration ${JSON.stringify(m.id)}`);
    if (seen.has(m.id)) throw new Error(`duplicate migration id ${JSON.stringify(m.id)}`);
    seen.add(m.id);
  }
  return [...migrations].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The SQLSTATE of a Postgres error anywhere in the cause chain (pg and PGlite both set `code`). */
export function pgErrorCode(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 10; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export const isUniqueViolation = (err: unknown): boolean => pgErrorCode(err) === '23505';
export const isForeignKeyViolation = (err: unknown): boolean => pgErrorCode(err) === '23503';
export const isSerializationFailure = (err: unknown): boolean => {
  const code = pgErrorCode(err);
  return code === '40001' || code === '40P01';
};

/** The first words of a statement, for error messages ("running INSERT INTO files …"). */
export function sqlPreview(sql: string): string {
  const flat = sql.replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 60)}…` : flat;
}

/** "doing X: cause", keeping the original error (and its SQLSTATE) as the cause. */
export function wrapDbError(doing: string, cause: unknown): Error {
  const message = cause instanceof Error ? cause.message : String(cause);
  const wrapped = new Error(`${doing}: ${message}`, { cause }) as Error & { code?: string };
  const code = pgErrorCode(cause);
  if (code) wrapped.code = code;
  return wrapped;
}

// ---- after-commit hooks --------------------------------------------------------------------------
// The outbox wakes its relay only once the rows are visible, i.e. after COMMIT. The port's
// Queryable has no hook, so the adapters register each transaction handle here.

const commitHooks = new WeakMap<Queryable, (() => void)[]>();

export function registerTransaction(tx: Queryable): void {
  commitHooks.set(tx, []);
}

/** Runs the hooks of a committed transaction (errors are contained: the commit already happened). */
export function transactionCommitted(tx: Queryable): void {
  const hooks = commitHooks.get(tx) ?? [];
  commitHooks.delete(tx);
  for (const hook of hooks) {
    try {
      hook();
    } catch {
      // a hook is a notification; it must not turn a committed transaction into a failure
    }
  }
}

export function transactionEnded(tx: Queryable): void {
  commitHooks.delete(tx);
}

/** Call fn after tx commits (dropped on rollback); outside a transaction, on the next tick. */
export function onCommit(tx: Queryable, fn: () => void): void {
  const hooks = commitHooks.get(tx);
  if (hooks) hooks.push(fn);
  else queueMicrotask(fn);
}

/** What applying one migration needs of a connection: parameterised queries and multi-statement SQL. */
export interface MigrationConnection {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec(sql: string): Promise<unknown>;
}

export interface MigrationLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * Apply one migration in its own transaction, shared by both adapters: every process takes the same
 * advisory lock, then re-checks the ledger, so the loser of a race finds it applied; an applied
 * migration whose text has since changed is reported, never re-run.
 */
export async function applyMigration(
  conn: MigrationConnection,
  schema: string,
  m: Migration,
  log: MigrationLog,
): Promise<void> {
  await conn.exec('BEGIN');
  try {
    await conn.query(migrationLockSql, [schema]);
    const done = await conn.query<{ checksum: string }>(
      `SELECT checksum FROM ${quoteIdent(schema)}.schema_migrations WHERE id = $1`,
      [m.id],
    );
    if (done.rows[0]) {
      if (done.rows[0].checksum !== checksum(m.sql)) {
        log.warn({ schema, migration: m.id }, 'applied migration has since been edited');
      }
    } else {
      await conn.exec(m.sql);
      await conn.query(`INSERT INTO ${quoteIdent(schema)}.schema_migrations (id, checksum) VALUES ($1, $2)`, [
        m.id,
        checksum(m.sql),
      ]);
      log.info({ schema, migration: m.id }, 'migration applied');
    }
    await conn.exec('COMMIT');
  } catch (err) {
    await conn.exec('ROLLBACK').catch(() => {});
    throw wrapDbError(`applying migration ${m.id} to ${schema}`, err);
  }
}
