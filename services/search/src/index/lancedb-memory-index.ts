// The embedded index's per-owner memory indexes: a large owner's entity vectors in an HNSW graph
// (vector-graph.ts), search text in a BM25 inverted index (keyword-index.ts) and hits' display
// fields, built in the background from the table on the owner's first query and kept in step with
// every write. The table answers meanwhile, and whenever a query needs a filter they cannot apply.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Table } from '@lancedb/lancedb';
import type { Logger } from '@kaboodle/platform';
import { sqlString } from './lance-filter.ts';
import { OwnerDisplayRows } from './display-rows.ts';
import { OwnerKeywordIndex } from './keyword-index.ts';
import { displayRow, HIT_COLUMNS } from './lancedb-rows.ts';
import type { Row } from './lancedb-rows.ts';
import { OwnerVectorGraph, type VectorGraphSettings } from './vector-graph.ts';

export interface MemoryIndexOptions extends VectorGraphSettings {
  minOwnerRows?: number;
  maxVectors?: number;
  /** Tests: a query waits for the owner's in-memory index instead of using the table while it is built. */
  waitForBuild?: boolean;
  /** The build yields to the event loop after this long (default 8 ms), so requests keep flowing. */
  sliceMs?: number;
}

export interface OwnerMemory {
  graph: OwnerVectorGraph;
  words: OwnerKeywordIndex;
  /** The hits' display fields by key (HIT_COLUMNS), so a query never reads the table (on disk: display-rows.ts). */
  rows: OwnerDisplayRows;
  /** Keys written since the build began (the builder's older snapshot rows must not overwrite them). */
  touched: Set<string>;
  state: 'building' | 'ready';
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
  /** The owners' memory files go under here (one directory per owner). */
  dir: string;
}): MemoryIndexes {
  const { settings, dims, log } = options;
  const minOwnerRows = settings?.minOwnerRows ?? 5_000;
  const maxVectors = settings?.maxVectors ?? 200_000;
  const sliceMs = settings?.sliceMs ?? 8;
  const retryMs = 60_000;
  // The owners' memory indexes, their builds under way, and when a build last failed.
  const graphs = new Map<string, OwnerMemory>();
  const builds = new Map<string, Promise<void>>();
  const failedAt = new Map<string, number>();

  function vectorCount(): number {
    let n = 0;
    for (const g of graphs.values()) n += g.words.size;
    return n;
  }

  const ownerDir = (ownerId: string) =>
    path.join(options.dir, createHash('sha256').update(ownerId).digest('hex').slice(0, 32));
  function release(mem: OwnerMemory | undefined): void {
    mem?.words.close();
    mem?.rows.close();
  }

  function startBuild(ownerId: string, liveRows: number): void {
    const graph: OwnerMemory = {
      graph: new OwnerVectorGraph(dims, settings ?? {}, liveRows + 64),
      words: new OwnerKeywordIndex(),
      rows: new OwnerDisplayRows(ownerDir(ownerId)),
      touched: new Set(),
      state: 'building',
    };
    graphs.set(ownerId, graph);
    const build = (async () => {
      const started = performance.now();
      try {
        const q = options
          .table()
          .query()
          .where(`deleted = false AND owner_id = ${sqlString(ownerId)}`)
          .select([...HIT_COLUMNS, 'vector', 'search_text']);
        let slice = performance.now();
        for await (const batch of q) {
          const keys = batch.getChild('key');
          const types = batch.getChild('entity_type');
          const vectors = batch.getChild('vector');
          const texts = batch.getChild('search_text');
          const leads = batch.getChild('content_head');
          for (let i = 0; i < batch.numRows; i++) {
            // dropped meanwhile (owner deleted, index closed): stop quietly
            if (graphs.get(ownerId) !== graph) return;
            const key = String(keys?.get(i));
            const type = String(types?.get(i));
            const v = vectors?.get(i) as { toArray(): Float32Array } | null;
            if (v) graph.graph.load(key, type, v.toArray());
            graph.words.load(key, type, String(texts?.get(i) ?? ''), String(leads?.get(i) ?? ''));
            if (!graph.touched.has(key)) {
              const row: Record<string, unknown> = {};
              for (const c of HIT_COLUMNS) row[c] = batch.getChild(c)?.get(i);
              graph.rows.set(key, row);
            }
            if (performance.now() - slice > sliceMs) {
              await new Promise<void>((r) => setImmediate(r));
              slice = performance.now();
            }
          }
        }
        if (graphs.get(ownerId) !== graph) return;
        graph.graph.markReady();
        graph.words.markReady();
        graph.touched.clear();
        graph.state = 'ready';
        failedAt.delete(ownerId);
        log?.info(
          { entities: graph.words.size, ms: Math.round(performance.now() - started) },
          'search index: built an owner’s in-memory index',
        );
      } catch (err) {
        if (graphs.get(ownerId) === graph) graphs.delete(ownerId);
        release(graph);
        failedAt.set(ownerId, Date.now());
        log?.warn({ err }, 'search index: building an in-memory index failed; the table answers');
      } finally {
        builds.delete(ownerId);
      }
    })();
    builds.set(ownerId, build);
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
        startBuild(ownerId, liveRows);
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
        mem.graph.applyWrite(r.key, r.entity_type, r.deleted ? null : r.vector);
        mem.words.applyWrite(r.key, r.entity_type, r.deleted ? null : r.search_text, r.content_head);
        if (mem.state === 'building') mem.touched.add(r.key);
        if (r.deleted) mem.rows.delete(r.key);
        else mem.rows.set(r.key, displayRow(r));
      }
    },
    dropOwner(ownerId) {
      release(graphs.get(ownerId));
      graphs.delete(ownerId);
    },
    clear() {
      for (const mem of graphs.values()) release(mem);
      graphs.clear();
    },
    async awaitBuild(ownerId, liveRows) {
      if (!settings || liveRows <= minOwnerRows) return false;
      if (!graphs.has(ownerId) && vectorCount() + liveRows <= maxVectors) startBuild(ownerId, liveRows);
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
