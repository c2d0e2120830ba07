// The embedded search index: one LanceDB table in a folder (KABOODLE_DATA_DIR/search), with a BM25
// full-text index over the searchable text, cosine kNN over the entity vectors (flat scan while small,
// IVF_FLAT once big enough, HNSW-SQ on request) and hybrid = the learned fusion of the two
// (search-scoring.ts, docs/adr/0004-learned-hybrid-fusion.md). Layout, scoring and the
// version guard are described in docs/services/search.md ("Embedded index").
//
// This file composes the parts: row mapping (lancedb-rows.ts), the single writer
// (lancedb-write-queue.ts), table upkeep (lancedb-maintenance.ts), the per-owner memory indexes
// (lancedb-memory-index.ts), the hit-row cache (lancedb-hit-cache.ts) and the reads
// (lancedb-queries.ts, lancedb-reads.ts).
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import type { Connection, Table } from '@lancedb/lancedb';
import { wrapError } from '@kaboodle/platform';
import type { Logger } from '@kaboodle/platform';
import { entityFilter, sqlString, sqlStringList } from './lance-filter.ts';
import type { IndexStats, SearchIndex, UpsertOutcome } from './search-index.port.ts';
import { createLanceDbKaboodleIndex } from './lancedb-kaboodle-index.ts';
import { HitRowCache } from './lancedb-hit-cache.ts';
import { checkVectorSize, createMaintenance, ensureIndices } from './lancedb-maintenance.ts';
import { createMemoryIndexes } from './lancedb-memory-index.ts';
import type { MemoryIndexOptions } from './lancedb-memory-index.ts';
import { createSnapshotStore } from './memory-snapshots.ts';
import { createLanceQueries } from './lancedb-queries.ts';
import { indexStats, listLiveEntities, versionOfEntity } from './lancedb-reads.ts';
import { createRowMapper, entitySchema } from './lancedb-rows.ts';
import type { Row } from './lancedb-rows.ts';
import { WriteQueue } from './lancedb-write-queue.ts';
import { OwnerRowCounts } from './owner-row-counts.ts';

export { entityKey, HIT_COLUMNS } from './lancedb-rows.ts';
export type { MemoryIndexOptions } from './lancedb-memory-index.ts';

export interface AnnOptions {
  kind?: 'ivf-flat' | 'hnsw-sq';
  /** IVF partitions (both kinds; default √rows for IVF_FLAT, 1 for HNSW-SQ). */
  numPartitions?: number;
  /** IVF_FLAT: partitions searched per query (default 20). */
  nprobes?: number;
  /** HNSW-SQ build and search (defaults 20, 300, 100, refineFactor 2). */
  m?: number;
  efConstruction?: number;
  ef?: number;
  refineFactor?: number;
}

export interface LanceDbSearchIndexOptions {
  /** Folder holding the table (created when missing), e.g. `${KABOODLE_DATA_DIR}/search`. */
  dir: string;
  /** Vector length of the embedder (USE-lite: 512). An existing table with another length is refused. */
  dimensions: number;
  /** The embedder's model: memory-index snapshots of another model (or length) are not loaded. */
  model?: string;
  /** Table name (SEARCH_INDEX_NAME). */
  table?: string;
  /** Live rows before the ANN index is built; below it a flat scan is exact and fast (default 5,000). */
  annMinRows?: number;
  /** An owner with at most this many live rows is searched by exact flat scan even with an ANN index. */
  flatMaxOwnerRows?: number;
  /**
   * The ANN index and its search settings (the bench prints and compares them). Default IVF_FLAT:
   * on 100k USE-lite vectors here it builds in ~8 s with recall@10 0.998 at nprobes 20, where
   * HNSW-SQ took 120 s and reached 0.92 at best (docs/benchmarks/2026-11-22-search-index.md).
   */
  ann?: AnnOptions;
  /** Rows per write (concurrent upserts coalesce up to this). */
  maxBatchRows?: number;
  /** Queued rows beyond which upsert()/delete() wait before queueing more (back-pressure). */
  maxQueuedRows?: number;
  /** Compact and refresh indices after this many writes, or this many rows, or this long when dirty. */
  optimizeEveryWrites?: number;
  optimizeEveryRows?: number;
  optimizeIntervalMs?: number;
  /**
   * Tombstones (deleted entities' versions) are dropped after this long (default 7 days): long after
   * any redelivered older event could arrive, and they would otherwise pile up forever.
   */
  tombstoneTtlMs?: number;
  /** Hybrid: run kNN and BM25 at once (default) or one after the other (the bench compares both). */
  parallelStages?: boolean;
  /** Old table versions are pruned once older than this (readers mid-query still use them; default 60 s). */
  retainVersionsMs?: number;
  /** Characters of extracted text kept for keyword search (long documents are cut here). */
  maxSearchTextChars?: number;
  /**
   * Hits' display fields kept in memory (least recently used dropped first; default 20,000 rows,
   * ~1 KB each; 0 turns it off). kNN and BM25 then ask the engine for keys and scores only, and only
   * the final page's rows not in memory are read: reading the display columns of every candidate
   * was half of a keyword query's time. Every write of an entity drops its row.
   */
  hitCacheRows?: number;
  /**
   * Owners with more live rows than `minOwnerRows` (default 5,000) get an in-memory index: their
   * entity vectors in an HNSW graph (usearch, f16) and their search text in a BM25 inverted index,
   * built in the background from the table on their first query and kept in step with every write.
   * The table's own kNN and full-text search answer until it is ready, and for queries filtered by
   * category or hashtags. At most `maxVectors` entities (default 200,000, ~7 KB each at 512
   * dimensions) are held over all owners. `false` turns it off. Each is saved to a snapshot under
   * `dir`/memory-snapshots after its build and at close, and on the next start loaded in the
   * background and reconciled with the table instead of built again (memory-snapshots.ts).
   */
  memoryIndex?: false | MemoryIndexOptions;
  logger?: Logger;
}

export function createLanceDbSearchIndex(options: LanceDbSearchIndexOptions): SearchIndex & {
  /** Run compaction + index refresh now (also creates the ANN index when big enough). */
  optimize(): Promise<void>;
  /** Whether an ANN index exists on the vectors. */
  hasAnnIndex(): Promise<boolean>;
  /** Exact kNN (flat scan), bypassing the ANN index: the bench's recall reference. */
  exactKnn(ownerId: string, vector: Float32Array, k: number): Promise<string[]>;
  /** The ANN settings for a table of that many rows (kind, partitions, search parameters). */
  annSettings(rows: number): Record<string, string | number>;
  /** Per-stage timings of the last search() call (ms), for the bench. */
  lastTimings(): Record<string, number>;
  /** The display-row cache: rows held, and rows served from it or read since opening. */
  hitCache(): { rows: number; hits: number; misses: number };
  /** In-memory indexes: owners with one, entities held, builds under way. */
  memoryIndexes(): { owners: number; vectors: number; building: number };
  /** Build (or wait for) the owner's in-memory index; false when it gets none (too small, off or full). */
  awaitMemoryIndex(ownerId: string): Promise<boolean>;
  /** Benches: answer from the table although in-memory indexes exist (false), or from them again (true). */
  useMemoryIndexes(on: boolean): void;
  /** Benches: the vector graphs' search candidate list (ef) from now on, for a recall sweep on one build. */
  setMemoryIndexEf(ef: number): void;
  /** Resolves once the memory-index snapshots started so far are on disk (tests, benches). */
  memorySnapshotsSaved(): Promise<void>;
} {
  const dims = options.dimensions;
  if (!Number.isInteger(dims) || dims < 1) throw new Error('dimensions must be a positive integer');
  const tableName = options.table ?? 'kaboodle-entities';
  const annKind = options.ann?.kind ?? 'ivf-flat';
  const ann = {
    nprobes: options.ann?.nprobes ?? 20,
    m: options.ann?.m ?? 20,
    efConstruction: options.ann?.efConstruction ?? 300,
    ef: options.ann?.ef ?? 100,
    refineFactor: options.ann?.refineFactor ?? (annKind === 'hnsw-sq' ? 2 : 1),
  };
  const optimizeIntervalMs = options.optimizeIntervalMs ?? 60_000;
  const retainVersionsMs = options.retainVersionsMs ?? 60_000;
  const tombstoneTtlMs = options.tombstoneTtlMs ?? 7 * 24 * 3_600_000;
  const log = options.logger;
  const schema = entitySchema(dims);
  const rowMapper = createRowMapper(dims, options.maxSearchTextChars ?? 100_000);

  let db: Connection | undefined;
  let table: Table | undefined;
  let opening: Promise<void> | undefined;
  let closed = false;
  let optimizeTimer: NodeJS.Timeout | undefined;
  // Live rows per owner (flat scan or ANN, memory index or table): counted once, moved by writes.
  const ownerRows = new OwnerRowCounts((ownerId) =>
    t().countRows(`deleted = false AND owner_id = ${sqlString(ownerId)}`),
  );

  function t(): Table {
    if (!table) throw new Error('the search index is not open (call open() first)');
    return table;
  }

  const maintenance = createMaintenance({
    table: t,
    annMinRows: options.annMinRows ?? 5_000,
    annKind,
    ann,
    numPartitions: options.ann?.numPartitions,
    tombstoneTtlMs,
    retainVersionsMs,
    optimizeEveryWrites: options.optimizeEveryWrites ?? 50,
    optimizeEveryRows: options.optimizeEveryRows ?? 20_000,
    log,
  });
  // Hits' display fields, least recently used dropped first (see hitCacheRows above).
  const hitCache = new HitRowCache(Math.max(0, options.hitCacheRows ?? 20_000));
  const memorySettings = options.memoryIndex === false ? undefined : (options.memoryIndex ?? {});
  const memory = createMemoryIndexes({
    settings: memorySettings,
    dims,
    table: t,
    log,
    dir: path.join(options.dir, 'memory-indexes'),
    // one folder per table: a table holds one embedding space
    snapshots:
      memorySettings && memorySettings.snapshots !== false
        ? createSnapshotStore(path.join(options.dir, 'memory-snapshots', encodeURIComponent(tableName)), {
            dims,
            model: options.model ?? '',
          })
        : undefined,
  });
  // Kaboodle memberships: their own small table in the same folder (lancedb-kaboodle-index.ts).
  const kaboodles = createLanceDbKaboodleIndex({
    connection: () => {
      if (!db) throw new Error('the search index is not open (call open() first)');
      return db;
    },
    table: `${tableName}-kaboodles`,
    tombstoneTtlMs,
    retainVersionsMs,
    ...(log ? { logger: log } : {}),
  });
  const writer = new WriteQueue<Row>({
    maxBatchRows: options.maxBatchRows ?? 2_000,
    maxQueuedRows: options.maxQueuedRows ?? 20_000,
    applyBatch,
    afterBatch: () => (maintenance.due() ? maintainAfterWrites() : undefined),
  });
  const queries = createLanceQueries({
    table: t,
    dims,
    annKind,
    ann,
    annIndexed: maintenance.annIndexed,
    flatMaxOwnerRows: options.flatMaxOwnerRows ?? 5_000,
    parallelStages: options.parallelStages ?? true,
    liveRowsOf,
    memory,
    hitCache,
    checkVector: rowMapper.checkVector,
  });

  async function open(): Promise<void> {
    opening ??= (async () => {
      try {
        await mkdir(options.dir, { recursive: true });
        db = await lancedb.connect(options.dir);
        hitCache.forget('all');
        const names = await db.tableNames();
        if (names.includes(tableName)) {
          table = await db.openTable(tableName);
          await checkVectorSize(table, dims, `${tableName} in ${options.dir}`);
        } else {
          table = await db.createEmptyTable(tableName, schema, { existOk: true });
        }
        const hasAnnIndex = await ensureIndices(table);
        await kaboodles.open();
        await maintenance.opened(hasAnnIndex);
        optimizeTimer = setInterval(() => {
          if (maintenance.dirty()) void writer.barrier(maintenance.maintain).catch(() => {});
        }, optimizeIntervalMs);
        optimizeTimer.unref();
        // large owners' memory indexes from their snapshots, in the background: open() does not wait
        memory.restoreAtOpen(liveRowsOf);
      } catch (err) {
        opening = undefined;
        throw wrapError(`opening the search index in ${options.dir}`, err);
      }
    })();
    return opening;
  }

  // ---- writes --------------------------------------------------------------------------------

  async function writeRows(rows: Row[]): Promise<UpsertOutcome> {
    if (closed) throw new Error('the search index is closed');
    if (rows.length === 0) return { applied: 0, stale: 0 };
    t(); // fails fast when not open
    return writer.write(rows);
  }

  async function maintainAfterWrites(): Promise<void> {
    try {
      await maintenance.maintain();
    } catch (err) {
      log?.warn({ err }, 'search index maintenance failed; the next write retries');
    }
  }

  /**
   * The version guard, for a coalesced batch: the highest version per key wins inside the batch, a
   * row is written only when the stored version is lower (or there is none), and the merge itself
   * repeats the condition so nothing older ever overwrites newer data.
   */
  async function applyBatch(groups: Row[][]): Promise<UpsertOutcome[]> {
    const winner = new Map<string, Row>();
    for (const rows of groups) {
      for (const r of rows) {
        const w = winner.get(r.key);
        if (!w || r.version > w.version) winner.set(r.key, r);
      }
    }
    const keys = [...winner.keys()];
    const stored = new Map<string, bigint>();
    const storedLive = new Set<string>();
    if (keys.length > 0) {
      const found = (await t()
        .query()
        .where(`key IN (${sqlStringList(keys)})`)
        .select(['key', 'version', 'deleted'])
        .toArray()) as { key: string; version: bigint; deleted: boolean }[];
      for (const f of found) {
        stored.set(f.key, BigInt(f.version));
        if (!f.deleted) storedLive.add(f.key);
      }
    }
    const toWrite = [...winner.values()].filter((r) => {
      const s = stored.get(r.key);
      return s === undefined || s < r.version;
    });
    if (toWrite.length > 0) {
      const data = lancedb.makeArrowTable(
        toWrite.map((r) => ({ ...r, vector: Array.from(r.vector) })),
        { schema },
      );
      hitCache.forget(toWrite.map((r) => r.key));
      if (toWrite.every((r) => !stored.has(r.key))) {
        await t().add(data);
      } else {
        await t()
          .mergeInsert('key')
          .whenMatchedUpdateAll({ where: 'target.version < source.version' })
          .whenNotMatchedInsertAll()
          .execute(data);
      }
      maintenance.noteWrite(toWrite.length);
      for (const r of toWrite)
        ownerRows.moved(r.owner_id, (r.deleted ? 0 : 1) - (storedLive.has(r.key) ? 1 : 0));
      hitCache.forget(toWrite.map((r) => r.key));
      // The table has taken the rows: the owners' memory indexes follow (a tombstone removes the vector).
      memory.applyWrite(toWrite);
    }
    const written = new Set(toWrite);
    return groups.map((rows) => {
      let applied = 0;
      for (const r of rows) if (written.has(r)) applied++;
      return { applied, stale: rows.length - applied };
    });
  }

  // ---- reads ---------------------------------------------------------------------------------

  function liveRowsOf(ownerId: string): Promise<number> {
    return ownerRows.get(ownerId);
  }

  // An owner's stats read every row of the owner (their text's length): concurrent callers (a
  // dashboard open in many tabs) share one read rather than each scanning.
  const statsReads = new Map<string, Promise<IndexStats>>();
  function ownerStats(ownerId: string): Promise<IndexStats> {
    const running = statsReads.get(ownerId);
    if (running) return running;
    const read = indexStats(t(), { dir: options.dir, dims }, ownerId).finally(() =>
      statsReads.delete(ownerId),
    );
    statsReads.set(ownerId, read);
    return read;
  }

  async function deleteOwner(ownerId: string): Promise<void> {
    const lit = sqlString(ownerId);
    await writer.barrier(async () => {
      hitCache.forget('all');
      memory.dropOwner(ownerId);
      await t().delete(`owner_id = ${lit}`);
      await kaboodles.deleteOwner(ownerId);
      memory.dropOwner(ownerId);
      await memory.discardSnapshot(ownerId);
      ownerRows.forget(ownerId);
      hitCache.forget('all');
      maintenance.noteWrite(0);
    });
  }

  return {
    kind: 'lancedb',
    dimensions: dims,
    open,
    async upsert(entities) {
      const rows = entities.map(rowMapper.toRow);
      return writeRows(rows);
    },
    async delete(refs) {
      return writeRows(refs.map(rowMapper.tombstone));
    },
    deleteOwner,
    search: queries.search,
    searchKeys: queries.searchKeys,
    hitsOf: queries.hitsOf,
    related: queries.related,
    versionOf: async (ref) => versionOfEntity(t(), ref),
    stats: (ownerId) =>
      ownerId === undefined ? indexStats(t(), { dir: options.dir, dims }) : ownerStats(ownerId),
    entityCount: liveRowsOf,
    listLive: (o) => listLiveEntities(t, o),
    kaboodles: {
      upsert: (k) => kaboodles.upsert(k),
      delete: (r) => kaboodles.delete(r),
      get: (ownerId, id) => kaboodles.get(ownerId, id),
      listLive: (o) => kaboodles.listLive(o),
    },
    async ping() {
      await t().version();
    },
    async close() {
      if (closed) return;
      if (optimizeTimer) clearInterval(optimizeTimer);
      // Let queued writes finish: they were promised durable.
      await writer.idle();
      closed = true;
      // the memory indexes written to since their last snapshot, so the next start loads them
      await memory.saveAll();
      memory.clear();
      kaboodles.close();
      table?.close();
      db?.close();
      table = undefined;
      db = undefined;
    },
    async optimize() {
      await writer.barrier(maintenance.maintain);
    },
    async hasAnnIndex() {
      return (await t().listIndices()).some((i) => i.columns.includes('vector'));
    },
    async exactKnn(ownerId, vector, k) {
      return (await queries.knn(entityFilter({ ownerId }), vector, k, true)).map((c) => c.key);
    },
    lastTimings: queries.lastTimings,
    hitCache: () => hitCache.stats(),
    memoryIndexes: () => memory.counts(),
    useMemoryIndexes(on) {
      memory.inUse = on;
    },
    setMemoryIndexEf(ef) {
      memory.setEf(ef);
    },
    memorySnapshotsSaved: () => memory.snapshotsSaved(),
    async awaitMemoryIndex(ownerId) {
      return memory.awaitBuild(ownerId, await liveRowsOf(ownerId));
    },
    annSettings: maintenance.annSettings,
  };
}
