// An initialised, empty PGlite cluster kept as a tarball, so a new embedded database is copied
// instead of made by initdb. PGlite runs initdb for every new cluster: a second PGlite instance,
// initdb's own WASM, a dump and a load: 3.0 s of CPU in process and 2.5 s of a product's start, against
// 0.8 s to load the tarball (docs/benchmarks/2026-11-27-ci-time.md). One product start makes one cluster,
// so the product does not need it; the test suite makes hundreds (a fresh database per unit test, a
// product process per API, topology and e2e file), and on a 2-core CI machine that CPU was minutes.
// PGLITE_TEMPLATE_DIR turns it on (vitest.config.ts sets it); unset, PGlite runs initdb as always.
import { existsSync, mkdirSync, openAsBlob, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';

let pgliteVersion: string | undefined;

/** The template's file for this PGlite build: a cluster from another version must not be loaded. */
function templatePath(dir: string): string {
  if (pgliteVersion === undefined) {
    // read once per process: every new database asks for the path
    const dist = dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')));
    pgliteVersion = (
      JSON.parse(readFileSync(join(dist, '..', 'package.json'), 'utf8')) as { version: string }
    ).version;
  }
  return join(resolve(dir), `pglite-${pgliteVersion}-empty.tar`);
}

function configuredPath(): string | undefined {
  const dir = process.env.PGLITE_TEMPLATE_DIR?.trim();
  return dir ? templatePath(dir) : undefined;
}

/** Whether `dataDir` (a directory, or `memory://`) holds no cluster yet. */
export function isFreshCluster(dataDir: string): boolean {
  return dataDir.startsWith('memory://') || !existsSync(join(dataDir, 'PG_VERSION'));
}

/** The template to load into a fresh cluster, when one is configured and already made. */
export async function pgliteTemplate(): Promise<Blob | undefined> {
  const path = configuredPath();
  if (!path || !existsSync(path)) return undefined;
  return openAsBlob(path);
}

/**
 * Keep `pg`, a cluster initdb has just made and nothing has used yet, as the template. Best effort:
 * a directory that cannot be written leaves things as they were. Written under a private name and
 * renamed, so a process reading it never sees half a file.
 */
export async function keepPgliteTemplate(pg: PGlite): Promise<void> {
  const path = configuredPath();
  if (!path || existsSync(path)) return;
  const partial = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.partial`;
  try {
    const dump = await pg.dumpDataDir('none');
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(partial, new Uint8Array(await dump.arrayBuffer()), { mode: 0o600 });
    renameSync(partial, path);
  } catch {
    rmSync(partial, { force: true });
  }
}

/** A template that failed to load is removed, so the next cluster is made by initdb and kept again. */
export function dropPgliteTemplate(): void {
  const path = configuredPath();
  if (path) rmSync(path, { force: true });
}
