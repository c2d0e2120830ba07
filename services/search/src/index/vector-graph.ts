// An owner's entity vectors as an in-memory HNSW graph (usearch), beside the LanceDB table that stays
// the store of record. A LanceDB kNN costs ~12–18 ms on the 100k bench; the graph answers in about a
// millisecond (docs/services/search.md, "In-memory index for large owners"). The adapter builds one
// per large owner from the table, applies every write to it after the table has taken it, and falls
// back to the table while it is being built; a built graph can be saved and opened again
// (vector-graph-files.ts) so a restart does not rebuild it.
// Why usearch with f16: on 100k clustered 512-d unit vectors it builds ~2× faster than hnswlib
// (multi-threaded batch adds), answers as fast at recall@10 0.999 and holds half the memory (2 bytes
// a dimension). i8, even with each vector pre-scaled to the full int range, kept recall@10 at 0.89,
// and re-ranking it exactly would need a second copy of the vectors: f16 alone is smaller.
// Shards: a large owner's vectors are split over several graphs by label (label mod shards), each
// searched and the answers merged. Near-duplicates (versions of one document, items of one name)
// form tight clusters, and a candidate list of ef items then spans only ef / cluster-size clusters:
// on the bench's 1M corpus (clusters of ~54) recall@10 was 0.91 at ef 128 and 0.93 at ef 1,024, the
// misses all in clusters the search never reached; neither m 32 nor exact re-ranking changed that.
// Four shards of 250k (clusters of ~13 each) reach 0.977 at ef 128 at 1M for about four small searches'
// time (docs/benchmarks/2026-11-26-vector-recall.md).
// Filters: usearch's JS API has no filter callback. Excluded keys and common entity types are
// over-fetched from the one graph and the search widened until enough remain. A rare type (at most
// `sideGraphMax` vectors, and a quarter of the owner's once past a thousand) also keeps its vectors in a side graph of its own, searched instead when a
// filter asks only for rare types, and exhaustively while it is small: a filter on 1 % of the owner
// stays exact without wading through the other 99 %. (One graph per type for everything instead
// would make every unfiltered query search several graphs: 2× slower measured at 50k.)
import { mkdir } from 'node:fs/promises';
import { Index, MetricKind, ScalarKind } from 'usearch';
import { freezeGraphFiles, readGraphFiles } from './vector-graph-files.ts';
import { VectorLabels } from './vector-labels.ts';

export interface VectorGraphSettings {
  /** HNSW links per node (default 16). */
  m?: number;
  /** Candidate list while inserting (default 100). */
  efConstruction?: number;
  /** Candidate list while searching, at least k (default 128). */
  ef?: number;
  /** Threads for batched adds while loading (default 2). */
  threads?: number;
  /** A graph with at most this many vectors is searched exhaustively (default 2,048). */
  exhaustiveBelow?: number;
  /** An entity type keeps a side graph while it has at most this many vectors (default 16,384). */
  sideGraphMax?: number;
  /** Vectors per shard of the main graph: an owner expected to hold more is split (default 250,000). */
  shardSize?: number;
}

export interface GraphCandidate {
  key: string;
  /** Cosine distance (1 − cosine similarity), as LanceDB reports it. */
  distance: number;
}

export interface GraphFilter {
  /** Only these entity types (absent: every type). */
  entityTypes?: readonly string[] | undefined;
  /** Never these keys (the entity a "related" query starts from). */
  excludeKeys?: readonly string[] | undefined;
}

/** Storage of the vectors inside usearch (2 bytes a dimension). */
export const GRAPH_QUANTIZATION = 'f16';
/** A flush of loaded rows aims at this long, so the event loop is never held for long. */
const FLUSH_TARGET_MS = 4;
const MAX_BATCH = 1_024;
export const DEFAULT_SHARD_SIZE = 250_000;
/**
 * An index below this many vectors takes adds on one thread. usearch 2.26's concurrent add() can
 * strand a node no search reaches (unum-cloud/USearch#735, fix #772 not released): on 3,000 builds
 * of 40 vectors on 2 threads, 30 % had such nodes, so a small owner's "exhaustive" search missed
 * items; on 20,000 vectors about 4 (0.02 %). One thread for the first 4,096 keeps every exhaustively
 * searched graph (≤ exhaustiveBelow, 2,048) whole; above it the threads halve the build time.
 */
export const SERIAL_ADDS_BELOW = 4_096;

/** How many shards a graph of `vectors` vectors is split into. */
export function shardsFor(vectors: number, shardSize = DEFAULT_SHARD_SIZE): number {
  return Math.max(1, Math.ceil(vectors / Math.max(1, shardSize)));
}

export function newUsearchIndex(dimensions: number, m: number, efConstruction: number): Index {
  return new Index({
    dimensions,
    metric: MetricKind.Cos,
    quantization: ScalarKind.F16,
    connectivity: m,
    expansion_add: efConstruction,
    // the search's own `wanted` (max(k, ef)) sets the candidate list, so `ef` can change at will
    expansion_search: 1,
    multi: false,
  });
}

/**
 * One owner's vectors. Keys are the table's keys; labels are usearch's integer keys. A key written
 * (added, replaced or removed) since the build started is `touched`: the builder's rows come from an
 * older snapshot of the table and must not overwrite it.
 */
export class OwnerVectorGraph {
  readonly dimensions: number;
  state: 'building' | 'ready' = 'building';
  /** Candidate list while searching (at least k); benches change it on a built graph. */
  ef: number;
  readonly m: number;
  readonly efConstruction: number;
  private readonly threads: number;
  private readonly exhaustiveBelow: number;
  private readonly sideGraphMax: number;
  private labels = new VectorLabels();
  /** The main graph's shards: a label lives in shard `label % shards.length`. */
  private shards: Index[];
  /** Entity types by index (a label's part), their live counts and side graphs (null: none). */
  private types: string[] = [];
  private counts: number[] = [];
  /** Live vectors per type and shard: a filtered shard asks for what it holds, not an average. */
  private shardCounts: number[][] = [];
  private sides: (Index | null)[] = [];
  private readonly touched = new Set<string>();
  // rows loaded but not yet added, added in batches sized to take about FLUSH_TARGET_MS
  private pendingLabels = new BigUint64Array(32);
  private pendingVectors: Float32Array;
  private pending = 0;
  private batch = 32;
  /** While a snapshot's graphs are saved (one at a time, see freeze), writes wait here, in order. */
  private held: { key: string; entityType: string; vector: Float32Array | null }[] | undefined;

  /** `expectedSize`: how many vectors the owner holds, which sets the number of shards for good. */
  constructor(dimensions: number, settings: VectorGraphSettings = {}, expectedSize = 1_024) {
    this.dimensions = dimensions;
    this.ef = settings.ef ?? 128;
    this.m = settings.m ?? 16;
    this.efConstruction = settings.efConstruction ?? 100;
    this.threads = Math.max(1, settings.threads ?? 2);
    this.exhaustiveBelow = settings.exhaustiveBelow ?? 2_048;
    this.sideGraphMax = settings.sideGraphMax ?? 16_384;
    const shards = shardsFor(expectedSize, settings.shardSize);
    this.shards = Array.from({ length: shards }, () =>
      newUsearchIndex(dimensions, this.m, this.efConstruction),
    );
    this.pendingVectors = new Float32Array(32 * dimensions);
  }

  /** Live vectors in the graph. */
  get size(): number {
    return this.labels.size;
  }

  /** Live vectors, label slots allocated (live + free for reuse), usearch slots, side graphs' vectors, shards. */
  stats(): { live: number; labels: number; capacity: number; inSideGraphs: number; shards: number } {
    this.flush();
    let inSideGraphs = 0;
    for (const s of this.sides) inSideGraphs += s?.size() ?? 0;
    return {
      live: this.labels.size,
      labels: this.labels.keys.length,
      capacity: this.shards.reduce((n, s) => n + s.capacity(), 0),
      inSideGraphs,
      shards: this.shards.length,
    };
  }

  private shardOf(label: number): Index {
    return this.shards[label % this.shards.length]!;
  }

  /** A write the table has taken: the vector (null when the entity was deleted) replaces what was here. */
  applyWrite(key: string, entityType: string, vector: Float32Array | null): void {
    if (this.held) {
      this.held.push({ key, entityType, vector });
      return;
    }
    if (this.state === 'building') this.touched.add(key);
    this.remove(key);
    if (vector === null || !this.accepts(vector)) return;
    const part = this.partOf(entityType);
    const at = this.labels.add(key, part);
    const label = BigInt(at);
    this.shardOf(at).add(label, vector, 1);
    this.counted(part, at, 1);
    this.sides[part]?.add(label, vector, 1);
  }

  /**
   * A row from the builder's snapshot: ignored when a write reached this key since the build began.
   * Rows are added in batches on `threads` threads, each batch sized to take a few milliseconds.
   */
  load(key: string, entityType: string, vector: Float32Array): void {
    if (this.touched.has(key)) return;
    this.remove(key);
    if (!this.accepts(vector)) return;
    const part = this.partOf(entityType);
    const label = this.labels.add(key, part);
    this.counted(part, label, 1);
    if (this.pending === this.pendingLabels.length) {
      const labels = new BigUint64Array(MAX_BATCH);
      labels.set(this.pendingLabels);
      const vectors = new Float32Array(MAX_BATCH * this.dimensions);
      vectors.set(this.pendingVectors);
      this.pendingLabels = labels;
      this.pendingVectors = vectors;
    }
    this.pendingLabels[this.pending] = BigInt(label);
    this.pendingVectors.set(vector, this.pending * this.dimensions);
    this.pending += 1;
    if (this.pending >= this.batch) this.flush();
  }

  /** The snapshot is fully loaded: from now on the graph alone answers for the owner. */
  markReady(): void {
    this.flush();
    // a common type needs no side graph: over-fetching it from the main graph costs little
    for (let p = 0; p < this.types.length; p++)
      if (this.counts[p]! * 4 > this.labels.size) this.sides[p] = null;
    this.state = 'ready';
    this.touched.clear();
    // later writes are added one at a time: the batch buffers (up to 2 MB) can go
    this.pendingLabels = new BigUint64Array(32);
    this.pendingVectors = new Float32Array(32 * this.dimensions);
  }

  remove(key: string): void {
    if (this.held) {
      this.held.push({ key, entityType: '', vector: null }); // a write of no vector removes
      return;
    }
    const at = this.labels.labelOf(key);
    if (at === undefined) return;
    this.flush();
    const part = this.labels.parts[at]!;
    const label = BigInt(this.labels.remove(key)!);
    // usearch frees the slot: the next add reuses it (a reused label lands in the same shard)
    this.shardOf(at).remove(label);
    this.sides[part]?.remove(label);
    this.counted(part, at, -1);
  }

  /** The k nearest live vectors (fewer when the owner has fewer), nearest first. */
  search(vector: Float32Array, k: number, filter: GraphFilter = {}): GraphCandidate[] {
    if (this.labels.size === 0 || k < 1) return [];
    if (vector.length !== this.dimensions) throw new Error(this.dimensionError(vector.length));
    this.flush();
    const excluded = new Set<number>();
    for (const key of filter.excludeKeys ?? []) {
      const label = this.labels.labelOf(key);
      if (label !== undefined) excluded.add(label);
    }
    let parts: number[] | undefined;
    if (filter.entityTypes && filter.entityTypes.length > 0) {
      parts = [];
      for (let p = 0; p < this.types.length; p++)
        if (this.counts[p]! > 0 && filter.entityTypes.includes(this.types[p]!)) parts.push(p);
      if (parts.length === 0) return [];
      if (parts.length === this.counts.filter((c) => c > 0).length) parts = undefined; // every type held
    }
    if (parts?.every((p) => this.sides[p])) {
      // only rare types: their side graphs, merged
      return merged(
        parts.map((p) => this.searchIndex(this.sides[p]!, vector, k, excluded, undefined, 0)),
        k,
      );
    }
    const only = parts && new Set(parts);
    if (this.shards.length === 1) return this.searchIndex(this.shards[0]!, vector, k, excluded, only, 0);
    return merged(
      this.shards.map((s, i) => this.searchIndex(s, vector, k, excluded, only, i)),
      k,
    );
  }

  /**
   * Saves the graph into `dir` (files under temporary names, then renamed), to be opened with
   * `loadFrom` after a restart. Only a ready graph: a building one is not the owner's whole set.
   */
  async saveTo(dir: string): Promise<void> {
    await mkdir(dir, { recursive: true });
    await this.freeze(dir)();
  }

  /**
   * The graph as of now, for a snapshot written while writes go on: returns the writer of its files
   * (see freezeGraphFiles). Call the writer at once: it saves the usearch graphs one at a time with
   * the loop's turn between them, and until the last is saved, writes to the graph wait (searches
   * meanwhile see it as of the freeze) and are then applied in order.
   */
  freeze(dir: string): () => Promise<void> {
    if (this.state !== 'ready') throw new Error('only a ready vector graph can be saved');
    if (this.held) throw new Error('a save of this vector graph is under way');
    this.flush();
    this.held = [];
    try {
      return freezeGraphFiles(
        dir,
        {
          dimensions: this.dimensions,
          quantization: GRAPH_QUANTIZATION,
          m: this.m,
          efConstruction: this.efConstruction,
          labels: this.labels,
          shards: this.shards,
          types: this.types.map((type, p) => ({ type, live: this.counts[p]!, side: this.sides[p]! })),
        },
        () => this.release(),
      );
    } catch (err) {
      this.release();
      throw err;
    }
  }

  /** The graphs are saved: the writes that waited are applied, in order. */
  private release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const w of held) this.applyWrite(w.key, w.entityType, w.vector);
  }

  /**
   * A ready graph from the files `saveTo` wrote. Throws (never crashes) when they are missing,
   * truncated, corrupt, or were built with other dimensions or settings.
   */
  static async loadFrom(
    dir: string,
    dims: number,
    settings: VectorGraphSettings = {},
  ): Promise<OwnerVectorGraph> {
    const g = new OwnerVectorGraph(dims, settings);
    const read = await readGraphFiles(
      dir,
      {
        dimensions: dims,
        quantization: GRAPH_QUANTIZATION,
        m: g.m,
        shardSize: settings.shardSize ?? DEFAULT_SHARD_SIZE,
      },
      (efc) => newUsearchIndex(dims, g.m, efc),
    );
    g.labels = read.labels;
    g.shards = read.shards;
    g.types = read.types.map((t) => t.type);
    g.counts = read.types.map((t) => t.live);
    g.shardCounts = read.types.map(() => new Array<number>(g.shards.length).fill(0));
    for (let label = 0; label < g.labels.keys.length; label++) {
      const part = g.labels.parts[label]!;
      if (part !== 255) g.shardCounts[part]![label % g.shards.length]! += 1;
    }
    g.sides = read.types.map((t) => t.side);
    g.state = 'ready';
    return g;
  }

  /**
   * The nearest in one usearch graph, optionally of some types only: over-fetches by the excluded
   * keys and the types' share, and widens until enough remain; a small graph is searched exhaustively
   * (a candidate list as long as the graph visits every node). `shard`: which shard of the main graph
   * `index` is, for the types' counts (0 for a side graph, which is searched unfiltered).
   */
  private searchIndex(
    index: Index,
    vector: Float32Array,
    k: number,
    excluded: Set<number>,
    parts: Set<number> | undefined,
    shard: number,
  ): GraphCandidate[] {
    const live = index.size();
    if (live === 0) return [];
    let matching = live;
    if (parts) {
      matching = 0;
      for (const p of parts) matching += this.shardCounts[p]![shard]!;
    }
    const want = Math.min(k, matching);
    if (want <= 0) return [];
    const share = matching / live;
    let wanted =
      live <= this.exhaustiveBelow
        ? live
        : Math.max(this.ef, Math.ceil(((want + excluded.size) / share) * 1.5));
    for (;;) {
      const found = index.search(vector, Math.min(wanted, live), 1);
      const out: GraphCandidate[] = [];
      for (let i = 0; i < found.keys.length && out.length < want; i++) {
        const label = Number(found.keys[i]!);
        if (excluded.has(label) || (parts && !parts.has(this.labels.parts[label]!))) continue;
        const key = this.labels.keys[label];
        if (key) out.push({ key, distance: found.distances[i]! });
      }
      if (out.length >= want || wanted >= live) return out;
      wanted *= 4;
    }
  }

  private accepts(vector: Float32Array): boolean {
    if (vector.length !== this.dimensions) throw new Error(this.dimensionError(vector.length));
    // A zero vector (nothing to embed) has no direction: such entities are found by keyword only.
    for (let i = 0; i < vector.length; i++) if (vector[i] !== 0) return true;
    return false;
  }

  private dimensionError(length: number): string {
    return `a ${length}-dimension vector for a ${this.dimensions}-dimension graph`;
  }

  private partOf(entityType: string): number {
    const at = this.types.indexOf(entityType);
    if (at >= 0) return at;
    if (this.types.length >= 255) throw new Error('a vector graph holds at most 255 entity types');
    this.types.push(entityType);
    this.counts.push(0);
    this.shardCounts.push(new Array<number>(this.shards.length).fill(0));
    // a new type starts rare: its side graph follows it until it outgrows sideGraphMax
    this.sides.push(
      this.sideGraphMax > 0 ? newUsearchIndex(this.dimensions, this.m, this.efConstruction) : null,
    );
    return this.types.length - 1;
  }

  private counted(part: number, label: number, by: number): void {
    this.shardCounts[part]![label % this.shards.length]! += by;
    const count = (this.counts[part]! += by);
    // outgrown (too many, or past the first thousand and a quarter of the owner): the side graph goes
    // for good, until the next build; the main graph filters instead. So a common type is not
    // added twice for long while the builder streams the rows in.
    if (count > this.sideGraphMax || (count > 1_024 && count * 4 > this.labels.size)) this.sides[part] = null;
  }

  /** Adds a batch, on one thread while the index is small (see SERIAL_ADDS_BELOW). */
  private addTo(index: Index, labels: BigUint64Array, vectors: Float32Array): void {
    const serial = Math.min(labels.length, Math.max(0, SERIAL_ADDS_BELOW - index.size()));
    if (serial > 0) index.add(labels.subarray(0, serial), vectors.subarray(0, serial * this.dimensions), 1);
    if (serial < labels.length) {
      index.add(labels.subarray(serial), vectors.subarray(serial * this.dimensions), this.threads);
    }
  }

  private flush(): void {
    const n = this.pending;
    if (n === 0) return;
    this.pending = 0;
    const started = performance.now();
    const labels = this.pendingLabels.subarray(0, n);
    const vectors = this.pendingVectors.subarray(0, n * this.dimensions);
    const addSome = (index: Index, pick: (label: number) => boolean) => {
      const mine: number[] = [];
      for (let i = 0; i < n; i++) if (pick(Number(labels[i]!))) mine.push(i);
      if (mine.length === n) return this.addTo(index, labels, vectors);
      if (mine.length === 0) return;
      const some = new Float32Array(mine.length * this.dimensions);
      mine.forEach((i, j) =>
        some.set(vectors.subarray(i * this.dimensions, (i + 1) * this.dimensions), j * this.dimensions),
      );
      this.addTo(
        index,
        BigUint64Array.from(mine, (i) => labels[i]!),
        some,
      );
    };
    const shards = this.shards.length;
    this.shards.forEach((shard, s) => addSome(shard, (label) => label % shards === s));
    for (let p = 0; p < this.sides.length; p++) {
      const side = this.sides[p];
      if (side) addSome(side, (label) => this.labels.parts[label] === p);
    }
    // size the next batch so a flush takes about FLUSH_TARGET_MS (the graph's cost per add grows slowly)
    const perVector = (performance.now() - started) / n;
    if (n >= this.batch / 2) {
      this.batch = Math.max(8, Math.min(MAX_BATCH, Math.floor(FLUSH_TARGET_MS / Math.max(perVector, 1e-4))));
    }
  }
}

/** The k nearest of several graphs' answers (each nearest first). */
function merged(lists: GraphCandidate[][], k: number): GraphCandidate[] {
  if (lists.length === 1) return lists[0]!.slice(0, k);
  return lists
    .flat()
    .sort((a, b) => a.distance - b.distance)
    .slice(0, k);
}
