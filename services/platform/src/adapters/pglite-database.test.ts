import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPgliteDatabase, PGLITE_SHARED_BUFFERS_DEFAULT } from './pglite-database.ts';
import { openDatabase } from './open-database.ts';

// PGlite boots Postgres in WASM: ~4 s on an idle machine, 20 s+ on a busy 2-core one
describe('createPgliteDatabase', { timeout: 90_000 }, () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kaboodle-pglite-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('shares one data directory between service schemas and keeps data across a reopen', async () => {
    const auth = createPgliteDatabase({ dataDir: dir, schema: 'auth' });
    const catalogue = createPgliteDatabase({ dataDir: dir, schema: 'catalogue' });
    await auth.migrate([
      { id: '0001', sql: `CREATE TABLE users (name text); INSERT INTO users VALUES ('ada');` },
    ]);
    await catalogue.migrate([{ id: '0001', sql: `CREATE TABLE users (name text);` }]);
    const [a, c] = await Promise.all([
      auth.query<{ s: string }>('SELECT current_schema() AS s'),
      catalogue.query<{ s: string }>('SELECT current_schema() AS s'),
    ]);
    expect([a.rows[0]?.s, c.rows[0]?.s]).toEqual(['auth', 'catalogue']);
    await auth.close();
    // the instance stays open for the other schema
    expect((await catalogue.query('SELECT * FROM users')).rowCount).toBe(0);
    await catalogue.close();

    const again = createPgliteDatabase({ dataDir: dir, schema: 'auth' });
    expect((await again.query<{ name: string }>('SELECT name FROM users')).rows).toEqual([{ name: 'ada' }]);
    await again.close();
  });

  it('refuses a data directory another live process holds, and takes over a stale lock', async () => {
    await writeFile(`${dir}/pg.lock`, String(process.ppid)); // the parent process: alive
    expect(() => createPgliteDatabase({ dataDir: `${dir}/pg`, schema: 'svc' })).toThrow(
      /is in use by process \d+: processes cannot share it/,
    );
    await writeFile(`${dir}/pg.lock`, '2147483646'); // no such process
    const db = createPgliteDatabase({ dataDir: `${dir}/pg`, schema: 'svc' });
    await db.ping();
    expect(await readFile(`${dir}/pg.lock`, 'utf8')).toBe(String(process.pid));
    await db.close();
    await expect(readFile(`${dir}/pg.lock`, 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('reopens a directory while its previous instance is still closing, without losing data', async () => {
    const first = createPgliteDatabase({ dataDir: dir, schema: 'svc' });
    await first.migrate([{ id: '0001', sql: `CREATE TABLE t (n int); INSERT INTO t VALUES (1);` }]);
    const closing = first.close();
    const second = createPgliteDatabase({ dataDir: dir, schema: 'svc' });
    await closing;
    expect((await second.query('SELECT n FROM t')).rows).toEqual([{ n: 1 }]);
    await second.close();
  });

  it('fails clearly, instead of hanging, when the database is used inside its own transaction', async () => {
    const db = createPgliteDatabase({ dataDir: 'memory://reentry', schema: 'svc' });
    await expect(
      db.transaction(async () => {
        await db.query('SELECT 1');
      }),
    ).rejects.toThrow(/use the transaction's handle/);
    // work only started inside a transaction (not awaited by it) runs once the transaction is over
    let later: Promise<unknown> | undefined;
    await db.transaction(async (tx) => {
      await tx.query('SELECT 1');
      later = new Promise((r) => setTimeout(r, 20)).then(() => db.query('SELECT 2 AS n'));
    });
    expect((await (later as Promise<{ rows: unknown[] }>)).rows).toEqual([{ n: 2 }]);
    await db.ping();
    await db.close();
  });

  it('takes bytea parameters as bytes (sent in binary) and refuses a value that is not bytes', async () => {
    const db = createPgliteDatabase({ dataDir: `memory://bytea-${Math.random()}`, schema: 'svc' });
    await db.migrate([{ id: '0001', sql: 'CREATE TABLE blobs (data bytea)' }]);
    const bytes = Buffer.from([0x5c, 0x78, 0, 255]); // "\x" first: binary, not hex text to be parsed
    const { rows } = await db.query<{ data: Buffer; n: number }>(
      'INSERT INTO blobs VALUES ($1) RETURNING data, octet_length(data) AS n',
      [bytes],
    );
    expect(rows[0]!.n).toBe(4);
    expect(rows[0]!.data.equals(bytes)).toBe(true);
    await expect(db.query('INSERT INTO blobs VALUES ($1)', ['not bytes'])).rejects.toThrow(
      /bytea parameter must be a Buffer or Uint8Array/,
    );
    await db.close();
  });

  it('keeps a small buffer pool (16MB unless PGLITE_SHARED_BUFFERS says), and refuses a bad size', async () => {
    const asked = process.env.PGLITE_SHARED_BUFFERS;
    const show = async (dataDir: string) => {
      const db = createPgliteDatabase({ dataDir, schema: 'app' });
      try {
        return (await db.query<{ shared_buffers: string }>('SHOW shared_buffers')).rows[0]?.shared_buffers;
      } finally {
        await db.close();
      }
    };
    try {
      delete process.env.PGLITE_SHARED_BUFFERS;
      expect(await show('memory://buffers-default')).toBe(PGLITE_SHARED_BUFFERS_DEFAULT);
      process.env.PGLITE_SHARED_BUFFERS = '32MB';
      expect(await show('memory://buffers-32')).toBe('32MB');
      process.env.PGLITE_SHARED_BUFFERS = 'lots';
      await expect(show('memory://buffers-bad')).rejects.toThrow(
        "PGLITE_SHARED_BUFFERS must be a size such as 16MB (kB, MB or GB), not 'lots'",
      );
    } finally {
      if (asked === undefined) delete process.env.PGLITE_SHARED_BUFFERS;
      else process.env.PGLITE_SHARED_BUFFERS = asked;
    }
  });

  it('rejects schema names that are not plain identifiers', () => {
    expect(() => createPgliteDatabase({ schema: 'Bad-Name' })).toThrow(/invalid schema name "Bad-Name"/);
    expect(() => createPgliteDatabase({ schema: 'x"; DROP' })).toThrow(/invalid schema name/);
  });

  it('is what openDatabase picks when no URL is configured, under <dataDir>/pglite', async () => {
    const db = openDatabase({ dataDir: dir, schema: 'svc' });
    expect(db.kind).toBe('pglite');
    await db.ping();
    await db.close();
  });
});
