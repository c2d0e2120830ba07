// An owner's entity vectors as in-memory HNSW graphs (usearch), beside the LanceDB table that stays
// the store of record. A LanceDB kNN costs ~12–18 ms on the 100k bench; these graphs answer in well
// under a millisecond (docs/services/search.md, "In-memory index for large owners"). The adapter
// builds one per large owner from the table, applies every write to it after the table has taken it,
// and falls back to the table while it is being built; a built graph can be saved and opened again
// (vector-graph-files.ts) so a restart does not rebuild it.
// Why usearch with f16: on 100k clustered 512-d unit vectors it builds 2.8× faster than hnswlib
// (multi-threaded batch adds), answers as fast at recall@10 0.999 and holds half the memory (2 bytes
// a dimension). i8 (even with vectors pre-scaled to the full int range) loses recall on unit
// vectors, and re-ranking it exactly would need a second copy of the vectors: f16 alone is smaller.
// One graph per entity type: usearch has no filter callback, so a type filter searches just that
// type's graph (exact, and a rare type is never drowned by the common one); excluded keys are
// over-fetched and the search widened until enough remain; a small graph is searched exhaustively.
import { Index, MetricKind, ScalarKind } from 'usearch';
import { readGraphFiles, writeGraphFiles } from './vector-graph-files.ts';
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
  /** A type's graph with at most this many vectors is searched exhaustively (default 2,048). */
  exhaustiveBelow?: number;
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
const FLUSH_TARGET_MS = 3;
const MAX_BATCH = 1_024;

/** One entity type's graph and the rows loaded for it but not yet added. */
export interface TypeGraph {
  type: string;
  index: Index;
  pendingLabels: BigUint64Array;
  pendingVectors: Float32Array;
  pending: number;
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
  private labels = new VectorLabels();
  private graphs: TypeGraph[] = [];
  private readonly touched = new Set<string>();
  private batch = 32;

  constructor(dimensions: number, settings: VectorGraphSettings = {}, _initialCapacity = 1_024) {
    this.dimensions = dimensions;
    this.ef = settings.ef ?? 128;
    this.m = settings.m ?? 16;
    this.efConstruction = settings.efConstruction ?? 100;
    this.threads = Math.max(1, settings.threads ?? 2);
    this.exhaustiveBelow = settings.exhaustiveBelow ?? 2_048;
  }

  /** Live vectors in the graph. */
  get size(): number {
    return this.labels.size;
  }

  /** Live vectors, label slots allocated (live + free for reuse) and usearch's slots across types. */
  stats(): { live: number; labels: number; capacity: number } {
    this.flush();
    let capacity = 0;
    for (const g of this.graphs) capacity += g.index.capacity();
    return { live: this.labels.size, labels: this.labels.keys.length, capacity };
  }

  /** A write the table has taken: the vector (null when the entity was deleted) replaces what was here. */
  applyWrite(key: string, entityType: string, vector: Float32Array | null): void {
    if (this.state === 'building') this.touched.add(key);
    this.flush();
    this.remove(key);
    if (vector !== null && this.accepts(vector)) {
      const part = this.partOf(entityType);
      const label = this.labels.add(key, part);
      this.graphs[part]!.index.add(BigInt(label), vector, 1);
    }
  }

  /**
   * A row from the builder's snapshot: ignored when a write reached this key since the build began.
   * Rows are added in batches on `threads` threads, each batch sized to take a few milliseconds.
   */
  load(key: string, entityType: string, vector: Float32Array): void {
    if (this.touched.has(key)) return;
    if (this.labels.labelOf(key) !== undefined) this.remove(key);
    if (!this.accepts(vector)) return;
    const part = this.partOf(entityType);
    const g = this.graphs[part]!;
    const label = this.labels.add(key, part);
    if (g.pending === g.pendingLabels.length) {
      const labels = new BigUint64Array(MAX_BATCH);
      labels.set(g.pendingLabels);
      const vectors = new Float32Array(MAX_BATCH * this.dimensions);
      vectors.set(g.pendingVectors);
      g.pendingLabels = labels;
      g.pendingVectors = vectors;
    }
    g.pendingLabels[g.pending] = BigInt(label);
    g.pendingVectors.set(vector, g.pending * this.dimensions);
    g.pending += 1;
    if (g.pending >= this.batch) this.flushGraph(g);
  }

  /** The snapshot is fully loaded: from now on the graph alone answers for the owner. */
  markReady(): void {
    this.flush();
    this.state = 'ready';
    this.touched.clear();
  }

  remove(key: string): void {
    if (this.labels.labelOf(key) === undefined) return;
    this.flush();
    const part = this.labels.parts[this.labels.labelOf(key)!]!;
    const label = this.labels.remove(key)!;
    // usearch frees the slot: the next add reuses it
    this.graphs[part]!.index.remove(BigInt(label));
  }

  /** The k nearest live vectors (fewer when the owner has fewer), nearest first. */
  search(vector: Float32Array, k: number, filter: GraphFilter = {}): GraphCandidate[] {
    if (this.labels.size === 0 || k < 1) return [];
    if (vector.length !== this.dimensions) throw new Error(this.dimensionError(vector.length));
    this.flush();
    const types =
      filter.entityTypes && filter.entityTypes.length > 0 ? new Set(filter.entityTypes) : undefined;
    const excluded = new Set<number>();
    for (const key of filter.excludeKeys ?? []) {
      const label = this.labels.labelOf(key);
      if (label !== undefined) excluded.add(label);
    }
    const out: GraphCandidate[] = [];
    for (const g of this.graphs) {
      if (types && !types.has(g.type)) continue;
      for (const c of this.searchGraph(g, vector, k, excluded)) out.push(c);
    }
    if (out.length > k || this.graphs.length > 1) out.sort((a, b) => a.distance - b.distance);
    return out.length > k ? out.slice(0, k) : out;
  }

  /**
   * Saves the graph into `dir` (files under temporary names, then renamed), to be opened with
   * `loadFrom` after a restart. Only a ready graph: a building one is not the owner's whole set.
   */
  async saveTo(dir: string): Promise<void> {
    if (this.state !== 'ready') throw new Error('only a ready vector graph can be saved');
    this.flush();
    await writeGraphFiles(dir, {
      dimensions: this.dimensions,
      quantization: GRAPH_QUANTIZATION,
      m: this.m,
      efConstruction: this.efConstruction,
      labels: this.labels,
      graphs: this.graphs,
    });
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
      { dimensions: dims, quantization: GRAPH_QUANTIZATION, m: g.m },
      (efc) => newUsearchIndex(dims, g.m, efc),
    );
    g.labels = read.labels;
    g.graphs = read.graphs.map(({ type, index }) => g.emptyPending(type, index));
    g.state = 'ready';
    return g;
  }

  /** Nearest of one type's graph: over-fetches by the excluded keys and widens until k remain. */
  private searchGraph(
    g: TypeGraph,
    vector: Float32Array,
    k: number,
    excluded: Set<number>,
  ): GraphCandidate[] {
    const live = g.index.size();
    if (live === 0) return [];
    const want = Math.min(k, live);
    // A small graph is searched exhaustively: a candidate list as long as the graph visits every node.
    let wanted = live <= this.exhaustiveBelow ? live : Math.max(this.ef, want + excluded.size);
    for (;;) {
      const found = g.index.search(vector, Math.min(wanted, live), 1);
      const out: GraphCandidate[] = [];
      for (let i = 0; i < found.keys.length && out.length < want; i++) {
        const label = Number(found.keys[i]!);
        if (excluded.has(label)) continue;
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
    const at = this.graphs.findIndex((g) => g.type === entityType);
    if (at >= 0) return at;
    if (this.graphs.length >= 255) throw new Error('a vector graph holds at most 255 entity types');
    const index = newUsearchIndex(this.dimensions, this.m, this.efConstruction);
    this.graphs.push(this.emptyPending(entityType, index));
    return this.graphs.length - 1;
  }

  private emptyPending(type: string, index: Index): TypeGraph {
    return {
      type,
      index,
      pendingLabels: new BigUint64Array(32),
      pendingVectors: new Float32Array(32 * this.dimensions),
      pending: 0,
    };
  }

  private flush(): void {
    for (const g of this.graphs) if (g.pending > 0) this.flushGraph(g);
  }

  private flushGraph(g: TypeGraph): void {
    const n = g.pending;
    g.pending = 0;
    const started = performance.now();
    g.index.add(
      g.pendingLabels.subarray(0, n),
      g.pendingVectors.subarray(0, n * this.dimensions),
      this.threads,
    );
    // size the next batch so a flush takes about FLUSH_TARGET_MS (the graph's cost per add grows slowly)
    const perVector = (performance.now() - started) / n;
    if (n >= this.batch / 2) {
      this.batch = Math.max(8, Math.min(MAX_BATCH, Math.floor(FLUSH_TARGET_MS / Math.max(perVector, 1e-4))));
    }
  }
}
