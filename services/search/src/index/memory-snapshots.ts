// Snapshots of large owners' memory indexes on disk, so a restart loads them instead of rebuilding
// them from the table (minutes at a million entities). One directory per owner (named by a hash of
// the owner id, so any id is safe), holding generation directories and a manifest naming the current
// one. A save writes a new generation, then renames the manifest over the old one, then removes the
// old generation: a crash at any point leaves either the old or the new snapshot whole. A save holds
// no lock: the parts take their state at one synchronous moment (freeze) and are written from it
// while writes go on (they land in the next snapshot). The manifest
// records the format, the embedding model and dimensions the vectors came from, every file's size and
// CRC-32 (a truncated or damaged file is refused before any part reads it) and where to find each
// entity's (key → version, deleted) as the table held it at the save, for the reconcile on load.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { crc32 } from 'node:zlib';
import type { Table } from '@lancedb/lancedb';
import { sqlString } from './lance-filter.ts';
import { OwnerDisplayRows } from './display-rows.ts';
import { OwnerKeywordIndex } from './keyword-index.ts';
import { OwnerVectorGraph, type VectorGraphSettings } from './vector-graph.ts';

/** Bumped whenever the layout or a part's file format changes: older snapshots are then rebuilt. */
export const SNAPSHOT_FORMAT = 1;
const MANIFEST = 'manifest.json';

/** What the vectors are: a snapshot of another model or size is never loaded. */
export interface SnapshotIdentity {
  dims: number;
  model: string;
}

/** Every entity of the owner in the table at the save (live and tombstones), in columns. */
export interface SnapshotEntities {
  keys: string[];
  versions: Float64Array;
  deleted: Uint8Array;
}

export interface SnapshotParts {
  graph: OwnerVectorGraph;
  words: OwnerKeywordIndex;
  rows: OwnerDisplayRows;
}

interface Manifest {
  format: number;
  ownerId: string;
  dims: number;
  model: string;
  generation: string;
  savedAt: string;
  entities: number;
  /** Path inside the generation → [bytes, CRC-32 hex]. */
  files: Record<string, [number, string]>;
}

/** Why a snapshot was not loaded (logged; the owner's index is then built from the table). */
export class SnapshotRejected extends Error {}

/** Tests' and benches' view into a save under way. */
export interface SaveHooks {
  /** The parts' state is taken (synchronously): writes from now on are not in this snapshot. */
  frozen?(): void;
  /** A part (vectors, keywords, rows, entities) is written; a save waits for the promise. */
  written?(part: string): Promise<void>;
}

export interface SavedSnapshot {
  bytes: number;
  /** Milliseconds: the synchronous freeze, each part's write, the checksums. */
  timings: Record<string, number>;
}

export interface SnapshotStore {
  /**
   * Writes the owner's snapshot (a new generation) while writes go on: the parts as they are once
   * the generation's folders exist, then the entity list (`entities`, or what it resolves to once the
   * parts are written: a list no newer than the parts, see lancedb-memory-index.ts). Resolves with
   * its size on disk. Nothing is locked: the caller runs one save of an owner at a time.
   */
  save(
    ownerId: string,
    parts: SnapshotParts,
    entities: SnapshotEntities | (() => Promise<SnapshotEntities>),
    hooks?: SaveHooks,
  ): Promise<SavedSnapshot>;
  /**
   * The owner's newest snapshot, undefined when there is none. Throws SnapshotRejected (or the
   * part's own error) when it is partial, damaged or of another model or size: the caller discards it.
   */
  load(
    ownerId: string,
    settings: VectorGraphSettings,
    /** Where the loaded display rows' live file goes (default: inside the snapshot, tests only). */
    liveDir?: string,
  ): Promise<LoadedSnapshot | undefined>;
  discard(ownerId: string): Promise<void>;
  /** Owners that have a snapshot (read from the manifests), for the background load at open. */
  owners(): Promise<string[]>;
}

export interface LoadedSnapshot {
  parts: SnapshotParts;
  entities: SnapshotEntities;
  bytes: number;
  /** Milliseconds per step (verify, each part, entities), and the longest synchronous stretch seen. */
  timings: Record<string, number>;
}

export function ownerSnapshotDir(root: string, ownerId: string): string {
  return join(root, createHash('sha256').update(ownerId).digest('hex').slice(0, 40));
}

/** Lets the event loop run between the steps of a save or a load. */
const yieldLoop = () => new Promise<void>((r) => setImmediate(r));

export function createSnapshotStore(root: string, identity: SnapshotIdentity): SnapshotStore {
  async function save(
    ownerId: string,
    parts: SnapshotParts,
    entities: SnapshotEntities | (() => Promise<SnapshotEntities>),
    hooks: SaveHooks = {},
  ): Promise<SavedSnapshot> {
    const ownerDir = ownerSnapshotDir(root, ownerId);
    const generation = `g-${Date.now()}-${randomBytes(4).toString('hex')}`;
    const gen = join(ownerDir, generation);
    const timings: Record<string, number> = {};
    let files: Record<string, [number, string]>;
    let vectorsWritten: Promise<void> | undefined;
    try {
      for (const part of ['vectors', 'keywords', 'rows']) await mkdir(join(gen, part), { recursive: true });
      // A merge rewrites the keyword index's df as it goes: the state is taken between merges.
      while (parts.words.merging) await parts.words.finishMerge();
      // The snapshot's state: all three parts as of this moment, with no await in between, so they
      // agree; writes from now on go to the live parts and into the next snapshot.
      // The vectors' writer starts at once: it saves the first usearch graph now, the others with the
      // loop's turn between them, and the graph holds its writes until the last is saved.
      let t = performance.now();
      const writeWords = parts.words.freeze();
      const writeRows = parts.rows.freeze();
      vectorsWritten = parts.graph.freeze(join(gen, 'vectors'))();
      vectorsWritten.catch(() => undefined); // awaited below (an unhandled rejection meanwhile otherwise)
      timings.freezeMs = performance.now() - t;
      hooks.frozen?.();
      const steps: [string, () => Promise<void>][] = [
        ['vectors', () => vectorsWritten!],
        ['keywords', () => writeWords(join(gen, 'keywords'))],
        ['rows', () => writeRows(join(gen, 'rows'))],
      ];
      for (const [name, write] of steps) {
        t = performance.now();
        await write();
        timings[`${name}Ms`] = performance.now() - t;
        await hooks.written?.(name);
      }
      const list = typeof entities === 'function' ? await entities() : entities;
      await writeEntities(gen, list);
      await hooks.written?.('entities');
      t = performance.now();
      files = await describeFiles(gen);
      timings.checksumMs = performance.now() - t;
      const manifest: Manifest = {
        format: SNAPSHOT_FORMAT,
        ownerId,
        dims: identity.dims,
        model: identity.model,
        generation,
        savedAt: new Date().toISOString(),
        entities: list.keys.length,
        files,
      };
      const tmp = join(ownerDir, `${MANIFEST}.${generation}.tmp`);
      const fh = await open(tmp, 'w');
      try {
        await fh.writeFile(JSON.stringify(manifest));
        await fh.sync();
      } finally {
        await fh.close();
      }
      await rename(tmp, join(ownerDir, MANIFEST));
    } catch (err) {
      await vectorsWritten?.catch(() => undefined); // its files first, then the folder
      await rm(gen, { recursive: true, force: true });
      throw err;
    }
    // The manifest names the new generation: everything else in the owner's folder is old or partial.
    for (const name of await readdir(ownerDir)) {
      if (name !== MANIFEST && name !== generation)
        await rm(join(ownerDir, name), { recursive: true, force: true });
    }
    let bytes = 0;
    for (const [size] of Object.values(files)) bytes += size;
    return { bytes, timings };
  }

  async function load(
    ownerId: string,
    settings: VectorGraphSettings,
    liveDir?: string,
  ): Promise<LoadedSnapshot | undefined> {
    const ownerDir = ownerSnapshotDir(root, ownerId);
    let text: string;
    try {
      text = await readFile(join(ownerDir, MANIFEST), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    const timings: Record<string, number> = {};
    let longest = 0;
    let t = performance.now();
    const step = async (name: string) => {
      const now = performance.now();
      timings[name] = now - t;
      await yieldLoop();
      t = performance.now();
    };
    let m: Manifest;
    try {
      m = JSON.parse(text) as Manifest;
    } catch {
      throw new SnapshotRejected('the manifest is not valid JSON');
    }
    if (m.format !== SNAPSHOT_FORMAT)
      throw new SnapshotRejected(`format ${m.format}, not ${SNAPSHOT_FORMAT}`);
    if (m.ownerId !== ownerId) throw new SnapshotRejected('the manifest belongs to another owner');
    if (m.dims !== identity.dims || m.model !== identity.model)
      throw new SnapshotRejected(
        `vectors of ${m.model || 'an unnamed model'} (${m.dims} dims), not ${identity.model || 'the unnamed model'} (${identity.dims})`,
      );
    const gen = join(ownerDir, m.generation);
    const found = await describeFiles(gen).catch(() => {
      throw new SnapshotRejected(`generation ${m.generation} is missing`);
    });
    let bytes = 0;
    for (const [path, [size, hash]] of Object.entries(m.files)) {
      const f = found[path];
      if (!f) throw new SnapshotRejected(`${path} is missing`);
      if (f[0] !== size) throw new SnapshotRejected(`${path} has ${f[0]} bytes, not ${size}`);
      if (f[1] !== hash) throw new SnapshotRejected(`${path} is damaged (checksum)`);
      bytes += size;
    }
    await step('verify');
    const graph = await OwnerVectorGraph.loadFrom(join(gen, 'vectors'), identity.dims, settings);
    longest = Math.max(longest, performance.now() - t);
    await step('vectors');
    const words = await OwnerKeywordIndex.loadFrom(join(gen, 'keywords'));
    longest = Math.max(longest, performance.now() - t);
    await step('keywords');
    const rows = await OwnerDisplayRows.loadFrom(join(gen, 'rows'), liveDir);
    longest = Math.max(longest, performance.now() - t);
    await step('rows');
    const entities = await readEntities(gen);
    if (entities.keys.length !== m.entities)
      throw new SnapshotRejected('the entity list does not match the manifest');
    await step('entities');
    timings.longestStepMs = longest;
    return { parts: { graph, words, rows }, entities, bytes, timings };
  }

  return {
    save,
    load,
    async discard(ownerId) {
      await rm(ownerSnapshotDir(root, ownerId), { recursive: true, force: true });
    },
    async owners() {
      let names: string[];
      try {
        names = await readdir(root);
      } catch {
        return [];
      }
      const out: string[] = [];
      for (const name of names) {
        try {
          const m = JSON.parse(await readFile(join(root, name, MANIFEST), 'utf8')) as Manifest;
          if (typeof m.ownerId === 'string') out.push(m.ownerId);
        } catch {
          // no manifest (a save that never finished) or an unreadable one: load() reports it per owner
        }
      }
      return out;
    },
  };
}

// ---- the entity list: keys (UTF-8, one per line: a key is JSON, so it holds no raw newline),
// versions (float64, little-endian) and tombstone flags (one byte each) ------------------------

async function writeEntities(gen: string, e: SnapshotEntities): Promise<void> {
  // the keys in pieces: one string of a million keys is tens of MB and a long stretch of the loop
  const fh = await open(join(gen, 'entities.keys'), 'w');
  try {
    for (let i = 0; i < e.keys.length; i += 20_000) {
      const piece = e.keys.slice(i, i + 20_000).join('\n');
      await fh.write(i === 0 ? piece : `\n${piece}`);
    }
  } finally {
    await fh.close();
  }
  await writeFile(
    join(gen, 'entities.versions'),
    new Uint8Array(e.versions.buffer, e.versions.byteOffset, e.versions.byteLength),
  );
  await writeFile(join(gen, 'entities.deleted'), e.deleted);
}

async function readEntities(gen: string): Promise<SnapshotEntities> {
  const text = await readFile(join(gen, 'entities.keys'), 'utf8');
  const keys = text === '' ? [] : text.split('\n');
  const vb = await readFile(join(gen, 'entities.versions'));
  if (vb.byteLength !== keys.length * 8)
    throw new SnapshotRejected('the entity versions do not match the keys');
  const versions = new Float64Array(keys.length);
  new Uint8Array(versions.buffer).set(vb);
  const deleted = new Uint8Array(await readFile(join(gen, 'entities.deleted')));
  if (deleted.length !== keys.length) throw new SnapshotRejected('the entity flags do not match the keys');
  return { keys, versions, deleted };
}

/**
 * Every file under `dir` with its size and CRC-32 (streamed, so a large file does not block the loop;
 * CRC-32, not SHA-256: it catches damage, not tampering, at about twice the speed here — 110–150 ms
 * against 210–300 ms for a 207 MB file — and the check reads every byte of a snapshot on each start).
 */
async function describeFiles(dir: string): Promise<Record<string, [number, string]>> {
  const out: Record<string, [number, string]> = {};
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) {
        const size = (await stat(p)).size;
        let crc = 0;
        for await (const chunk of createReadStream(p, { highWaterMark: 1 << 20 }))
          crc = crc32(chunk as Buffer, crc);
        out[relative(dir, p)] = [size, crc.toString(16).padStart(8, '0')];
      }
    }
  };
  await walk(dir);
  return out;
}

/**
 * The owner's `key, version, deleted` columns only (cheap: no vectors or text are read), as a
 * snapshot's entity list and as the table's side of a reconcile. Yields to the loop every `sliceMs`.
 */
export async function scanEntities(table: Table, ownerId: string, sliceMs = 8): Promise<SnapshotEntities> {
  const keys: string[] = [];
  const versions: number[] = [];
  const deleted: number[] = [];
  const q = table
    .query()
    .where(`owner_id = ${sqlString(ownerId)}`)
    .select(['key', 'version', 'deleted']);
  let slice = performance.now();
  for await (const batch of q) {
    const k = batch.getChild('key');
    const v = batch.getChild('version');
    const d = batch.getChild('deleted');
    for (let i = 0; i < batch.numRows; i++) {
      keys.push(String(k?.get(i)));
      versions.push(Number(v?.get(i)));
      deleted.push(d?.get(i) ? 1 : 0);
    }
    if (performance.now() - slice > sliceMs) {
      await yieldLoop();
      slice = performance.now();
    }
  }
  return { keys, versions: Float64Array.from(versions), deleted: Uint8Array.from(deleted) };
}
