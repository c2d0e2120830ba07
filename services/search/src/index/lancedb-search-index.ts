// The embedded search index: one LanceDB table in a folder (KABOODLE_DATA_DIR/search), with a BM25
// full-text index over the searchable text, cosine kNN over the entity vectors (flat scan while small,
// IVF_FLAT once big enough, HNSW-SQ on request) and hybrid = the learned fusion of the two
// (search-scoring.ts, docs/adr/0004-learned-hybrid-fusion.md). Layout, scoring and the
// version guard are described in docs/services/search.md ("Embedded index").
import { mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import type { Connection, Table } from '@lancedb/lancedb';
import { Binary, Bool, Field, FixedSizeList, Float32, Int32, Int64, List, Schema, Utf8 } from 'apache-arrow';
import { InputError, NotFoundError, wrapError } from '@kaboodle/platform';
import type { Logger } from '@kaboodle/platform';
import { entityFilter, sqlString, sqlStringList } from './lance-filter.ts';
import type {
  EntityRef,
  IndexStats,
  IndexedEntity,
  IndexedEntityType,
  RelatedQuery,
  SearchHit,
  SearchIndex,
  SearchQuery,
  UpsertOutcome,
} from './search-index.port.ts';
import {
  ENTITY_TYPES,
  bestPassage,
  bm25ToScores,
  byScoreThenKey,
  clampLimit,
  cosineDistanceToScore,
  fusionDepth,
  LEAD_BOOST,
  normaliseTag,
  reciprocalRankFusion,
} from './search-scoring.ts';
import { OwnerKeywordIndex } from './keyword-index.ts';
import { createLanceDbKaboodleIndex } from './lancedb-kaboodle-index.ts';
import { OwnerVectorGraph, type VectorGraphSettings } from './vector-graph.ts';

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
   * entity vectors in an HNSW graph (hnswlib-node) and their search text in a BM25 inverted index,
   * built in the background from the table on their first query and kept in step with every write.
   * The table's own kNN and full-text search answer until it is ready, and for queries filtered by
   * category or hashtags. At most `maxVectors` entities (default 200,000, ~7 KB each at 512
   * dimensions) are held over all owners. `false` turns it off.
   */
  memoryIndex?: false | MemoryIndexOptions;
  logger?: Logger;
}

export interface MemoryIndexOptions extends VectorGraphSettings {
  minOwnerRows?: number;
  maxVectors?: number;
  /** Tests: a query waits for the owner's in-memory index instead of using the table while it is built. */
  waitForBuild?: boolean;
  /** The build yields to the event loop after this long (default 8 ms), so requests keep flowing. */
  sliceMs?: number;
}

const DISPLAY_CONTENT_CHARS = 500;

/** The columns a hit is built from (never the vectors or the full search text). */
export const HIT_COLUMNS = [
  'key',
  'id',
  'entity_type',
  'title',
  'description',
  'content_head',
  'url',
  'image_url',
  'category',
  'hashtags',
];

interface Row {
  key: string;
  id: string;
  owner_id: string;
  entity_type: string;
  version: bigint;
  deleted: boolean;
  title: string;
  description: string;
  content_head: string;
  search_text: string;
  category: string;
  hashtags: string[];
  tags_norm: string[];
  keywords: string[];
  url: string;
  image_url: string;
  created_at: bigint;
  updated_at: bigint;
  vector: Float32Array;
  passage_text: string[];
  passage_start: number[];
  passage_end: number[];
  /** Passage vectors, concatenated little-endian float32 (n × dimensions). */
  passage_vectors: Uint8Array;
}

interface WriteOp {
  kind: 'rows';
  rows: Row[];
  resolve(o: UpsertOutcome): void;
  reject(e: unknown): void;
}
interface BarrierOp {
  kind: 'barrier';
  run(): Promise<void>;
  resolve(): void;
  reject(e: unknown): void;
}
type Op = WriteOp | BarrierOp;

/** The table's unique key: one row per (owner, type, id), so two owners never share a row. */
export function entityKey(ownerId: string, entityType: IndexedEntityType | string, id: string): string {
  return JSON.stringify([ownerId, entityType, id]);
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
} {
  const dims = options.dimensions;
  if (!Number.isInteger(dims) || dims < 1) throw new Error('dimensions must be a positive integer');
  const tableName = options.table ?? 'kaboodle-entities';
  const annMinRows = options.annMinRows ?? 5_000;
  const flatMaxOwnerRows = options.flatMaxOwnerRows ?? 5_000;
  const annKind = options.ann?.kind ?? 'ivf-flat';
  const ann = {
    nprobes: options.ann?.nprobes ?? 20,
    m: options.ann?.m ?? 20,
    efConstruction: options.ann?.efConstruction ?? 300,
    ef: options.ann?.ef ?? 100,
    refineFactor: options.ann?.refineFactor ?? (annKind === 'hnsw-sq' ? 2 : 1),
  };
  const maxBatchRows = options.maxBatchRows ?? 2_000;
  const maxQueuedRows = Math.max(options.maxQueuedRows ?? 20_000, maxBatchRows);
  const optimizeEveryWrites = options.optimizeEveryWrites ?? 50;
  const optimizeEveryRows = options.optimizeEveryRows ?? 20_000;
  const optimizeIntervalMs = options.optimizeIntervalMs ?? 60_000;
  const maxSearchTextChars = options.maxSearchTextChars ?? 100_000;
  const retainVersionsMs = options.retainVersionsMs ?? 60_000;
  const parallelStages = options.parallelStages ?? true;
  const tombstoneTtlMs = options.tombstoneTtlMs ?? 7 * 24 * 3_600_000;
  const hitCacheRows = Math.max(0, options.hitCacheRows ?? 20_000);
  const log = options.logger;
  const graphOptions = options.memoryIndex === false ? undefined : (options.memoryIndex ?? {});
  const graphMinOwnerRows = graphOptions?.minOwnerRows ?? 5_000;
  const graphMaxVectors = graphOptions?.maxVectors ?? 200_000;
  const graphSliceMs = graphOptions?.sliceMs ?? 8;
  const graphRetryMs = 60_000;
  let graphsInUse = true;

  const schema = new Schema([
    new Field('key', new Utf8(), false),
    new Field('id', new Utf8(), false),
    new Field('owner_id', new Utf8(), false),
    new Field('entity_type', new Utf8(), false),
    new Field('version', new Int64(), false),
    new Field('deleted', new Bool(), false),
    new Field('title', new Utf8(), false),
    new Field('description', new Utf8(), false),
    new Field('content_head', new Utf8(), false),
    new Field('search_text', new Utf8(), false),
    new Field('category', new Utf8(), false),
    new Field('hashtags', new List(new Field('item', new Utf8(), true)), false),
    new Field('tags_norm', new List(new Field('item', new Utf8(), true)), false),
    new Field('keywords', new List(new Field('item', new Utf8(), true)), false),
    new Field('url', new Utf8(), false),
    new Field('image_url', new Utf8(), false),
    new Field('created_at', new Int64(), false),
    new Field('updated_at', new Int64(), false),
    new Field('vector', new FixedSizeList(dims, new Field('item', new Float32(), true)), false),
    new Field('passage_text', new List(new Field('item', new Utf8(), true)), false),
    new Field('passage_start', new List(new Field('item', new Int32(), true)), false),
    new Field('passage_end', new List(new Field('item', new Int32(), true)), false),
    new Field('passage_vectors', new Binary(), false),
  ]);

  let db: Connection | undefined;
  let table: Table | undefined;
  let opening: Promise<void> | undefined;
  let closed = false;
  let annIndexed = false;
  /** Live rows when the ANN index was (re)built: IVF partitions are retrained once the table is 4× that. */
  let annBuiltRows = 0;

  // One writer: operations queue here and run one at a time; consecutive row writes coalesce.
  const queue: Op[] = [];
  let queuedRows = 0;
  let draining: Promise<void> | undefined;
  const spaceWaiters: (() => void)[] = [];
  let writesSinceOptimize = 0;
  let rowsSinceOptimize = 0;
  let optimizeTimer: NodeJS.Timeout | undefined;
  // Live rows per owner (flat-scan decision); forgotten whenever the owner's rows change.
  const ownerRows = new Map<string, number>();
  let timings: Record<string, number> = {};
  // Display fields of recent hits by key (a Map keeps insertion order: first = least recently used).
  const hitRows = new Map<string, Record<string, unknown>>();
  // Bumped by every write: rows read while a write ran may be older than it, so they are not kept.
  let writeEpoch = 0;
  let hitCacheHits = 0;
  let hitCacheMisses = 0;
  // In-memory indexes of large owners (see memoryIndex above), their builds, and failed builds.
  interface OwnerMemory {
    graph: OwnerVectorGraph;
    words: OwnerKeywordIndex;
    /** The hits' display fields by key (HIT_COLUMNS), so a query never reads the table. */
    rows: Map<string, Record<string, unknown>>;
    /** Keys written since the build began (the builder's older snapshot rows must not overwrite them). */
    touched: Set<string>;
    state: 'building' | 'ready';
  }
  const graphs = new Map<string, OwnerMemory>();
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
  const graphBuilds = new Map<string, Promise<void>>();
  const graphFailedAt = new Map<string, number>();

  function forgetHits(keys: Iterable<string> | 'all'): void {
    writeEpoch += 1;
    if (keys === 'all') hitRows.clear();
    else for (const k of keys) hitRows.delete(k);
  }

  function t(): Table {
    if (!table) throw new Error('the search index is not open (call open() first)');
    return table;
  }

  async function open(): Promise<void> {
    opening ??= (async () => {
      try {
        await mkdir(options.dir, { recursive: true });
        db = await lancedb.connect(options.dir);
        forgetHits('all');
        const names = await db.tableNames();
        if (names.includes(tableName)) {
          table = await db.openTable(tableName);
          const existing = await table.schema();
          const vf = existing.fields.find((f) => f.name === 'vector');
          const size = (vf?.type as { listSize?: number } | undefined)?.listSize;
          if (size !== dims) {
            throw new Error(
              `the index ${tableName} in ${options.dir} holds ${size}-dimension vectors but the embedder gives ${dims}: rebuild it (delete the folder and re-index from the catalogue)`,
            );
          }
        } else {
          table = await db.createEmptyTable(tableName, schema, { existOk: true });
        }
        const indices = await table.listIndices();
        const has = (col: string) => indices.some((i) => i.columns.includes(col));
        // Scalar indices make the owner prefilter and the version lookups by key cheap.
        if (!has('key')) await table.createIndex('key', { config: lancedb.Index.btree() });
        if (!has('owner_id')) await table.createIndex('owner_id', { config: lancedb.Index.btree() });
        // Every query filters `deleted = false`: without an index that predicate scans the column
        // (~2.5 ms of a 100k BM25 query here); a bitmap makes it free. Types are filtered often too.
        if (!has('deleted')) await table.createIndex('deleted', { config: lancedb.Index.bitmap() });
        if (!has('entity_type')) await table.createIndex('entity_type', { config: lancedb.Index.bitmap() });
        // BM25 over the whole search text and over the content's opening (the lead, LEAD_BOOST);
        // a table made before the lead was scored gets its index here, from the rows it holds.
        for (const column of ['search_text', 'content_head']) {
          if (has(column)) continue;
          await table.createIndex(column, {
            config: lancedb.Index.fts({
              baseTokenizer: 'simple',
              lowercase: true,
              stem: true,
              removeStopWords: true,
              asciiFolding: true,
              withPosition: false,
              language: 'English',
            }),
          });
        }
        await kaboodles.open();
        annIndexed = has('vector');
        if (annIndexed) annBuiltRows = await table.countRows('deleted = false');
        optimizeTimer = setInterval(() => {
          if (writesSinceOptimize > 0) void enqueueBarrier(maintain).catch(() => {});
        }, optimizeIntervalMs);
        optimizeTimer.unref();
      } catch (err) {
        opening = undefined;
        throw wrapError(`opening the search index in ${options.dir}`, err);
      }
    })();
    return opening;
  }

  // ---- writes --------------------------------------------------------------------------------

  function toRow(e: IndexedEntity): Row {
    if (!ENTITY_TYPES.includes(e.entityType))
      throw new InputError(`Unknown entity type: ${String(e.entityType)}`);
    if (!e.id || !e.ownerId) throw new InputError('An indexed entity needs an id and an owner');
    if (!Number.isSafeInteger(e.version) || e.version < 0)
      throw new InputError(`Entity version must be a non-negative integer, got ${e.version}`);
    checkVector(e.vector, `entity ${e.id}`);
    const passages = e.passages ?? [];
    const pv = new Float32Array(passages.length * dims);
    passages.forEach((p, i) => {
      checkVector(p.vector, `a passage of ${e.id}`);
      pv.set(p.vector, i * dims);
    });
    const hashtags = e.hashtags ?? [];
    const keywords = (e.keywords ?? []).filter((k) => typeof k === 'string' && k !== '');
    const content = e.content ?? '';
    // The title counts twice: a word in the title says more about the entity than one in the body.
    const searchText = [e.title, e.title, hashtags.join(' '), keywords.join(' '), e.description, content]
      .filter((s) => s)
      .join('\n')
      .slice(0, maxSearchTextChars);
    return {
      key: entityKey(e.ownerId, e.entityType, e.id),
      id: e.id,
      owner_id: e.ownerId,
      entity_type: e.entityType,
      version: BigInt(e.version),
      deleted: false,
      title: e.title ?? '',
      description: e.description ?? '',
      content_head: content.slice(0, DISPLAY_CONTENT_CHARS),
      search_text: searchText,
      category: e.category ?? '',
      hashtags,
      tags_norm: [...new Set(hashtags.map(normaliseTag).filter((x) => x))],
      keywords,
      url: e.url ?? '',
      image_url: e.imageUrl ?? '',
      created_at: BigInt(toMillis(e.createdAt)),
      updated_at: BigInt(toMillis(e.updatedAt)),
      vector: e.vector,
      passage_text: passages.map((p) => p.text),
      passage_start: passages.map((p) => p.start),
      passage_end: passages.map((p) => p.end),
      passage_vectors: new Uint8Array(pv.buffer),
    };
  }

  /** A delete leaves a tombstone row carrying the version, so a late older upsert stays ignored. */
  function tombstone(r: EntityRef): Row {
    if (!ENTITY_TYPES.includes(r.entityType))
      throw new InputError(`Unknown entity type: ${String(r.entityType)}`);
    if (!Number.isSafeInteger(r.version) || r.version < 0)
      throw new InputError(`Entity version must be a non-negative integer, got ${r.version}`);
    const unit = new Float32Array(dims);
    unit[0] = 1; // a valid direction for the ANN index; tombstones are filtered out of every search
    return {
      key: entityKey(r.ownerId, r.entityType, r.id),
      id: r.id,
      owner_id: r.ownerId,
      entity_type: r.entityType,
      version: BigInt(r.version),
      deleted: true,
      title: '',
      description: '',
      content_head: '',
      search_text: '',
      category: '',
      hashtags: [],
      tags_norm: [],
      keywords: [],
      url: '',
      image_url: '',
      created_at: 0n,
      updated_at: BigInt(Date.now()),
      vector: unit,
      passage_text: [],
      passage_start: [],
      passage_end: [],
      passage_vectors: new Uint8Array(0),
    };
  }

  function checkVector(v: Float32Array, what: string): void {
    if (!v || v.length !== dims)
      throw new InputError(
        `The vector of ${what} has ${v?.length ?? 0} dimensions; the index expects ${dims}`,
      );
    for (let i = 0; i < v.length; i++) {
      if (!Number.isFinite(v[i]!)) throw new InputError(`The vector of ${what} contains a non-finite value`);
    }
  }

  async function writeRows(rows: Row[]): Promise<UpsertOutcome> {
    if (closed) throw new Error('the search index is closed');
    if (rows.length === 0) return { applied: 0, stale: 0 };
    t(); // fails fast when not open
    // The same entity twice in one call: only its highest version goes on (the rest are stale), even
    // when the call is split into several batches below.
    const best = new Map<string, Row>();
    for (const r of rows) {
      const b = best.get(r.key);
      if (!b || r.version > b.version) best.set(r.key, r);
    }
    const duplicates = rows.length - best.size;
    const unique = [...best.values()];
    const chunks: Row[][] = [];
    for (let i = 0; i < unique.length; i += maxBatchRows) chunks.push(unique.slice(i, i + maxBatchRows));
    const outcomes = await Promise.all(
      chunks.map(async (chunk) => {
        // Back-pressure: wait while the queue is full (a single oversized chunk still goes when empty).
        while (queuedRows > 0 && queuedRows + chunk.length > maxQueuedRows) {
          await new Promise<void>((r) => spaceWaiters.push(r));
        }
        return new Promise<UpsertOutcome>((resolve, reject) => {
          queue.push({ kind: 'rows', rows: chunk, resolve, reject });
          queuedRows += chunk.length;
          kick();
        });
      }),
    );
    return outcomes.reduce((a, o) => ({ applied: a.applied + o.applied, stale: a.stale + o.stale }), {
      applied: 0,
      stale: duplicates,
    });
  }

  function enqueueBarrier(run: () => Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      queue.push({ kind: 'barrier', run, resolve, reject });
      kick();
    });
  }

  function kick(): void {
    draining ??= drain().finally(() => {
      draining = undefined;
      if (queue.length > 0) kick();
    });
  }

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      const head = queue[0]!;
      if (head.kind === 'barrier') {
        queue.shift();
        try {
          await head.run();
          head.resolve();
        } catch (err) {
          head.reject(err);
        }
        continue;
      }
      // Coalesce consecutive row writes from every caller into one batch.
      const batch: WriteOp[] = [];
      let n = 0;
      while (queue.length > 0 && queue[0]!.kind === 'rows') {
        const op = queue[0] as WriteOp;
        if (batch.length > 0 && n + op.rows.length > maxBatchRows) break;
        queue.shift();
        batch.push(op);
        n += op.rows.length;
      }
      try {
        const perOp = await applyBatch(batch.map((b) => b.rows));
        batch.forEach((op, i) => op.resolve(perOp[i]!));
      } catch (err) {
        const wrapped = wrapError('writing to the search index', err);
        for (const op of batch) op.reject(wrapped);
      } finally {
        queuedRows -= n;
        for (const w of spaceWaiters.splice(0)) w();
      }
      if (writesSinceOptimize >= optimizeEveryWrites || rowsSinceOptimize >= optimizeEveryRows) {
        try {
          await maintain();
        } catch (err) {
          log?.warn({ err }, 'search index maintenance failed; the next write retries');
        }
      }
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
    if (keys.length > 0) {
      const found = (await t()
        .query()
        .where(`key IN (${sqlStringList(keys)})`)
        .select(['key', 'version'])
        .toArray()) as { key: string; version: bigint }[];
      for (const f of found) stored.set(f.key, BigInt(f.version));
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
      forgetHits(toWrite.map((r) => r.key));
      if (toWrite.every((r) => !stored.has(r.key))) {
        await t().add(data);
      } else {
        await t()
          .mergeInsert('key')
          .whenMatchedUpdateAll({ where: 'target.version < source.version' })
          .whenNotMatchedInsertAll()
          .execute(data);
      }
      writesSinceOptimize += 1;
      rowsSinceOptimize += toWrite.length;
      for (const r of toWrite) ownerRows.delete(r.owner_id);
      forgetHits(toWrite.map((r) => r.key));
      // The table has taken the rows: the owners' graphs follow (a tombstone removes the vector).
      for (const r of toWrite) {
        const mem = graphs.get(r.owner_id);
        if (!mem) continue;
        mem.graph.applyWrite(r.key, r.entity_type, r.deleted ? null : r.vector);
        mem.words.applyWrite(r.key, r.entity_type, r.deleted ? null : r.search_text, r.content_head);
        if (mem.state === 'building') mem.touched.add(r.key);
        if (r.deleted) mem.rows.delete(r.key);
        else mem.rows.set(r.key, displayRow(r));
      }
    }
    const written = new Set(toWrite);
    return groups.map((rows) => {
      let applied = 0;
      for (const r of rows) if (written.has(r)) applied++;
      return { applied, stale: rows.length - applied };
    });
  }

  /** The index settings for a table of `rows` live rows (what the bench prints). */
  function annSettings(rows: number) {
    const numPartitions =
      options.ann?.numPartitions ??
      (annKind === 'hnsw-sq' ? 1 : Math.max(1, Math.min(4096, Math.round(Math.sqrt(rows)))));
    return { kind: annKind, numPartitions, ...ann };
  }

  /** Compaction, index refresh (new rows join the FTS/ANN indices), old versions pruned. */
  async function maintain(): Promise<void> {
    writesSinceOptimize = 0;
    rowsSinceOptimize = 0;
    const tb = t();
    const live = await tb.countRows('deleted = false');
    // Built once the table is big enough; rebuilt when it has grown 4×, because new rows only join
    // the existing partitions (or graph) and the partitioning drifts from the data.
    if ((!annIndexed && live >= annMinRows) || (annIndexed && annBuiltRows > 0 && live >= annBuiltRows * 4)) {
      const started = performance.now();
      const settings = annSettings(live);
      await tb.createIndex('vector', {
        config:
          annKind === 'hnsw-sq'
            ? lancedb.Index.hnswSq({
                distanceType: 'cosine',
                m: settings.m,
                efConstruction: settings.efConstruction,
                numPartitions: settings.numPartitions,
              })
            : lancedb.Index.ivfFlat({ distanceType: 'cosine', numPartitions: settings.numPartitions }),
        replace: true,
      });
      annIndexed = true;
      annBuiltRows = live;
      log?.info(
        { rows: live, ms: Math.round(performance.now() - started), ...settings },
        'search index: built the vector index',
      );
    }
    await tb.delete(`deleted = true AND updated_at < ${Math.trunc(Date.now() - tombstoneTtlMs)}`);
    await tb.optimize({ cleanupOlderThan: new Date(Date.now() - retainVersionsMs) });
  }

  // ---- reads ---------------------------------------------------------------------------------

  async function liveRowsOf(ownerId: string): Promise<number> {
    const cached = ownerRows.get(ownerId);
    if (cached !== undefined) return cached;
    const n = await t().countRows(`deleted = false AND owner_id = ${sqlString(ownerId)}`);
    ownerRows.set(ownerId, n);
    return n;
  }

  // ---- in-memory vector graphs ---------------------------------------------------------------

  function graphVectors(): number {
    let n = 0;
    for (const g of graphs.values()) n += g.words.size;
    return n;
  }

  /**
   * The owner's in-memory index when it is ready; otherwise starts its build (when the owner is big enough and
   * there is room) and answers undefined, so the caller uses the table meanwhile.
   */
  async function memoryFor(ownerId: string, liveRows: number): Promise<OwnerMemory | undefined> {
    if (!graphOptions || !graphsInUse || liveRows <= graphMinOwnerRows) return undefined;
    const graph = graphs.get(ownerId);
    if (graph?.state === 'ready') return graph;
    if (!graph) {
      const failed = graphFailedAt.get(ownerId);
      if (failed !== undefined && Date.now() - failed < graphRetryMs) return undefined;
      if (graphVectors() + liveRows > graphMaxVectors) return undefined;
      startGraphBuild(ownerId, liveRows);
    }
    if (!graphOptions.waitForBuild) return undefined;
    await graphBuilds.get(ownerId);
    const built = graphs.get(ownerId);
    return built?.state === 'ready' ? built : undefined;
  }

  function startGraphBuild(ownerId: string, liveRows: number): void {
    const graph: OwnerMemory = {
      graph: new OwnerVectorGraph(dims, graphOptions ?? {}, liveRows + 64),
      words: new OwnerKeywordIndex(),
      rows: new Map(),
      touched: new Set(),
      state: 'building',
    };
    graphs.set(ownerId, graph);
    const build = (async () => {
      const started = performance.now();
      try {
        const q = t()
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
            if (performance.now() - slice > graphSliceMs) {
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
        graphFailedAt.delete(ownerId);
        log?.info(
          { entities: graph.words.size, ms: Math.round(performance.now() - started) },
          'search index: built an owner’s in-memory index',
        );
      } catch (err) {
        if (graphs.get(ownerId) === graph) graphs.delete(ownerId);
        graphFailedAt.set(ownerId, Date.now());
        log?.warn({ err }, 'search index: building an in-memory index failed; the table answers');
      } finally {
        graphBuilds.delete(ownerId);
      }
    })();
    graphBuilds.set(ownerId, build);
  }

  /**
   * Category, tag and kaboodle filters are the table's job; owner, type and excluded keys the memory
   * index can do. (A kaboodle holds at most a few thousand entities: an exact scan of them is quick.)
   */
  function graphCanFilter(f: {
    category?: string | undefined;
    hashtags?: string[] | undefined;
    only?: unknown[] | undefined;
  }): boolean {
    return (f.category === undefined || f.category === '') && (f.hashtags ?? []).length === 0 && !f.only;
  }

  interface Candidate {
    key: string;
    raw: number;
  }

  /**
   * The display rows of these keys, from memory or one read; a key whose entity is gone (deleted
   * since the candidates were found) is missing from the answer.
   */
  async function hitRowsOf(ownerId: string, keys: string[]): Promise<Map<string, Record<string, unknown>>> {
    const out = new Map<string, Record<string, unknown>>();
    const mem = graphsInUse ? graphs.get(ownerId) : undefined;
    if (mem?.state === 'ready') {
      // every live entity of the owner is here, as of the last write
      for (const k of keys) {
        const row = mem.rows.get(k);
        if (row) out.set(k, row);
      }
      return out;
    }
    const missing: string[] = [];
    for (const k of keys) {
      const row = hitRows.get(k);
      if (row) {
        hitRows.delete(k); // most recently used goes last
        hitRows.set(k, row);
        out.set(k, row);
      } else missing.push(k);
    }
    hitCacheHits += keys.length - missing.length;
    hitCacheMisses += missing.length;
    if (missing.length === 0) return out;
    const epoch = writeEpoch;
    const rows = (await t()
      .query()
      .where(`deleted = false AND owner_id = ${sqlString(ownerId)} AND key IN (${sqlStringList(missing)})`)
      .select(HIT_COLUMNS)
      .toArray()) as Record<string, unknown>[];
    const keep = hitCacheRows > 0 && epoch === writeEpoch;
    for (const r of rows) {
      const k = r.key as string;
      out.set(k, r);
      if (keep) hitRows.set(k, r);
    }
    while (hitRows.size > hitCacheRows) hitRows.delete(hitRows.keys().next().value!);
    return out;
  }

  async function knn(filter: string, vector: Float32Array, k: number, exact: boolean): Promise<Candidate[]> {
    let q = t()
      .query()
      .nearestTo(Array.from(vector))
      .distanceType('cosine')
      .where(filter)
      .select(['key', '_distance'])
      .limit(k);
    if (exact) q = q.bypassVectorIndex();
    // at least nprobes partitions; more only when a narrow filter leaves fewer than k results
    else if (annKind === 'ivf-flat')
      q = q.maximumNprobes(0).minimumNprobes(ann.nprobes); // 0: no upper bound
    // lance asks the graph for k × refineFactor candidates, and ef must cover them
    else q = q.ef(Math.max(ann.ef, k * ann.refineFactor)).refineFactor(ann.refineFactor);
    const rows = (await q.toArray()) as Record<string, unknown>[];
    return rows.map((r) => ({ key: r.key as string, raw: Number(r._distance) }));
  }

  async function bm25(filter: string, text: string, k: number): Promise<Candidate[]> {
    // A sum of the two fields' BM25 (a multi-column match would take the larger of the two).
    const words = new lancedb.BooleanQuery([
      [lancedb.Occur.Should, new lancedb.MatchQuery(text, 'search_text')],
      [lancedb.Occur.Should, new lancedb.MatchQuery(text, 'content_head', { boost: LEAD_BOOST })],
    ]);
    const rows = (await t()
      .query()
      .fullTextSearch(words)
      .where(filter)
      .select(['key', '_score'])
      .limit(k)
      .toArray()) as Record<string, unknown>[];
    return rows.map((r) => ({ key: r.key as string, raw: Number(r._score) }));
  }

  function toHit(row: Record<string, unknown>, score: number, raw?: number): SearchHit {
    return {
      entityType: row.entity_type as IndexedEntityType,
      id: row.id as string,
      title: (row.title as string) ?? '',
      description: (row.description as string) ?? '',
      content: (row.content_head as string) ?? '',
      url: (row.url as string) ?? '',
      imageUrl: (row.image_url as string) ?? '',
      category: (row.category as string) ?? '',
      hashtags: listOf<string>(row.hashtags),
      score,
      ...(raw !== undefined && Number.isFinite(raw) ? { raw } : {}),
    };
  }

  async function search(query: SearchQuery): Promise<SearchHit[]> {
    const started = performance.now();
    const stage: Record<string, number> = {};
    const mark = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
      const s = performance.now();
      try {
        return await fn();
      } finally {
        stage[name] = performance.now() - s;
      }
    };
    const limit = clampLimit(query.limit, 100);
    // Only a kaboodle's members: none means no result (and no query at all).
    if (query.only && query.only.length === 0) {
      timings = { total: performance.now() - started };
      return [];
    }
    const onlyKeys = query.only?.map((m) => entityKey(query.ownerId, m.entityType, m.id));
    const filter = entityFilter({
      ownerId: query.ownerId,
      entityTypes: query.entityTypes,
      category: query.category,
      hashtags: query.hashtags,
      onlyKeys,
    });
    const text = (query.text ?? '').trim();
    const wantsVector = query.mode === 'semantic' || query.mode === 'hybrid';
    if (wantsVector) {
      if (!query.vector) throw new InputError(`A query vector is required for ${query.mode} search`);
      checkVector(query.vector, 'the query');
    }
    const wantsText = (query.mode === 'keyword' || query.mode === 'hybrid') && text !== '';
    const depth = query.mode === 'hybrid' ? fusionDepth(limit) : limit;
    const ownerLive =
      (wantsVector && annIndexed) || ((wantsVector || wantsText) && graphOptions)
        ? await mark('owner_count', () => liveRowsOf(query.ownerId))
        : 0;
    const exact =
      !annIndexed || onlyKeys !== undefined || (wantsVector ? ownerLive <= flatMaxOwnerRows : true);
    const memory = graphCanFilter(query) ? await memoryFor(query.ownerId, ownerLive) : undefined;
    const graph = wantsVector ? memory?.graph : undefined;

    const runKnn = (): Promise<Candidate[]> => {
      if (!wantsVector) return Promise.resolve([]);
      if (graph) {
        return mark('knn', async () =>
          graph
            .search(query.vector!, depth, { entityTypes: query.entityTypes })
            .map((c) => ({ key: c.key, raw: c.distance })),
        );
      }
      return mark('knn', () => knn(filter, query.vector!, depth, exact));
    };
    const runBm25 = (): Promise<Candidate[]> => {
      if (!wantsText) return Promise.resolve([]);
      if (memory) {
        return mark('bm25', async () =>
          memory.words.search(text, depth, query.entityTypes).map((c) => ({ key: c.key, raw: c.score })),
        );
      }
      return mark('bm25', () => bm25(filter, text, depth));
    };
    const [vec, kw] = parallelStages
      ? await Promise.all([runKnn(), runBm25()])
      : [await runKnn(), await runBm25()];

    const fuseStart = performance.now();
    let ranked: { key: string; score: number; raw?: number }[];
    if (query.mode === 'semantic') {
      ranked = vec.map((c) => ({ key: c.key, score: cosineDistanceToScore(c.raw), raw: 1 - c.raw }));
    } else if (query.mode === 'keyword') {
      const scores = bm25ToScores(kw.map((c) => c.raw));
      ranked = kw.map((c, i) => ({ key: c.key, score: scores[i]!, raw: c.raw }));
    } else {
      ranked = reciprocalRankFusion([vec, kw]).map((f) => ({ key: f.key, score: f.score }));
    }
    ranked.sort(byScoreThenKey);
    ranked = ranked.slice(0, limit);
    stage.fusion = performance.now() - fuseStart;

    const rows = await mark('rows', () =>
      hitRowsOf(
        query.ownerId,
        ranked.map((r) => r.key),
      ),
    );
    const hits: SearchHit[] = [];
    for (const r of ranked) {
      const row = rows.get(r.key);
      if (row) hits.push(toHit(row, r.score, r.raw));
    }
    if (query.withExcerpts && hits.length > 0) {
      await mark('excerpts', () => addExcerpts(query.ownerId, hits, { text, vector: query.vector }));
    }
    stage.total = performance.now() - started;
    stage.exact = exact && !graph ? 1 : 0;
    stage.memory = memory ? 1 : 0;
    timings = stage;
    return hits;
  }

  async function addExcerpts(
    ownerId: string,
    hits: SearchHit[],
    q: { text: string; vector: Float32Array | undefined },
  ): Promise<void> {
    const docKeys = hits
      .filter((h) => h.entityType === 'document')
      .map((h) => entityKey(ownerId, h.entityType, h.id));
    if (docKeys.length === 0) return;
    const rows = (await t()
      .query()
      .where(`deleted = false AND owner_id = ${sqlString(ownerId)} AND key IN (${sqlStringList(docKeys)})`)
      .select(['id', 'passage_text', 'passage_vectors'])
      .toArray()) as { id: string; passage_text: unknown; passage_vectors: Uint8Array }[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const h of hits) {
      if (h.entityType !== 'document') continue;
      const r = byId.get(h.id);
      if (!r) continue;
      const texts = listOf<string>(r.passage_text);
      const vectors = floatView(r.passage_vectors);
      const best = bestPassage(
        texts.map((text, i) => ({ text, vector: vectors.subarray(i * dims, (i + 1) * dims) })),
        { text: q.text, ...(q.vector ? { vector: q.vector } : {}) },
      );
      if (best) h.excerpt = best.text;
    }
  }

  async function related(query: RelatedQuery): Promise<SearchHit[]> {
    const limit = clampLimit(query.limit, 50, 10);
    const key = entityKey(query.ownerId, query.entityType, query.id);
    const found = (await t()
      .query()
      .where(`deleted = false AND owner_id = ${sqlString(query.ownerId)} AND key = ${sqlString(key)}`)
      .select(['vector'])
      .limit(1)
      .toArray()) as { vector: unknown }[];
    if (found.length === 0) throw new NotFoundError('Not found');
    const vector = Float32Array.from(listOf<number>(found[0]!.vector));
    const ownerLive = await liveRowsOf(query.ownerId);
    const exact = !annIndexed || ownerLive <= flatMaxOwnerRows;
    const filter = entityFilter({ ownerId: query.ownerId, excludeKeys: [key] });
    const min = query.minSimilarity ?? 0;
    const graph = (await memoryFor(query.ownerId, ownerLive))?.graph;
    const candidates = graph
      ? graph.search(vector, limit, { excludeKeys: [key] }).map((c) => ({ key: c.key, raw: c.distance }))
      : await knn(filter, vector, limit, exact);
    const ranked = candidates
      .map((c) => ({ key: c.key, score: cosineDistanceToScore(c.raw) }))
      .filter((c) => c.score >= min)
      .sort(byScoreThenKey);
    const rows = await hitRowsOf(
      query.ownerId,
      ranked.map((c) => c.key),
    );
    return ranked.flatMap((c) => {
      const row = rows.get(c.key);
      return row ? [toHit(row, c.score)] : [];
    });
  }

  async function versionOf(ref: Omit<EntityRef, 'version'>): Promise<number | undefined> {
    const rows = (await t()
      .query()
      .where(`key = ${sqlString(entityKey(ref.ownerId, ref.entityType, ref.id))}`)
      .select(['version', 'deleted'])
      .limit(1)
      .toArray()) as { version: bigint; deleted: boolean }[];
    const r = rows[0];
    return r && !r.deleted ? Number(r.version) : undefined;
  }

  async function stats(ownerId?: string): Promise<IndexStats> {
    if (ownerId === undefined) {
      return { entities: await t().countRows('deleted = false'), sizeBytes: await folderBytes(options.dir) };
    }
    // One owner's share, from that owner's rows only: nothing about other users shows in it.
    let entities = 0;
    let sizeBytes = 0;
    const q = t()
      .query()
      .where(`deleted = false AND owner_id = ${sqlString(ownerId)}`)
      .select({ text: 'octet_length(search_text)', passages: 'cardinality(passage_text)' });
    for await (const batch of q) {
      const text = batch.getChild('text');
      const passages = batch.getChild('passages');
      for (let i = 0; i < batch.numRows; i++) {
        // the text as stored for keyword search + the entity's and its passages' float32 vectors
        sizeBytes += Number(text?.get(i) ?? 0) + (1 + Number(passages?.get(i) ?? 0)) * dims * 4;
      }
      entities += batch.numRows;
    }
    return { entities, sizeBytes };
  }

  async function* listLive(options: { updatedBefore: Date; batchSize?: number }): AsyncIterable<EntityRef[]> {
    const size = Math.max(1, options.batchSize ?? 1_000);
    const before = Math.trunc(options.updatedBefore.getTime());
    if (!Number.isFinite(before)) throw new InputError('updatedBefore must be a valid date');
    const q = t()
      .query()
      .where(`deleted = false AND updated_at < ${before}`)
      .select(['id', 'owner_id', 'entity_type', 'version']);
    let out: EntityRef[] = [];
    for await (const batch of q) {
      const ids = batch.getChild('id');
      const owners = batch.getChild('owner_id');
      const types = batch.getChild('entity_type');
      const versions = batch.getChild('version');
      for (let i = 0; i < batch.numRows; i++) {
        out.push({
          id: String(ids?.get(i)),
          ownerId: String(owners?.get(i)),
          entityType: String(types?.get(i)) as IndexedEntityType,
          version: Number(versions?.get(i)),
        });
        if (out.length >= size) {
          yield out;
          out = [];
        }
      }
    }
    if (out.length > 0) yield out;
  }

  async function deleteOwner(ownerId: string): Promise<void> {
    const lit = sqlString(ownerId);
    await enqueueBarrier(async () => {
      forgetHits('all');
      graphs.delete(ownerId);
      await t().delete(`owner_id = ${lit}`);
      await kaboodles.deleteOwner(ownerId);
      graphs.delete(ownerId);
      ownerRows.delete(ownerId);
      forgetHits('all');
      writesSinceOptimize += 1;
    });
  }

  return {
    kind: 'lancedb',
    dimensions: dims,
    open,
    async upsert(entities) {
      const rows = entities.map(toRow);
      return writeRows(rows);
    },
    async delete(refs) {
      return writeRows(refs.map(tombstone));
    },
    deleteOwner,
    search,
    related,
    versionOf,
    stats,
    listLive,
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
      while (draining) await draining;
      closed = true;
      graphs.clear();
      kaboodles.close();
      table?.close();
      db?.close();
      table = undefined;
      db = undefined;
    },
    async optimize() {
      await enqueueBarrier(maintain);
    },
    async hasAnnIndex() {
      return (await t().listIndices()).some((i) => i.columns.includes('vector'));
    },
    async exactKnn(ownerId, vector, k) {
      return (await knn(entityFilter({ ownerId }), vector, k, true)).map((c) => c.key);
    },
    lastTimings: () => timings,
    hitCache: () => ({ rows: hitRows.size, hits: hitCacheHits, misses: hitCacheMisses }),
    memoryIndexes: () => ({ owners: graphs.size, vectors: graphVectors(), building: graphBuilds.size }),
    useMemoryIndexes(on) {
      graphsInUse = on;
    },
    setMemoryIndexEf(ef) {
      for (const m of graphs.values()) m.graph.ef = ef;
    },
    async awaitMemoryIndex(ownerId) {
      const live = await liveRowsOf(ownerId);
      if (!graphOptions || live <= graphMinOwnerRows) return false;
      if (!graphs.has(ownerId) && graphVectors() + live <= graphMaxVectors) startGraphBuild(ownerId, live);
      await graphBuilds.get(ownerId);
      return graphs.get(ownerId)?.state === 'ready';
    },
    annSettings,
  };
}

/** A written row's display fields, shaped like a HIT_COLUMNS read from the table. */
function displayRow(r: Row): Record<string, unknown> {
  const fields = r as unknown as Record<string, unknown>;
  return Object.fromEntries(HIT_COLUMNS.map((c) => [c, fields[c]]));
}

function toMillis(d: Date | undefined): number {
  const ms = d instanceof Date ? d.getTime() : 0;
  return Number.isFinite(ms) ? Math.trunc(ms) : 0;
}

/** Arrow list values arrive as arrow Vectors (toArray()) or plain arrays, depending on the column. */
function listOf<T>(v: unknown): T[] {
  if (v == null) return [];
  if (Array.isArray(v)) return v as T[];
  const withToArray = v as { toArray?: () => ArrayLike<T> };
  if (typeof withToArray.toArray === 'function') return Array.from(withToArray.toArray());
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<T>);
  return [];
}

function floatView(bytes: Uint8Array | null | undefined): Float32Array {
  if (!bytes || bytes.byteLength === 0) return new Float32Array(0);
  // Arrow buffers need not be 4-byte aligned: copy when they are not.
  if (bytes.byteOffset % 4 === 0)
    return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  return new Float32Array(bytes.slice().buffer);
}

async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += await folderBytes(p);
    else if (e.isFile()) total += await fileBytes(p);
  }
  return total;
}

/** A file's size, or 0 when a background compaction or cleanup removed it after the listing. */
async function fileBytes(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
}
