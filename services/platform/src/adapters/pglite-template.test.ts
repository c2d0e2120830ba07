import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPgliteDatabase } from './pglite-database.ts';

// The empty cluster kept as a tarball (PGLITE_TEMPLATE_DIR) instead of initdb for each new one.
describe('the PGlite template', { timeout: 120_000 }, () => {
  let dir: string;
  const before = process.env.PGLITE_TEMPLATE_DIR;
  const templateFile = async () => (await readdir(join(dir, 'templates'))).filter((f) => f.endsWith('.tar'));

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kaboodle-pglite-template-'));
    process.env.PGLITE_TEMPLATE_DIR = join(dir, 'templates');
  });
  afterEach(async () => {
    if (before === undefined) delete process.env.PGLITE_TEMPLATE_DIR;
    else process.env.PGLITE_TEMPLATE_DIR = before;
    await rm(dir, { recursive: true, force: true });
  });

  const roundTrip = async (dataDir: string) => {
    const db = createPgliteDatabase({ dataDir, schema: 'svc' });
    await db.migrate([{ id: '0001', sql: `CREATE TABLE t (n int); INSERT INTO t VALUES (7);` }]);
    const rows = (await db.query<{ n: number }>('SELECT n FROM t')).rows;
    await db.close();
    return rows;
  };

  it('keeps the first new cluster as the template, private to its owner, and makes the next from it', async () => {
    expect(await roundTrip(`memory://first-${dir}`)).toEqual([{ n: 7 }]);
    const [file] = await templateFile();
    expect(file).toMatch(/^pglite-\d+\.\d+\.\d+-empty\.tar$/);
    const kept = await stat(join(dir, 'templates', file!));
    expect(kept.mode & 0o777).toBe(0o600);
    // the template holds the empty cluster, not the first database's table
    const fromTemplate = createPgliteDatabase({ dataDir: `memory://second-${dir}`, schema: 'svc' });
    await expect(fromTemplate.query('SELECT n FROM svc.t')).rejects.toThrow(/does not exist/);
    await fromTemplate.close();
    // an on-disk cluster is made from it too, and reopens with its data
    expect(await roundTrip(join(dir, 'disk'))).toEqual([{ n: 7 }]);
    expect(existsSync(join(dir, 'disk', 'PG_VERSION'))).toBe(true);
    const again = createPgliteDatabase({ dataDir: join(dir, 'disk'), schema: 'svc' });
    expect((await again.query('SELECT n FROM t')).rows).toEqual([{ n: 7 }]);
    await again.close();
  });

  it('makes the cluster with initdb when the template is damaged, and keeps a good one again', async () => {
    await roundTrip(`memory://seed-${dir}`);
    const [file] = await templateFile();
    const path = join(dir, 'templates', file!);
    await writeFile(path, 'not a tarball');
    expect(await roundTrip(join(dir, 'disk'))).toEqual([{ n: 7 }]);
    expect((await stat(path)).size).toBeGreaterThan(1_000_000);
    expect(await roundTrip(`memory://after-${dir}`)).toEqual([{ n: 7 }]);
  });

  it('keeps nothing when PGLITE_TEMPLATE_DIR is not set', async () => {
    delete process.env.PGLITE_TEMPLATE_DIR;
    expect(await roundTrip(`memory://plain-${dir}`)).toEqual([{ n: 7 }]);
    expect(existsSync(join(dir, 'templates'))).toBe(false);
  });
});
