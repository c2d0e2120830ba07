// The embedded index's per-owner memory indexes: a large owner's entity vectors in an HNSW graph
// (vector-graph.ts), search text in a BM25 inverted index (keyword-index.ts) and hits' display
// fields, kept in step with every write. On the owner's first query (or in the background at open,
// for owners with a snapshot) it is loaded from its last snapshot (memory-snapshots.ts) and reconciled
// with the table, or else built from the table. The table answers meanwhile, and whenever a query
// needs a filter they cannot apply.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Table } from '@lancedb/lancedb';
import type { RecordBatch } from 'apache-arrow';
import type { Logger } from '@kaboodle/platform';
import { sqlString, sqlStringList } from './lance-filter.ts';
import { OwnerDisplayRows } from './display-rows.ts';
import { OwnerKeywordIndex } from './keyword-index.ts';
import { displayRow, HIT_COLUMNS, listOf } from './lancedb-rows.ts';
import type { Row } from './lancedb-rows.ts';
import { scanEntities, SnapshotRejected } from './memory-snapshots.ts';
import type { SaveHooks, SnapshotEntities, SnapshotStore } from './memory-snapshots.ts';
import { OwnerVectorGraph, type VectorGraphSettings } from './vector-graph.ts';

export interface MemoryIndexOptions extends VectorGraphSettings {
  minOwnerRows?: number;
  maxVectors?: number;
  /** Tests: a query waits for the owner's in-memory index instead of using the table while it is built. */
  waitForBuild?: boolean;
  /** The build yields to the event loop after this long (default 8 ms), so requests keep flowing. */
  sliceMs?: number;
  /**
   * Save each owner's memory index after its build and at close, and load it on the next start
   * instead of building it again (default true; memory-snapshots.ts).
   */
  snapshots?: boolean;
  /** Tests and benches: told when a save takes its parts and as each part is written (it waits). */
  snapshotHooks?: SaveHooks;
}

export interface OwnerMemory {
  graph: OwnerVectorGraph;
  words: OwnerKeywordIndex;
  /** The hits' display fields by key (HIT_COLUMNS), so a query never reads the table. */
  rows: OwnerDisplayRows;
  /** Keys written since the build or load began (its older rows must not overwrite them). */
  touched: Set<string>;
  /** Writes that arrive while the snapshot's parts are read from disk, applied once they are in. */
  pending: Map<string, Row>;
  /** Written to since its last snapshot (close saves only these). */
  dirty: boolean;
  /**
   * While a snapshot is saved: the keys written since its entity list was scanned, with the version
   * the parts hold (NaN once they were written after the parts were taken) and whether deleted.
   */
  writtenSince?: Map<string, { version: number; deleted: boolean }> | undefined;
  /** Whether the snapshot being saved has taken its parts. */
  frozen?: boolean;
  state: 'loading' | 'building' | 'ready';
}

export interface MemoryIndexes {
  /** Off entirely (`memoryIndex: false`). */
  readonly enabled: boolean;
  /** Benches: answer from the table although memory indexes exist (false), or from them again (true). */
  inUse: boolean;
  /**
   * The owner's memory index when it is ready; otherwise starts its build (when the owner is big
   * enough and there is room) and answers undefined, so the caller uses the table meanwhile.
   */
  forQuery(ownerId: string, liveRows: number): Promise<OwnerMemory | undefined>;
  /** The owner's ready memory index for display rows (undefined when not in use). */
  readyFor(ownerId: string): OwnerMemory | undefined;
  /** Rows the table has just taken: the owners' memory indexes follow (a tombstone removes the entity). */
  applyWrite(rows: Row[]): void;
  dropOwner(ownerId: string): void;
  /** Removes the owner's snapshot from disk (the owner's data is being deleted). */
  discardSnapshot(ownerId: string): Promise<void>;
  /** Loads, in the background, the owners that have a snapshot and enough rows (called after open). */
  restoreAtOpen(liveRowsOf: (ownerId: string) => Promise<number>): void;
  /** Saves every ready owner written to since its last snapshot, after any save under way (close). */
  saveAll(): Promise<void>;
  /** Resolves when the snapshots started so far are written (tests, benches). */
  snapshotsSaved(): Promise<void>;
  clear(): void;
  /** Build (or wait for) the owner's memory index; false when it gets none (too small, off or full). */
  awaitBuild(ownerId: string, liveRows: number): Promise<boolean>;
  setEf(ef: number): void;
  counts(): { owners: number; vectors: number; building: number };
}

export function createMemoryIndexes(options: {
  settings: MemoryIndexOptions | undefined;
  dims: number;
  table(): Table;
  log: Logger | undefined;
  /** The owners' live memory files go under here (one directory per owner; display-rows.ts). */
  dir: string;
  /** Where snapshots are saved and loaded (none: always built from the table). */
  snapshots?: SnapshotStore | undefined;
}): MemoryIndexes {
  const store = options.snapshots;
  const { settings, dims, log } = options;
  const minOwnerRows = settings?.minOwnerRows ?? 5_000;
  const maxVectors = settings?.maxVectors ?? 1_000_000;
  const sliceMs = settings?.sliceMs ?? 8;
  const retryMs = 60_000;
  // The owners' memory indexes, their builds under way, and when a build last failed.
  const graphs = new Map<string, OwnerMemory>();
  const builds = new Map<string, Promise<void>>();
  const failedAt = new Map<string, number>();
  // Saves run one after another (two saves of one owner must not remove each other's generation).
  let saving: Promise<void> = Promise.resolve();

  function vectorCount(): number {
    let n = 0;
    for (const g of graphs.values()) n += g.words.size;
    return n;
  }

  const ownerDir = (ownerId: string) =>
    path.join(options.dir, createHash('sha256').update(ownerId).digest('hex').slice(0, 32));
  /** A memory index dropped or replaced: its parts' files and timers go. */
  function release(mem: OwnerMemory | undefined): void {
    mem?.words.close();
    mem?.rows.close();
  }

  function newMemory(ownerId: string, liveRows: number, state: OwnerMemory['state']): OwnerMemory {
    return {
      // the owner's size sets the graph's shards, also for a build after a refused snapshot
      graph: new OwnerVectorGraph(dims, settings ?? {}, liveRows + 64),
      words: new OwnerKeywordIndex(),
      rows: new OwnerDisplayRows(ownerDir(ownerId)),
      touched: new Set(),
      pending: new Map(),
      // a build's index has never been saved; a loaded one is its snapshot until written to
      dirty: state !== 'loading',
      state,
    };
  }

  /** Loads the owner's snapshot, or else builds from the table; the table answers meanwhile. */
  function startLoad(ownerId: string, liveRows: number): void {
    const mem = newMemory(ownerId, liveRows, store ? 'loading' : 'building');
    graphs.set(ownerId, mem);
    const load = (async () => {
      try {
        if (store && (await restore(ownerId, mem))) return;
        if (graphs.get(ownerId) !== mem) return;
        if (mem.state === 'loading') {
          // no usable snapshot: today's build, with the writes that came meanwhile already in
          release(mem);
          const fresh = newMemory(ownerId, liveRows, 'building');
          graphs.set(ownerId, fresh);
          for (const r of mem.pending.values()) applyRow(fresh, r);
          await build(ownerId, fresh);
        } else {
          await build(ownerId, mem);
        }
      } catch (err) {
        // nothing a load meets may end the process: the owner stays on the table, retried later
        if (graphs.get(ownerId) === mem) graphs.delete(ownerId);
        failedAt.set(ownerId, Date.now());
        log?.warn({ err }, 'search index: loading an in-memory index failed; the table answers');
      } finally {
        builds.delete(ownerId);
      }
    })();
    builds.set(ownerId, load);
  }

  /** A build or a snapshot's load and reconcile is complete: from now on the memory index answers. */
  function markOwnerReady(ownerId: string, mem: OwnerMemory): void {
    mem.graph.markReady();
    mem.words.markReady();
    mem.touched.clear();
    mem.state = 'ready';
    failedAt.delete(ownerId);
  }

  async function build(ownerId: string, graph: OwnerMemory): Promise<void> {
    const started = performance.now();
    try {
      const q = options
        .table()
        .query()
        .where(`deleted = false AND owner_id = ${sqlString(ownerId)}`)
        .select([...HIT_COLUMNS, 'vector', 'search_text']);
      let slice = performance.now();
      for await (const batch of q) {
        for (let i = 0; i < batch.numRows; i++) {
          // dropped meanwhile (owner deleted, index closed): stop quietly
          if (graphs.get(ownerId) !== graph) return;
          const r = batchRow(batch, i);
          if (r.vector) graph.graph.load(r.key, r.type, r.vector);
          graph.words.load(r.key, r.type, r.text, r.lead);
          if (!graph.touched.has(r.key)) graph.rows.set(r.key, r.display);
          if (performance.now() - slice > sliceMs) {
            await new Promise<void>((r) => setImmediate(r));
            slice = performance.now();
          }
        }
      }
      if (graphs.get(ownerId) !== graph) return;
      markOwnerReady(ownerId, graph);
      log?.info(
        { entities: graph.words.size, ms: Math.round(performance.now() - started) },
        'search index: built an owner’s in-memory index',
      );
      void saveSnapshot(ownerId, graph);
    } catch (err) {
      release(graph);
      if (graphs.get(ownerId) === graph) graphs.delete(ownerId);
      failedAt.set(ownerId, Date.now());
      log?.warn({ err }, 'search index: building an in-memory index failed; the table answers');
    }
  }

  /**
   * The owner's snapshot, reconciled with the table: true when the memory index is ready from it,
   * false when there is none or it was unusable (discarded; the caller builds instead).
   */
  async function restore(ownerId: string, mem: OwnerMemory): Promise<boolean> {
    const started = performance.now();
    let loaded;
    try {
      loaded = await store!.load(ownerId, settings ?? {}, ownerDir(ownerId));
    } catch (err) {
      log?.warn(
        { err: err instanceof SnapshotRejected ? err.message : err },
        'search index: an in-memory index snapshot was unusable and is discarded; building from the table',
      );
      await store!.discard(ownerId).catch(() => {});
      return false;
    }
    if (!loaded) return false;
    if (graphs.get(ownerId) !== mem) {
      release({ ...mem, words: loaded.parts.words, rows: loaded.parts.rows });
      return false;
    }
    release(mem);
    mem.graph = loaded.parts.graph;
    mem.words = loaded.parts.words;
    mem.rows = loaded.parts.rows;
    mem.state = 'building';
    // Writes that came while the parts were read are newer than the snapshot: in they go, and they win.
    for (const r of mem.pending.values()) applyRow(mem, r);
    mem.pending.clear();
    const loadedMs = performance.now() - started;
    try {
      const changed = await reconcile(ownerId, mem, loaded.entities);
      if (graphs.get(ownerId) !== mem) return true;
      markOwnerReady(ownerId, mem);
      log?.info(
        {
          entities: mem.words.size,
          ...changed,
          bytes: loaded.bytes,
          loadMs: Math.round(loadedMs),
          ms: Math.round(performance.now() - started),
          steps: Object.fromEntries(Object.entries(loaded.timings).map(([k, v]) => [k, Math.round(v)])),
        },
        'search index: loaded an owner’s in-memory index from its snapshot',
      );
      if (changed.applied + changed.removed > 0) void saveSnapshot(ownerId, mem);
      return true;
    } catch (err) {
      release(mem);
      if (graphs.get(ownerId) === mem) graphs.delete(ownerId);
      failedAt.set(ownerId, Date.now());
      log?.warn({ err }, 'search index: reconciling an in-memory index snapshot failed; the table answers');
      return true;
    }
  }

  /**
   * Brings a loaded snapshot up to the table: the owner's `key, version, deleted` columns are compared
   * with the snapshot's list; rows it lacks or holds at another version are read in full (in batches)
   * and applied, entities deleted or gone since are removed. Keys written meanwhile are left alone.
   */
  async function reconcile(
    ownerId: string,
    mem: OwnerMemory,
    saved: { keys: string[]; versions: Float64Array; deleted: Uint8Array },
  ): Promise<{ applied: number; removed: number; scanMs: number; applyMs: number }> {
    // (a million entities take a while to compare: the loop gets a turn every slice)
    let slice = performance.now();
    const breathe = async () => {
      if (performance.now() - slice > sliceMs) {
        await new Promise<void>((r) => setImmediate(r));
        slice = performance.now();
      }
    };
    const snap = new Map<string, number>();
    for (let i = 0; i < saved.keys.length; i++) {
      if (!saved.deleted[i]) snap.set(saved.keys[i]!, saved.versions[i]!);
      if ((i & 1_023) === 0) await breathe();
    }
    const scanStart = performance.now();
    const now = await scanEntities(options.table(), ownerId, sliceMs);
    const scanMs = Math.round(performance.now() - scanStart);
    let applyMs = 0;
    const fetch: string[] = [];
    const remove: string[] = [];
    for (let i = 0; i < now.keys.length; i++) {
      if ((i & 1_023) === 0) await breathe();
      const key = now.keys[i]!;
      const was = snap.get(key);
      snap.delete(key);
      if (now.deleted[i]) {
        if (was !== undefined) remove.push(key);
      } else if (was !== now.versions[i]) fetch.push(key);
    }
    // live in the snapshot, not in the table at all any more (its tombstone expired meanwhile)
    for (const key of snap.keys()) remove.push(key);
    let removed = 0;
    for (const key of remove) {
      if (mem.touched.has(key)) continue;
      mem.graph.remove(key);
      mem.words.remove(key);
      mem.rows.delete(key);
      removed += 1;
    }
    let applied = 0;
    for (let from = 0; from < fetch.length; from += 500) {
      const q = options
        .table()
        .query()
        .where(
          `deleted = false AND owner_id = ${sqlString(ownerId)} AND key IN (${sqlStringList(fetch.slice(from, from + 500))})`,
        )
        .select([...HIT_COLUMNS, 'vector', 'search_text']);
      for await (const batch of q) {
        if (graphs.get(ownerId) !== mem) return { applied, removed, scanMs, applyMs };
        for (let i = 0; i < batch.numRows; i++) {
          const r = batchRow(batch, i);
          if (mem.touched.has(r.key)) continue;
          // (replacing a vector in the graph repairs its neighbours: milliseconds each, so slices)
          const t = performance.now();
          mem.graph.applyWrite(r.key, r.type, r.vector);
          mem.words.applyWrite(r.key, r.type, r.text, r.lead);
          mem.rows.set(r.key, r.display);
          applyMs += performance.now() - t;
          applied += 1;
          await breathe();
        }
      }
    }
    if (applied + removed > 0) mem.dirty = true;
    return { applied, removed, scanMs, applyMs: Math.round(applyMs) };
  }

  /**
   * Queues a snapshot of the owner's ready memory index, taken while writes go on (no barrier). The
   * entity list (key → version, deleted) is scanned from the table first, then the parts are taken:
   * the keys written meanwhile are in the parts, and the list takes their versions from the writes.
   * Keys written after the parts were taken are marked unknown in the list (NaN), so the reconcile
   * on load always fetches them again: among them, a write the scan saw whose memory update came
   * after the parts (the memory index follows the table a tick later). Writes the scan did not see
   * are newer than the list, so the reconcile fetches them anyway.
   */
  function saveSnapshot(ownerId: string, mem: OwnerMemory): Promise<void> {
    if (!store) return Promise.resolve();
    const hooks = settings?.snapshotHooks;
    saving = saving.then(async () => {
      if (graphs.get(ownerId) !== mem || mem.state !== 'ready') return;
      const written = new Map<string, { version: number; deleted: boolean }>();
      try {
        const started = performance.now();
        mem.writtenSince = written;
        mem.frozen = false;
        const scanned = await scanEntities(options.table(), ownerId, sliceMs);
        const scanMs = performance.now() - started;
        if (graphs.get(ownerId) !== mem) return;
        let during = 0;
        const { bytes, timings } = await store.save(
          ownerId,
          { graph: mem.graph, words: mem.words, rows: mem.rows },
          async () => {
            mem.writtenSince = undefined;
            for (const w of written.values()) if (Number.isNaN(w.version)) during += 1;
            return withWrites(scanned, written);
          },
          {
            frozen() {
              mem.frozen = true;
              mem.dirty = false;
              hooks?.frozen?.();
            },
            written: (part) => hooks?.written?.(part) ?? Promise.resolve(),
          },
        );
        log?.info(
          {
            entities: mem.words.size,
            bytes,
            scanMs: Math.round(scanMs),
            ...Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, Math.round(v)])),
            writesDuring: during,
            ms: Math.round(performance.now() - started),
          },
          'search index: saved an owner’s in-memory index snapshot',
        );
      } catch (err) {
        mem.dirty = true;
        log?.warn(
          { err },
          'search index: saving an in-memory index snapshot failed; the next start loads the previous one (or builds)',
        );
      } finally {
        if (mem.writtenSince === written) mem.writtenSince = undefined;
        mem.frozen = false;
      }
    });
    return saving;
  }

  /** The scanned entity list with the writes made since the scan (see saveSnapshot). */
  async function withWrites(
    list: SnapshotEntities,
    written: Map<string, { version: number; deleted: boolean }>,
  ): Promise<SnapshotEntities> {
    if (written.size === 0) return list;
    const left = new Map(written);
    let slice = performance.now();
    for (let i = 0; i < list.keys.length && left.size > 0; i++) {
      const w = left.get(list.keys[i]!);
      if (w) {
        list.versions[i] = w.version;
        list.deleted[i] = w.deleted ? 1 : 0;
        left.delete(list.keys[i]!);
      }
      if ((i & 1_023) === 0 && performance.now() - slice > sliceMs) {
        await new Promise<void>((r) => setImmediate(r));
        slice = performance.now();
      }
    }
    if (left.size === 0) return list;
    const n = list.keys.length;
    const versions = new Float64Array(n + left.size);
    versions.set(list.versions);
    const deleted = new Uint8Array(n + left.size);
    deleted.set(list.deleted);
    let i = n;
    for (const w of left.values()) {
      versions[i] = w.version;
      deleted[i++] = w.deleted ? 1 : 0;
    }
    return { keys: [...list.keys, ...left.keys()], versions, deleted };
  }

  function applyRow(mem: OwnerMemory, r: Row): void {
    mem.graph.applyWrite(r.key, r.entity_type, r.deleted ? null : r.vector);
    mem.words.applyWrite(r.key, r.entity_type, r.deleted ? null : r.search_text, r.content_head);
    if (r.deleted) mem.rows.delete(r.key);
    else mem.rows.set(r.key, displayRow(r));
  }

  const indexes: MemoryIndexes = {
    enabled: settings !== undefined,
    inUse: true,
    async forQuery(ownerId, liveRows) {
      if (!settings || !indexes.inUse || liveRows <= minOwnerRows) return undefined;
      const graph = graphs.get(ownerId);
      if (graph?.state === 'ready') return graph;
      if (!graph) {
        const failed = failedAt.get(ownerId);
        if (failed !== undefined && Date.now() - failed < retryMs) return undefined;
        if (vectorCount() + liveRows > maxVectors) return undefined;
        startLoad(ownerId, liveRows);
      }
      if (!settings.waitForBuild) return undefined;
      await builds.get(ownerId);
      const built = graphs.get(ownerId);
      return built?.state === 'ready' ? built : undefined;
    },
    readyFor(ownerId) {
      const mem = indexes.inUse ? graphs.get(ownerId) : undefined;
      return mem?.state === 'ready' ? mem : undefined;
    },
    applyWrite(rows) {
      for (const r of rows) {
        const mem = graphs.get(r.owner_id);
        if (!mem) continue;
        mem.dirty = true;
        // (after the parts were taken: unknown, and listed as live so that a deletion is applied too)
        mem.writtenSince?.set(
          r.key,
          mem.frozen
            ? { version: Number.NaN, deleted: false }
            : { version: Number(r.version), deleted: r.deleted },
        );
        if (mem.state !== 'ready') mem.touched.add(r.key);
        if (mem.state === 'loading') mem.pending.set(r.key, r);
        else applyRow(mem, r);
      }
    },
    dropOwner(ownerId) {
      release(graphs.get(ownerId));
      graphs.delete(ownerId);
    },
    async discardSnapshot(ownerId) {
      // A save under way (saves take no barrier) finishes first, or it would write the dropped owner's
      // snapshot after this; one queued meanwhile finds the owner dropped and writes nothing.
      await saving;
      await store?.discard(ownerId);
    },
    restoreAtOpen(liveRowsOf) {
      if (!store || !settings) return;
      void (async () => {
        for (const ownerId of await store.owners()) {
          if (graphs.has(ownerId)) continue;
          const live = await liveRowsOf(ownerId);
          // (a first query may have started its load meanwhile)
          if (graphs.has(ownerId)) continue;
          // an owner who has become small again is answered by the table: their snapshot goes
          if (live <= minOwnerRows) await store.discard(ownerId);
          if (live <= minOwnerRows || vectorCount() + live > maxVectors) continue;
          startLoad(ownerId, live);
          await builds.get(ownerId);
        }
      })().catch((err: unknown) => {
        log?.warn(
          { err },
          'search index: loading in-memory index snapshots at open failed; first queries load them',
        );
      });
    },
    async saveAll() {
      for (const [ownerId, mem] of graphs)
        if (mem.state === 'ready' && mem.dirty) void saveSnapshot(ownerId, mem);
      await saving;
    },
    snapshotsSaved: () => saving,
    clear() {
      for (const mem of graphs.values()) release(mem);
      graphs.clear();
    },
    async awaitBuild(ownerId, liveRows) {
      if (!settings || liveRows <= minOwnerRows) return false;
      if (!graphs.has(ownerId) && vectorCount() + liveRows <= maxVectors) startLoad(ownerId, liveRows);
      await builds.get(ownerId);
      return graphs.get(ownerId)?.state === 'ready';
    },
    setEf(ef) {
      for (const m of graphs.values()) m.graph.ef = ef;
    },
    counts: () => ({ owners: graphs.size, vectors: vectorCount(), building: builds.size }),
  };
  return indexes;
}

/** One row of a build's or reconcile's batch, as the memory index's parts take it. */
function batchRow(batch: RecordBatch, i: number) {
  const v = batch.getChild('vector')?.get(i) as { toArray(): Float32Array } | null;
  const display: Record<string, unknown> = {};
  for (const c of HIT_COLUMNS) {
    const value: unknown = batch.getChild(c)?.get(i);
    // lists as plain arrays: an Arrow vector would keep the whole batch's buffers alive (and cannot be saved)
    display[c] = value !== null && typeof value === 'object' ? listOf<unknown>(value) : value;
  }
  return {
    key: String(batch.getChild('key')?.get(i)),
    type: String(batch.getChild('entity_type')?.get(i)),
    vector: v ? v.toArray() : null,
    text: String(batch.getChild('search_text')?.get(i) ?? ''),
    lead: String(batch.getChild('content_head')?.get(i) ?? ''),
    display,
  };
}

/**
 * Category, tag and kaboodle filters are the table's job; owner, type and excluded keys the memory
 * index can do. (A kaboodle holds at most a few thousand entities: an exact scan of them is quick.)
 */
export function memoryCanFilter(f: {
  category?: string | undefined;
  hashtags?: string[] | undefined;
  only?: unknown[] | undefined;
}): boolean {
  return (f.category === undefined || f.category === '') && (f.hashtags ?? []).length === 0 && !f.only;
}
