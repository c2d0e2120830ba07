// Snapshots of an owner's vector graph for a quick cold start: the usearch graph and the rare types'
// side graphs (usearch's own file format), the keys in label order and each label's type, a manifest with
// the settings, sizes and SHA-256 of every file. The main graph may be split in shards (one file each). Files are written under temporary names and renamed,
// the manifest last, so a crash leaves either the old snapshot or a mismatch that is refused; a
// truncated, corrupt or foreign snapshot throws a clear error before usearch reads a byte of it.
// Every file name starts with `vectors.`, so the directory can hold the memory index's other snapshots.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Index } from 'usearch';
import { VectorLabels } from './vector-labels.ts';

const FORMAT = 'kaboodle-vector-graph';
// version 2: the main graph in shards; a version-1 snapshot (one graph, poor recall at 1M) is rebuilt
const VERSION = 2;
const MANIFEST = 'vectors.manifest.json';
const KEYS = 'vectors.keys.txt';
const PARTS = 'vectors.types.bin';

interface FileEntry {
  name: string;
  bytes: number;
  sha256: string;
}

interface Manifest {
  format: string;
  version: number;
  dimensions: number;
  quantization: string;
  m: number;
  efConstruction: number;
  labels: number;
  /** The main graph's shards: a label lives in shard `label % files.length`. */
  main: { files: string[]; live: number[] };
  types: { type: string; live: number; side: string | null }[];
  files: FileEntry[];
}

export interface GraphSnapshot {
  dimensions: number;
  quantization: string;
  m: number;
  efConstruction: number;
  labels: VectorLabels;
  shards: readonly Index[];
  types: readonly { type: string; live: number; side: Index | null }[];
}

export interface ReadSnapshot {
  labels: VectorLabels;
  shards: Index[];
  types: { type: string; live: number; side: Index | null }[];
}

export class VectorGraphFileError extends Error {
  constructor(dir: string, problem: string) {
    super(`vector graph snapshot in ${dir}: ${problem}`);
    this.name = 'VectorGraphFileError';
  }
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function entry(dir: string, name: string, tempName: string): Promise<FileEntry> {
  const file = path.join(dir, tempName);
  return { name, bytes: (await stat(file)).size, sha256: await sha256(file) };
}

/**
 * Takes the snapshot of the graph as it is now, for writing while it changes: the labels are copied
 * (an array of references and a byte per label) and the returned writer saves the usearch graphs into
 * `dir` (which must exist) under temporary names, one at a time with the loop's turn between them,
 * then writes the rest, checksums every file and renames them into place, the manifest last; a
 * failure removes what it wrote. The graphs must not change until `saved` is called (the caller holds
 * its writes): each save is synchronous, as the binding offers no other way (usearch 2.x: `save(path)`
 * only, no buffer or async form, and its native index cannot move to a worker), about 1 s for all of
 * a million vectors (docs/benchmarks/2026-11-27-snapshot-saves.md); one shard at a time, the loop is
 * held for a shard's part of it (docs/benchmarks/2026-11-27-keyword-windows.md).
 */
export function freezeGraphFiles(
  dir: string,
  snap: GraphSnapshot,
  saved: () => void = () => undefined,
): () => Promise<void> {
  const tag = `.tmp-${process.pid}-${Date.now().toString(36)}`;
  const written: { name: string; temp: string }[] = [];
  const cleanUp = () => Promise.all(written.map((w) => rm(path.join(dir, w.temp), { force: true })));
  const keys = snap.labels.keys.slice();
  const parts = snap.labels.parts.slice(0, keys.length);
  const graphs: { name: string; temp: string; index: Index }[] = [];
  const types: Manifest['types'] = [];
  const mainLive = snap.shards.map((shard) => shard.size());
  const shardFiles = snap.shards.map((_, i) => (i === 0 ? 'vectors.usearch' : `vectors.shard-${i}.usearch`));
  const toSave: { name: string; index: Index }[] = snap.shards.map((shard, i) => ({
    name: shardFiles[i]!,
    index: shard,
  }));
  for (let i = 0; i < snap.types.length; i++) {
    const t = snap.types[i]!;
    const side = t.side ? `vectors.side-${i}.usearch` : null;
    if (side) toSave.push({ name: side, index: t.side! });
    types.push({ type: t.type, live: t.live, side });
  }
  /** The usearch graphs, one synchronous save at a time, the loop getting its turn between them. */
  const saveGraphs = async () => {
    try {
      for (const k of keys) {
        if (k.includes('\n')) throw new VectorGraphFileError(dir, 'a key holds a line break');
      }
      for (const [i, { name, index }] of toSave.entries()) {
        if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
        const temp = name + tag;
        written.push({ name, temp });
        index.save(path.join(dir, temp));
        graphs.push({ name, temp, index });
      }
    } finally {
      saved();
    }
  };
  return async () => {
    try {
      await saveGraphs();
      const files: FileEntry[] = [];
      const put = async (name: string, data: string | Uint8Array) => {
        const temp = name + tag;
        written.push({ name, temp });
        await writeFile(path.join(dir, temp), data);
        files.push(await entry(dir, name, temp));
      };
      await put(KEYS, keys.join('\n'));
      await put(PARTS, parts);
      for (const g of graphs) files.push(await entry(dir, g.name, g.temp));
      const manifest: Manifest = {
        format: FORMAT,
        version: VERSION,
        dimensions: snap.dimensions,
        quantization: snap.quantization,
        m: snap.m,
        efConstruction: snap.efConstruction,
        labels: keys.length,
        main: { files: shardFiles, live: mainLive },
        types,
        files,
      };
      const manifestTemp = MANIFEST + tag;
      written.push({ name: MANIFEST, temp: manifestTemp });
      await writeFile(path.join(dir, manifestTemp), JSON.stringify(manifest, null, 1));
      for (const w of written) await rename(path.join(dir, w.temp), path.join(dir, w.name));
    } catch (err) {
      await cleanUp();
      throw err;
    }
  };
}

async function readManifest(dir: string): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(path.join(dir, MANIFEST), 'utf8');
  } catch (err) {
    throw new VectorGraphFileError(
      dir,
      `no manifest (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`,
    );
  }
  let m: Manifest;
  try {
    m = JSON.parse(text) as Manifest;
  } catch {
    throw new VectorGraphFileError(dir, 'the manifest is not JSON');
  }
  if (m?.format !== FORMAT || m.version !== VERSION)
    throw new VectorGraphFileError(dir, `not a version-${VERSION} ${FORMAT} manifest`);
  if (
    !Array.isArray(m.files) ||
    !Array.isArray(m.types) ||
    !Number.isInteger(m.labels) ||
    !Array.isArray(m.main?.files) ||
    !Array.isArray(m.main.live) ||
    m.main.files.length === 0 ||
    m.main.files.length !== m.main.live.length
  )
    throw new VectorGraphFileError(dir, 'the manifest is incomplete');
  return m;
}

/**
 * Reads a snapshot written by freezeGraphFiles' writer, checking the settings it was built with, then every
 * file's size and checksum, then that each graph holds what the manifest says.
 */
export async function readGraphFiles(
  dir: string,
  expect: { dimensions: number; quantization: string; m: number; shardSize: number },
  newIndex: (efConstruction: number) => Index,
): Promise<ReadSnapshot> {
  const m = await readManifest(dir);
  if (m.dimensions !== expect.dimensions)
    throw new VectorGraphFileError(dir, `${m.dimensions} dimensions, ${expect.dimensions} expected`);
  if (m.quantization !== expect.quantization || m.m !== expect.m)
    throw new VectorGraphFileError(
      dir,
      `built as ${m.quantization} m ${m.m}, ${expect.quantization} m ${expect.m} expected`,
    );
  for (const f of m.files) {
    const file = path.join(dir, path.basename(f.name));
    const bytes = await stat(file).then(
      (s) => s.size,
      () => -1,
    );
    if (bytes < 0) throw new VectorGraphFileError(dir, `${f.name} is missing`);
    if (bytes !== f.bytes)
      throw new VectorGraphFileError(dir, `${f.name} has ${bytes} bytes, ${f.bytes} expected`);
    if ((await sha256(file)) !== f.sha256)
      throw new VectorGraphFileError(dir, `${f.name} is corrupt (checksum)`);
  }
  const keysText = await readFile(path.join(dir, KEYS), 'utf8');
  const keys = m.labels === 0 ? [] : keysText.split('\n');
  const parts = new Uint8Array(await readFile(path.join(dir, PARTS)));
  if (keys.length !== m.labels || parts.length !== m.labels)
    throw new VectorGraphFileError(
      dir,
      `${keys.length} keys and ${parts.length} types for ${m.labels} labels`,
    );
  let labels: VectorLabels;
  try {
    labels = VectorLabels.restore(keys, parts);
  } catch (err) {
    throw new VectorGraphFileError(dir, (err as Error).message);
  }
  const livePerPart = new Array<number>(m.types.length).fill(0);
  for (let label = 0; label < parts.length; label++) {
    const p = parts[label]!;
    if (p === 255) continue;
    if (p >= m.types.length) throw new VectorGraphFileError(dir, `label ${label} has an unknown type`);
    livePerPart[p]! += 1;
  }
  const open = (file: string, live: number): Index => {
    const index = newIndex(m.efConstruction);
    try {
      index.load(path.join(dir, path.basename(file)));
    } catch (err) {
      throw new VectorGraphFileError(dir, `${file} does not load: ${(err as Error).message}`);
    }
    if (index.dimensions() !== m.dimensions || index.size() !== live)
      throw new VectorGraphFileError(dir, `${file} holds ${index.size()} vectors, ${live} expected`);
    return index;
  };
  // an owner grown well past its shards since the build clusters its near-duplicates again: rebuild
  const shardCount = m.main.files.length;
  const wanted = Math.ceil(labels.size / Math.max(1, expect.shardSize));
  if (shardCount * 2 < wanted)
    throw new VectorGraphFileError(
      dir,
      `${shardCount} shard(s) for ${labels.size} vectors, ${wanted} expected`,
    );
  const livePerShard = new Array<number>(shardCount).fill(0);
  for (let label = 0; label < parts.length; label++)
    if (parts[label] !== 255) livePerShard[label % shardCount]! += 1;
  const shards = m.main.files.map((file, i) => {
    if (m.main.live[i] !== livePerShard[i])
      throw new VectorGraphFileError(
        dir,
        `shard ${i} holds ${m.main.live[i]} vectors for ${livePerShard[i]} keys`,
      );
    return open(file, livePerShard[i]!);
  });
  const types = m.types.map((t, i) => {
    if (t.live !== livePerPart[i])
      throw new VectorGraphFileError(dir, `${t.type}: ${t.live} vectors, ${livePerPart[i]} labels`);
    return { type: t.type, live: t.live, side: t.side ? open(t.side, t.live) : null };
  });
  return { labels, shards, types };
}
