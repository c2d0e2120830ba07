// Database port on embedded Postgres (PGlite, Postgres in WASM): the same SQL and migrations as
// postgres-database.ts. One PGlite instance per data directory is shared by every service schema
// in the process (`--target=all`); it is a single connection, so every statement and transaction
// is serialized, and the search_path is switched to the caller's schema before each.
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite, types } from '@electric-sql/pglite';
import type { Database, Migration, Queryable, QueryResult } from '../ports/database.ts';
import {
  applyMigration,
  assertSchemaName,
  ledgerSql,
  orderMigrations,
  quoteIdent,
  registerTransaction,
  sqlPreview,
  transactionCommitted,
  transactionEnded,
  wrapDbError,
} from './database-common.ts';
import { dropPgliteTemplate, isFreshCluster, keepPgliteTemplate, pgliteTemplate } from './pglite-template.ts';
import { silentLogger } from './postgres-database.ts';
import type { DbLogger } from './postgres-database.ts';

export interface PgliteDatabaseOptions {
  /** Directory of the embedded cluster; `memory://<name>` keeps it in memory (tests). Absent: private in-memory. */
  dataDir?: string;
  schema: string;
  logger?: DbLogger;
}

/**
 * PGlite's buffer pool. Postgres's default (128 MB) lives in the WASM memory, which PGlite touches
 * whole at start: 151 MB of the product's resident memory before any query (issue 21's RSS goal is
 * 1 GB for the whole process at 100k items). Its files are read through the OS, whose page cache
 * still holds the hot pages, so a smaller pool costs copies, not disk reads; the product's RSS and
 * the insights bench, side by side, are in docs/benchmarks/2026-11-27-pglite-buffers.md.
 * PGLITE_SHARED_BUFFERS (Postgres units, e.g. `64MB`) sets it for a larger embedded catalogue.
 */
export const PGLITE_SHARED_BUFFERS_DEFAULT = '16MB';
const SHARED_BUFFERS = /^\d+(kB|MB|GB)$/;

function pgliteStartParams(): string[] {
  const asked = process.env.PGLITE_SHARED_BUFFERS?.trim() || PGLITE_SHARED_BUFFERS_DEFAULT;
  if (!SHARED_BUFFERS.test(asked))
    throw new Error(`PGLITE_SHARED_BUFFERS must be a size such as 16MB (kB, MB or GB), not '${asked}'`);
  return [...PGlite.defaultStartParams, '-c', `shared_buffers=${asked}`];
}

interface SharedInstance {
  key: string;
  ready: Promise<PGlite>;
  refs: number;
  /** Tail of the queue of exclusive sections (the instance is one connection). */
  tail: Promise<void>;
  /** The search_path currently set on the connection, to skip redundant SETs. */
  currentSchema: string | undefined;
}

const registry = new Map<string, SharedInstance>();
/** Instances being closed, by key: a reopen waits for them. */
const closing = new Map<string, Promise<void>>();
let privateCounter = 0;

// Which instance's lock the current async context holds: a query on the Database handle from inside
// its own transaction callback would wait for itself forever, so it fails with a clear error instead.
// `open` turns false when the section ends, so work merely started inside it (a timer, a promise
// not awaited) queues normally once the section is over.
const holding = new AsyncLocalStorage<{ inst: SharedInstance; open: boolean }>();

function acquireInstance(dataDir: string | undefined): SharedInstance {
  const key =
    dataDir === undefined
      ? `memory://private-${++privateCounter}`
      : dataDir.startsWith('memory://')
        ? dataDir
        : resolve(dataDir);
  let inst = registry.get(key);
  if (!inst) {
    if (!key.startsWith('memory://')) {
      mkdirSync(key, { recursive: true });
      lockDataDir(key);
    }
    const created: SharedInstance = {
      key,
      refs: 0,
      tail: Promise.resolve(),
      currentSchema: undefined,
      // a closing instance of the same directory must be gone before another opens it
      ready: (closing.get(key) ?? Promise.resolve()).then(() => openPglite(key)),
    };
    created.ready.catch(() => {
      registry.delete(key);
      unlockDataDir(key);
    });
    registry.set(key, created);
    inst = created;
  }
  inst.refs++;
  return inst;
}

async function openPglite(key: string): Promise<PGlite> {
  // PGlite's own in-memory mode is `memory://`; named memory instances are shared via the registry
  const dataDir = key.startsWith('memory://') ? 'memory://' : key;
  const options = {
    dataDir,
    startParams: pgliteStartParams(),
    // same value types as pg: bytea as Buffer (PGlite gives a bare Uint8Array)
    parsers: { [types.BYTEA]: (x: string) => Buffer.from(x.slice(2), 'hex') },
    serializers: { [types.BYTEA]: byteaAsBinary },
  };
  const fresh = isFreshCluster(dataDir);
  const template = fresh ? await pgliteTemplate() : undefined;
  if (template) {
    try {
      return await PGlite.create({ ...options, loadDataDir: template });
    } catch {
      // a damaged template: initdb makes this cluster (and the template again) over what it wrote
      dropPgliteTemplate();
      if (dataDir !== 'memory://') {
        rmSync(dataDir, { recursive: true, force: true });
        mkdirSync(dataDir, { recursive: true });
      }
    }
  }
  const pg = await PGlite.create(options);
  if (fresh) await keepPgliteTemplate(pg);
  return pg;
}

/**
 * bytea parameters go to Postgres as they are, in binary format. PGlite's own serializer spells
 * them out as hex through a string per byte: 1–2 ms of main-thread CPU for a 6 KB event or analysis
 * (one per outbox event and stored document), against 0.3–0.6 ms in binary. PGlite sends any
 * typed-array parameter in binary format; its types say serializers return strings, hence the cast.
 */
function byteaAsBinary(value: unknown): string {
  if (!(value instanceof Uint8Array)) throw new TypeError('a bytea parameter must be a Buffer or Uint8Array');
  return value as unknown as string;
}

async function releaseInstance(inst: SharedInstance): Promise<void> {
  if (--inst.refs > 0) return;
  registry.delete(inst.key);
  // close after queued work drains
  const closed = exclusive(inst, async (pg) => pg.close()).finally(() => {
    if (closing.get(inst.key) === settled) closing.delete(inst.key);
    // a new instance of the same directory (same process) keeps the lock
    if (!inst.key.startsWith('memory://') && !registry.has(inst.key)) unlockDataDir(inst.key);
  });
  const settled = closed.catch(() => {});
  closing.set(inst.key, settled);
  await closed;
}

// PGlite has no guard against two processes opening one cluster, which corrupts it (e.g. services
// started as separate processes on the same KABOODLE_DATA_DIR). A pid file beside the directory
// turns that into a clear error; a stale one (its process is gone) is taken over.
const lockPath = (dir: string): string => `${dir}.lock`;

function lockDataDir(dir: string): void {
  const path = lockPath(dir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx' });
      return;
    } catch (err) {
      if ((err as { code?: unknown }).code !== 'EEXIST') throw err;
    }
    const holder = Number(readFileSync(path, 'utf8').trim());
    if (holder === process.pid) return; // ours, from an instance closed and reopened
    if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) {
      throw new Error(
        `embedded database ${dir} is in use by process ${holder}: processes cannot share it; give each its own KABOODLE_DATA_DIR or set DATABASE_URL`,
      );
    }
    rmSync(path, { force: true }); // stale: its process is gone
  }
  throw new Error(`could not lock embedded database ${dir} (${lockPath(dir)})`);
}

function unlockDataDir(dir: string): void {
  try {
    if (Number(readFileSync(lockPath(dir), 'utf8').trim()) === process.pid)
      rmSync(lockPath(dir), { force: true });
  } catch {
    // already gone
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: unknown }).code === 'EPERM'; // exists, owned by someone else
  }
}

/** Run fn with the connection to itself, after everything queued before it. */
function exclusive<T>(inst: SharedInstance, fn: (pg: PGlite) => Promise<T>): Promise<T> {
  const run = inst.tail.then(async () => {
    const section = { inst, open: true };
    try {
      return await holding.run(section, async () => fn(await inst.ready));
    } finally {
      section.open = false;
    }
  });
  inst.tail = run.then(
    () => {},
    () => {},
  );
  return run;
}

export function createPgliteDatabase(options: PgliteDatabaseOptions): Database {
  const { schema } = options;
  assertSchemaName(schema);
  const log = options.logger ?? silentLogger;
  const inst = acquireInstance(options.dataDir);
  let closed = false;
  let schemaReady = false;

  const assertOpen = (): void => {
    if (closed) throw new Error(`database ${schema} is closed`);
  };

  // Inside the exclusive section: point the connection at this schema (creating it on first use).
  async function enter(pg: PGlite): Promise<void> {
    if (!schemaReady) {
      await pg.exec(ledgerSql(schema));
      schemaReady = true;
    }
    if (inst.currentSchema !== schema) {
      await pg.exec(`SET search_path TO ${quoteIdent(schema)}`);
      inst.currentSchema = schema;
    }
  }

  function guardReentry(doing: string): void {
    const section = holding.getStore();
    if (section?.inst === inst && section.open) {
      throw new Error(
        `${doing} in ${schema}: called on the database inside one of its transactions; use the transaction's handle (PGlite is one connection)`,
      );
    }
  }

  async function run<T>(
    pg: PGlite | { query: PGlite['query'] },
    sql: string,
    params?: unknown[],
  ): Promise<QueryResult<T>> {
    try {
      if (params === undefined || params.length === 0) {
        // no parameters: allow several statements, like pg's simple query protocol
        const results = await (pg as PGlite).exec(sql);
        const last = results[results.length - 1];
        return { rows: (last?.rows ?? []) as T[], rowCount: last?.affectedRows ?? last?.rows.length ?? 0 };
      }
      const res = await pg.query<T>(sql, params);
      return { rows: res.rows, rowCount: res.affectedRows ?? res.rows.length };
    } catch (err) {
      throw wrapDbError(`running ${sqlPreview(sql)} in ${schema}`, err);
    }
  }

  // SELECTs report the number of rows (pg's rowCount does too); PGlite's affectedRows is 0 for them
  const fixCount = <T>(r: QueryResult<T>, sql: string): QueryResult<T> =>
    /^\s*(select|with|values|table|show)\b/i.test(sql) && r.rowCount === 0
      ? { ...r, rowCount: r.rows.length }
      : r;

  const db: Database = {
    kind: 'pglite',
    schema,

    async query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>> {
      assertOpen();
      guardReentry('querying');
      return exclusive(inst, async (pg) => {
        await enter(pg);
        return fixCount(await run<T>(pg, sql, params), sql);
      });
    },

    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      assertOpen();
      guardReentry('starting a transaction');
      let committedTx: Queryable | undefined;
      const result = await exclusive(inst, async (pg) => {
        await enter(pg);
        let active = true;
        const tx: Queryable = {
          query: async <R>(sql: string, params?: unknown[]) => {
            if (!active) throw new Error(`transaction in ${schema} has already ended`);
            return fixCount(await run<R>(pg, sql, params), sql);
          },
        };
        registerTransaction(tx);
        await run(pg, 'BEGIN');
        let value: T;
        try {
          value = await fn(tx);
        } catch (err) {
          active = false;
          transactionEnded(tx);
          await pg.exec('ROLLBACK').catch((rollbackErr: unknown) => {
            log.warn({ err: rollbackErr, schema }, 'rollback failed');
          });
          throw err;
        }
        active = false;
        try {
          await run(pg, 'COMMIT');
        } catch (err) {
          transactionEnded(tx);
          await pg.exec('ROLLBACK').catch(() => {});
          throw err;
        }
        committedTx = tx;
        return value;
      });
      // hooks run outside the exclusive section, so they may use the database
      if (committedTx) transactionCommitted(committedTx);
      return result;
    },

    async migrate(migrations: Migration[]): Promise<void> {
      assertOpen();
      guardReentry('migrating');
      const ordered = orderMigrations(migrations);
      for (const m of ordered) {
        await exclusive(inst, async (pg) => {
          await enter(pg);
          await applyMigration(pg, schema, m, log);
          // a migration may have changed the search_path (SET inside it): force a reset next time
          inst.currentSchema = undefined;
        });
      }
    },

    async ping(): Promise<void> {
      assertOpen();
      guardReentry('pinging');
      await exclusive(inst, async (pg) => {
        await run(pg, 'SELECT 1');
      });
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await releaseInstance(inst);
    },
  };
  return db;
}
