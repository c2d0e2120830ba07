// An owner's entity vectors as an in-memory HNSW graph (hnswlib-node), beside the LanceDB table that
// stays the store of record. On the 100k bench a LanceDB kNN costs ~12–18 ms whatever its settings;
// this graph answers the same query in well under a millisecond (docs/services/search.md,
// "In-memory index for large owners"; figures in docs/benchmarks/2026-11-22-search-index.md). The adapter
// builds one per large owner from the table, applies every write to it after the table has taken it, and
// falls back to the table while it is being built.
// The graph itself is the library's (hnswlib-node, the C++ hnswlib); what is ours is only the
// per-owner bookkeeping around it (which ids are live, rebuilds), which no library knows about.
import hnswlib from 'hnswlib-node';

const { HierarchicalNSW } = hnswlib;

export interface VectorGraphSettings {
  /** HNSW links per node (default 16). */
  m?: number;
  /** Candidate list while inserting (default 100). */
  efConstruction?: number;
  /** Candidate list while searching, at least k (default 128). */
  ef?: number;
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

/**
 * One owner's vectors. Keys are the table's keys; labels are the graph's integer ids. A key written
 * (added, replaced or removed) since the build started is `touched`: the builder's rows come from an
 * older snapshot of the table and must not overwrite it.
 */
export class OwnerVectorGraph {
  readonly dimensions: number;
  state: 'building' | 'ready' = 'building';
  private readonly index: InstanceType<typeof HierarchicalNSW>;
  private readonly labelOf = new Map<string, number>();
  private readonly keyOf = new Map<number, string>();
  private readonly typeOf = new Map<number, string>();
  private readonly touched = new Set<string>();
  private nextLabel = 0;
  private deletedSlots = 0;
  /** Candidate list while searching (at least k); benches change it on a built graph. */
  ef: number;

  constructor(dimensions: number, settings: VectorGraphSettings = {}, initialCapacity = 1_024) {
    this.dimensions = dimensions;
    this.ef = settings.ef ?? 128;
    this.index = new HierarchicalNSW('cosine', dimensions);
    this.index.initIndex({
      maxElements: Math.max(16, initialCapacity),
      m: settings.m ?? 16,
      efConstruction: settings.efConstruction ?? 100,
      randomSeed: 100,
      allowReplaceDeleted: true,
    });
  }

  /** Live vectors in the graph. */
  get size(): number {
    return this.labelOf.size;
  }

  /** A write the table has taken: the vector (null when the entity was deleted) replaces what was here. */
  applyWrite(key: string, entityType: string, vector: Float32Array | null): void {
    if (this.state === 'building') this.touched.add(key);
    this.put(key, entityType, vector);
  }

  /** A row from the builder's snapshot: ignored when a write reached this key since the build began. */
  load(key: string, entityType: string, vector: Float32Array): void {
    if (this.touched.has(key)) return;
    this.put(key, entityType, vector);
  }

  /** The snapshot is fully loaded: from now on the graph alone answers for the owner. */
  markReady(): void {
    this.state = 'ready';
    this.touched.clear();
  }

  remove(key: string): void {
    const label = this.labelOf.get(key);
    if (label === undefined) return;
    this.index.markDelete(label);
    this.labelOf.delete(key);
    this.keyOf.delete(label);
    this.typeOf.delete(label);
    this.deletedSlots += 1;
  }

  /** The k nearest live vectors (fewer when the owner has fewer), nearest first. */
  search(vector: Float32Array, k: number, filter: GraphFilter = {}): GraphCandidate[] {
    const live = this.labelOf.size;
    if (live === 0 || k < 1) return [];
    const types =
      filter.entityTypes && filter.entityTypes.length > 0 ? new Set(filter.entityTypes) : undefined;
    const excluded = new Set<number>();
    for (const key of filter.excludeKeys ?? []) {
      const label = this.labelOf.get(key);
      if (label !== undefined) excluded.add(label);
    }
    const filtering = types !== undefined || excluded.size > 0;
    const want = Math.min(k, live);
    this.index.setEf(Math.max(this.ef, want));
    const query = Array.from(vector);
    const result = filtering
      ? this.index.searchKnn(query, want, (label) => {
          if (excluded.has(label)) return false;
          return types === undefined || types.has(this.typeOf.get(label) ?? '');
        })
      : this.index.searchKnn(query, want);
    const out: GraphCandidate[] = [];
    for (let i = 0; i < result.neighbors.length; i++) {
      const key = this.keyOf.get(result.neighbors[i]!);
      if (key !== undefined) out.push({ key, distance: result.distances[i]! });
    }
    return out;
  }

  private put(key: string, entityType: string, vector: Float32Array | null): void {
    if (vector !== null && vector.length !== this.dimensions)
      throw new Error(`a ${vector.length}-dimension vector for a ${this.dimensions}-dimension graph`);
    this.remove(key);
    // A zero vector (nothing to embed) has no direction: such entities are found by keyword only.
    if (vector === null || !hasDirection(vector)) return;
    const reuse = this.deletedSlots > 0;
    if (!reuse && this.index.getCurrentCount() >= this.index.getMaxElements()) {
      this.index.resizeIndex(this.index.getMaxElements() * 2);
    }
    const label = this.nextLabel++;
    this.index.addPoint(Array.from(vector), label, reuse);
    if (reuse) this.deletedSlots -= 1;
    this.labelOf.set(key, label);
    this.keyOf.set(label, key);
    this.typeOf.set(label, entityType);
  }
}

function hasDirection(v: Float32Array): boolean {
  for (let i = 0; i < v.length; i++) if (v[i] !== 0) return true;
  return false;
}
