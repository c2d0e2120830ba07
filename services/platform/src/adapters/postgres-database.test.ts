import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createPostgresDatabase } from './postgres-database.ts';
import { isUniqueViolation, openDatabase, pgErrorCode } from './open-database.ts';

// A port nothing listens on: bind, note it, close.
async function deadPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe('createPostgresDatabase', () => {
  it('fails ping with a "doing X: cause" error when the server does not answer', async () => {
    const db = createPostgresDatabase({
      url: `postgres://u@127.0.0.1:${await deadPort()}/x`,
      schema: 'svc',
      connectionTimeoutMs: 1000,
    });
    await expect(db.ping()).rejects.toThrow(/^pinging postgres for svc: .*ECONNREFUSED/);
    await expect(db.query('SELECT 1')).rejects.toThrow(
      /^creating schema in svc: connecting to postgres: .*ECONNREFUSED/,
    );
    await db.close();
    await expect(db.ping()).rejects.toThrow(/database svc is closed/);
  });

  it('rejects schema names that are not plain identifiers', () => {
    expect(() => createPostgresDatabase({ url: 'postgres://x@127.0.0.1/x', schema: 'public; drop' })).toThrow(
      /invalid schema name/,
    );
  });

  it('is what openDatabase picks when a URL is configured', async () => {
    const db = openDatabase({ url: 'postgres://x@127.0.0.1:1/x', dataDir: '/nonexistent', schema: 'svc' });
    expect(db.kind).toBe('postgres');
    await db.close();
  });
});

describe('error classification', () => {
  it('finds the SQLSTATE anywhere in the cause chain', () => {
    const pgErr = Object.assign(new Error('duplicate key'), { code: '23505' });
    const wrapped = new Error('saving user: duplicate key', {
      cause: new Error('running INSERT', { cause: pgErr }),
    });
    expect(pgErrorCode(wrapped)).toBe('23505');
    expect(isUniqueViolation(wrapped)).toBe(true);
    expect(isUniqueViolation(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
  });
});

// The Helm chart's CloudNativePG cluster gives each service a login role that owns its schema and
// nothing else (no CREATE on the database). Against a real server when DATABASE_URL is set (CI).
const adminUrl = process.env.DATABASE_URL;
describe.skipIf(!adminUrl)('a least-privilege role per service (real Postgres)', () => {
  it('migrates and queries in a pre-made schema it owns, and cannot touch another service’s', async () => {
    const { default: pg } = await import('pg');
    const suffix = Math.random().toString(36).slice(2, 8);
    const role = `svc_${suffix}`;
    const other = `other_${suffix}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(`CREATE ROLE ${role} LOGIN`);
      await admin.query(`CREATE ROLE ${other} LOGIN`);
      await admin.query(`CREATE SCHEMA ${role} AUTHORIZATION ${role}`);
      await admin.query(`CREATE SCHEMA ${other} AUTHORIZATION ${other}`);
      await admin.query(`CREATE TABLE ${other}.secrets (v text)`);
      await admin.query(`ALTER TABLE ${other}.secrets OWNER TO ${other}`);
      const url = new URL(adminUrl!);
      url.username = role;
      url.password = '';
      const db = createPostgresDatabase({ url: url.toString(), schema: role });
      try {
        await db.migrate([{ id: '001-notes', sql: 'CREATE TABLE notes (id int PRIMARY KEY)' }]);
        await db.query('INSERT INTO notes (id) VALUES (1)');
        expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM notes')).rows[0]?.n).toBe(1);
        await expect(db.query(`SELECT * FROM ${other}.secrets`)).rejects.toThrow(/permission denied/);
      } finally {
        await db.close();
      }
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS ${role} CASCADE`).catch(() => undefined);
      await admin.query(`DROP SCHEMA IF EXISTS ${other} CASCADE`).catch(() => undefined);
      await admin.query(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
      await admin.query(`DROP ROLE IF EXISTS ${other}`).catch(() => undefined);
      await admin.end();
    }
  });
});
