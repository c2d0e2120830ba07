// Database port contract: every adapter (PGlite always; Postgres from DATABASE_URL or a
// testcontainer) must behave the same for migrations, transactions, schemas, errors and types.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Migration } from '@kaboodle/platform';
// relative, so a half-finished area elsewhere in the platform's barrel cannot break this suite
import {
  createPgliteDatabase,
  createPostgresDatabase,
  isUniqueViolation,
  onCommit,
} from '@kaboodle/platform';
import { createEngineReport, postgresEngine, resolveEngine, stopEngines } from './support/engines.ts';

interface AdapterUnderTest {
  name: string;
  open(schema: string): Database;
  /** Removes what the suite created (schemas on a shared server, the temp dir for PGlite). */
  cleanup(schemas: string[]): Promise<void>;
}

const report = createEngineReport('database');
const pgEngine = await resolveEngine(postgresEngine);
report.embedded('pglite');
report.add(pgEngine);

const pgliteDir = await mkdtemp(join(tmpdir(), 'kaboodle-db-contract-'));
const adapters: AdapterUnderTest[] = [
  {
    name: 'pglite',
    open: (schema) => createPgliteDatabase({ dataDir: join(pgliteDir, 'pglite'), schema }),
    cleanup: async () => rm(pgliteDir, { recursive: true, force: true }),
  },
];
if (pgEngine.available) {
  const url = pgEngine.handle.config.url;
  adapters.push({
    name: `postgres (${pgEngine.handle.source})`,
    open: (schema) => createPostgresDatabase({ url, schema }),
    cleanup: async (schemas) => {
      const admin = createPostgresDatabase({ url, schema: 'public' });
      for (const s of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
      await admin.close();
    },
  });
}

afterAll(async () => {
  await stopEngines([pgEngine]);
  report.print();
});

const uniq = (): string => randomBytes(4).toString('hex');

describe.each(adapters)('Database contract: $name', (adapter) => {
  const schemas: string[] = [];
  const handles: Database[] = [];
  const open = (prefix: string): Database => {
    const schema = `ct_${prefix}_${uniq()}`;
    schemas.push(schema);
    const db = adapter.open(schema);
    handles.push(db);
    return db;
  };
  const openSame = (schema: string): Database => {
    const db = adapter.open(schema);
    handles.push(db);
    return db;
  };

  let db: Database;
  beforeAll(async () => {
    db = open('main');
    await db.migrate([
      {
        id: '0001_items',
        sql: `CREATE TABLE items (id text PRIMARY KEY, n int NOT NULL);
              CREATE TABLE kinds (id serial PRIMARY KEY, data bytea, doc jsonb, at timestamptz, big bigint);`,
      },
    ]);
  });

  afterAll(async () => {
    for (const h of handles) await h.close().catch(() => {});
    await adapter.cleanup(schemas);
  });

  it('reports its schema and kind', () => {
    expect(db.schema).toMatch(/^ct_main_/);
    expect(['postgres', 'pglite']).toContain(db.kind);
  });

  it('applies migrations once: running them again changes nothing', async () => {
    const m: Migration[] = [
      { id: '0001_items', sql: 'CREATE TABLE items (id text PRIMARY KEY, n int NOT NULL);' },
      { id: '0002_seed', sql: `INSERT INTO items (id, n) VALUES ('seed', 1);` },
    ];
    const fresh = open('idem');
    await fresh.migrate(m);
    await fresh.migrate(m);
    const ledger = await fresh.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
    expect(ledger.rows.map((r) => r.id)).toEqual(['0001_items', '0002_seed']);
    expect((await fresh.query('SELECT * FROM items')).rowCount).toBe(1);
  });

  it('applies migrations in id order whatever order they are given in', async () => {
    const fresh = open('order');
    await fresh.migrate([
      { id: '0002_b', sql: `INSERT INTO log (step) VALUES ('b');` },
      {
        id: '0001_a',
        sql: `CREATE TABLE log (seq serial PRIMARY KEY, step text); INSERT INTO log (step) VALUES ('a');`,
      },
    ]);
    const rows = await fresh.query<{ step: string }>('SELECT step FROM log ORDER BY seq');
    expect(rows.rows.map((r) => r.step)).toEqual(['a', 'b']);
  });

  it('is safe when several handles migrate the same schema at once', async () => {
    const first = open('race');
    const others = [openSame(first.schema), openSame(first.schema), openSame(first.schema)];
    // not idempotent on purpose: running it twice would fail (table exists) or insert twice
    const m: Migration[] = [
      { id: '0001_t', sql: 'CREATE TABLE t (id int PRIMARY KEY);' },
      { id: '0002_seed', sql: 'INSERT INTO t VALUES (1);' },
    ];
    await Promise.all([first, ...others].map((h) => h.migrate(m)));
    expect((await first.query('SELECT * FROM t')).rowCount).toBe(1);
    expect((await first.query('SELECT * FROM schema_migrations')).rowCount).toBe(2);
  });

  it('rolls back a failing migration, names it in the error, and keeps the ones before it', async () => {
    const fresh = open('badmig');
    await expect(
      fresh.migrate([
        { id: '0001_ok', sql: 'CREATE TABLE ok (id int);' },
        { id: '0002_bad', sql: 'CREATE TABLE half (id int); SELECT * FROM no_such_table;' },
      ]),
    ).rejects.toThrow(/applying migration 0002_bad to ct_badmig_\w+: .*no_such_table/);
    const ledger = await fresh.query<{ id: string }>('SELECT id FROM schema_migrations');
    expect(ledger.rows.map((r) => r.id)).toEqual(['0001_ok']);
    // the half-done table went with the rollback
    const half = await fresh.query(
      `SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'half'`,
      [fresh.schema],
    );
    expect(half.rowCount).toBe(0);
  });

  it('rejects duplicate migration ids', async () => {
    await expect(
      db.migrate([
        { id: '0009_x', sql: 'SELECT 1' },
        { id: '0009_x', sql: 'SELECT 2' },
      ]),
    ).rejects.toThrow(/duplicate migration id "0009_x"/);
  });

  it('commits a transaction that resolves and returns its value', async () => {
    const id = `c-${uniq()}`;
    const value = await db.transaction(async (tx) => {
      await tx.query('INSERT INTO items (id, n) VALUES ($1, $2)', [id, 1]);
      await tx.query('UPDATE items SET n = n + 1 WHERE id = $1', [id]);
      return 'done';
    });
    expect(value).toBe('done');
    const row = await db.query<{ n: number }>('SELECT n FROM items WHERE id = $1', [id]);
    expect(row.rows).toEqual([{ n: 2 }]);
  });

  it('rolls back a transaction that throws, and rethrows the same error', async () => {
    const id = `r-${uniq()}`;
    const boom = new Error('handler failed');
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO items (id, n) VALUES ($1, $2)', [id, 1]);
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect((await db.query('SELECT 1 FROM items WHERE id = $1', [id])).rowCount).toBe(0);
  });

  it('refuses a transaction handle used after the transaction ended', async () => {
    let leaked: { query: Database['query'] } | undefined;
    await db.transaction(async (tx) => {
      leaked = tx;
    });
    await expect(leaked!.query('SELECT 1')).rejects.toThrow(/already ended/);
  });

  it('runs after-commit hooks on commit only', async () => {
    const fired: string[] = [];
    await db.transaction(async (tx) => {
      onCommit(tx, () => fired.push('committed'));
    });
    await db
      .transaction(async (tx) => {
        onCommit(tx, () => fired.push('rolled-back'));
        throw new Error('no');
      })
      .catch(() => {});
    expect(fired).toEqual(['committed']);
  });

  it('keeps transactions isolated from each other when run concurrently', async () => {
    const ids = Array.from({ length: 8 }, (_, i) => `p-${i}-${uniq()}`);
    await Promise.all(
      ids.map((id, i) =>
        db
          .transaction(async (tx) => {
            await tx.query('INSERT INTO items (id, n) VALUES ($1, $2)', [id, i]);
            if (i % 2 === 1) throw new Error('odd ones roll back');
          })
          .catch(() => {}),
      ),
    );
    const rows = await db.query<{ id: string }>('SELECT id FROM items WHERE id = ANY($1) ORDER BY id', [ids]);
    expect(rows.rows.map((r) => r.id)).toEqual(ids.filter((_, i) => i % 2 === 0).sort());
  });

  it('isolates schemas: the same table name holds different rows per schema', async () => {
    const a = open('iso_a');
    const b = open('iso_b');
    const m: Migration[] = [{ id: '0001', sql: 'CREATE TABLE things (name text);' }];
    await Promise.all([a.migrate(m), b.migrate(m)]);
    await a.query(`INSERT INTO things VALUES ('from a')`);
    await b.query(`INSERT INTO things VALUES ('from b'), ('also b')`);
    expect((await a.query<{ name: string }>('SELECT name FROM things')).rows).toEqual([{ name: 'from a' }]);
    expect((await b.query('SELECT name FROM things')).rowCount).toBe(2);
    // interleaved use keeps each handle in its own schema
    const both = await Promise.all([
      a.query('SELECT * FROM things'),
      b.query('SELECT * FROM things'),
      a.query('SELECT * FROM things'),
    ]);
    expect(both.map((r) => r.rowCount)).toEqual([1, 2, 1]);
  });

  it('makes a unique violation recognisable, with the statement in the message', async () => {
    const id = `u-${uniq()}`;
    await db.query('INSERT INTO items (id, n) VALUES ($1, 1)', [id]);
    const err = await db.query('INSERT INTO items (id, n) VALUES ($1, 2)', [id]).catch((e: unknown) => e);
    expect(isUniqueViolation(err)).toBe(true);
    expect((err as Error).message).toMatch(/^running INSERT INTO items .* in ct_main_\w+: duplicate key/);
    const other = await db.query('SELECT * FROM no_such_table').catch((e: unknown) => e);
    expect(other).toBeInstanceOf(Error);
    expect(isUniqueViolation(other)).toBe(false);
    // inside a transaction too
    const inTx = await db
      .transaction(async (tx) => tx.query('INSERT INTO items (id, n) VALUES ($1, 3)', [id]))
      .catch((e: unknown) => e);
    expect(isUniqueViolation(inTx)).toBe(true);
  });

  it('round-trips bytea, jsonb, timestamptz and bigint', async () => {
    const bytes = Buffer.from([0, 1, 2, 254, 255, 0x5c, 0x78]);
    const doc = { title: 'Café ✓', tags: ['a', 'b'], nested: { n: 1.5, nil: null } };
    const at = new Date('2026-03-04T05:06:07.123Z');
    const big = 2 ** 40 + 7;
    const ins = await db.query<{ id: number }>(
      'INSERT INTO kinds (data, doc, at, big) VALUES ($1, $2, $3, $4) RETURNING id',
      [bytes, JSON.stringify(doc), at, big],
    );
    expect(ins.rowCount).toBe(1);
    const row = (
      await db.query<{ data: Buffer; doc: unknown; at: Date; big: number }>(
        'SELECT data, doc, at, big FROM kinds WHERE id = $1',
        [ins.rows[0]!.id],
      )
    ).rows[0]!;
    expect(Buffer.isBuffer(row.data)).toBe(true);
    expect(row.data.equals(bytes)).toBe(true);
    expect(row.doc).toEqual(doc);
    expect(row.at).toBeInstanceOf(Date);
    expect(row.at.toISOString()).toBe(at.toISOString());
    expect(row.big).toBe(big);
    const count = await db.query<{ c: number }>('SELECT count(*) AS c FROM kinds');
    expect(typeof count.rows[0]!.c).toBe('number');
  });

  it('round-trips bytea of any size and view: a slice of a larger buffer, a plain Uint8Array, empty, 256 KB', async () => {
    const pool = Buffer.from(Array.from({ length: 64 }, (_, i) => (i * 37) & 255));
    const large = Buffer.alloc(256 * 1024);
    for (let i = 0; i < large.length; i++) large[i] = (i * 7919) & 255;
    const values = [pool.subarray(10, 30), Uint8Array.from([9, 0, 9]), Buffer.alloc(0), large];
    for (const value of values) {
      const { rows } = await db.query<{ data: Buffer }>(
        'INSERT INTO kinds (data) VALUES ($1) RETURNING data',
        [value],
      );
      expect(Buffer.from(value).equals(rows[0]!.data)).toBe(true);
    }
  });

  it('reports rowCount for updates and selects alike', async () => {
    const ids = [`rc1-${uniq()}`, `rc2-${uniq()}`];
    await db.query('INSERT INTO items (id, n) VALUES ($1, 0), ($2, 0)', ids);
    expect((await db.query('UPDATE items SET n = 5 WHERE id = ANY($1)', [ids])).rowCount).toBe(2);
    expect((await db.query('SELECT * FROM items WHERE id = ANY($1)', [ids])).rowCount).toBe(2);
    expect((await db.query('DELETE FROM items WHERE id = $1', [ids[0]])).rowCount).toBe(1);
  });

  it('pings while open and fails after close', async () => {
    const h = open('ping');
    await h.ping();
    await h.close();
    await expect(h.ping()).rejects.toThrow(/closed/);
    await expect(h.query('SELECT 1')).rejects.toThrow(/closed/);
    await h.close(); // closing twice is harmless
    // other handles on the same engine are unaffected
    await db.ping();
  });
});
