// The search index port: one user's documents and inventory items, searchable by keyword (BM25),
// by meaning (vector kNN) and both (reciprocal rank fusion). Adapters: LanceDB embedded on one
// machine (lancedb-search-index.ts), Elasticsearch on a cluster (elasticsearch-search-index.ts).
// Every adapter passes the one contract suite, tests/contract/support/search-index-contract.ts
// (`describeSearchIndexContract(name, factory)`; e.g. tests/contract/search-index.lancedb.contract.test.ts).

export type IndexedEntityType = 'document' | 'inventory_item';

export interface IndexedPassage {
  text: string;
  /** Character offsets in the entity's extracted text. */
  start: number;
  end: number;
  vector: Float32Array;
}

/** What the index keeps of a catalogue entity (built from a catalogue.changed payload). */
export interface IndexedEntity {
  entityType: IndexedEntityType;
  id: string;
  ownerId: string;
  /** The catalogue version: an upsert or delete with a version ≤ the stored one is ignored. */
  version: number;
  /** Document title or inventory item name. */
  title: string;
  /** Document summary or inventory item description. */
  description: string;
  /** Extracted text (the adapter may cap what it stores for keyword search). */
  content: string;
  category: string;
  hashtags: string[];
  /** Other text fields searchable by keyword: author, field, thesis, material, colour, … */
  keywords: string[];
  /** Documents: the download path; inventory items: '' */
  url: string;
  imageUrl: string;
  createdAt: Date;
  updatedAt: Date;
  /** The entity's embedding; length = the index's dimensions. */
  vector: Float32Array;
  /** Documents' passages (chunks with vectors); [] for inventory items. */
  passages: IndexedPassage[];
  /** Inventory items with a photo: its image-model vector (kept in the image index, image-index.port.ts). */
  image?: { vector: Float32Array; model: string };
}

/**
 * keyword: BM25 only. semantic: vector kNN only (the API's `vector`). hybrid: RRF (k = 60) of both
 * (the API's `semantic` and `hybrid`).
 */
export type SearchMode = 'keyword' | 'semantic' | 'hybrid';

export interface SearchQuery {
  /** Always required: results are only ever this owner's. */
  ownerId: string;
  /** Trimmed, non-empty: the caller validates. Used by keyword and hybrid. */
  text: string;
  /** The query embedding: required for semantic and hybrid. */
  vector?: Float32Array;
  mode: SearchMode;
  /** Empty or absent: both types. */
  entityTypes?: IndexedEntityType[];
  /** Exact match. */
  category?: string;
  /** Entity must carry every one of these tags (case-insensitive, a leading '#' ignored). */
  hashtags?: string[];
  /**
   * Only these entities of the owner's (a kaboodle's members, resolved by the search service); an
   * empty list matches nothing. Absent: no such restriction.
   */
  only?: MemberRef[];
  /** 1..100 (the caller validates; adapters clamp anything else into 1..100 too). */
  limit: number;
  /** Return the best-matching passage per document as `excerpt` (vector + keyword over passages). */
  withExcerpts?: boolean;
}

export interface SearchHit {
  entityType: IndexedEntityType;
  id: string;
  title: string;
  description: string;
  /** The start of the content (a few hundred characters), for display. */
  content: string;
  url: string;
  imageUrl: string;
  category: string;
  hashtags: string[];
  /**
   * In [0, 1], higher is better, comparable within one result list. semantic: cosine similarity
   * (clamped at 0); keyword: BM25 / the list's best BM25; hybrid: RRF sum / the best achievable sum
   * over the lists that returned anything (first in both lists = 1).
   */
  score: number;
  /**
   * The engine's own score before any scaling: the BM25 score (keyword), the cosine similarity
   * (semantic); absent from the adapter's RRF (hybrid). Absolute, so comparable across queries:
   * the search service calibrates match percentages from it.
   */
  raw?: number;
  /** Best-matching passage, when asked for and there is one. */
  excerpt?: string;
}

/** An entity in a ranked list without its display fields (`SearchIndex.searchKeys`). */
export interface RankedRef {
  entityType: IndexedEntityType;
  id: string;
  /** As `SearchHit.score`. */
  score: number;
  /** As `SearchHit.raw`. */
  raw?: number;
}

export interface HitsQuery {
  /** Only this owner's entities come back. */
  ownerId: string;
  /** In the order wanted; each hit keeps its ref's score and raw. */
  refs: RankedRef[];
  /** Each document's best passage for this query, as `excerpt` (as `SearchQuery.withExcerpts`). */
  excerptsFor?: { text: string; vector?: Float32Array };
}

export interface RelatedQuery {
  ownerId: string;
  entityType: IndexedEntityType;
  id: string;
  /** 1..50 */
  limit: number;
  /** Minimum cosine similarity (default 0). */
  minSimilarity?: number;
}

/** A document or inventory item, named without its owner (the query or kaboodle carries it). */
export interface MemberRef {
  entityType: IndexedEntityType;
  id: string;
}

/** A smart kaboodle's saved search, as the catalogue keeps it (searchType as the API takes it). */
export interface SavedSearch {
  query: string;
  searchType: 'semantic' | 'keyword' | 'hybrid';
  /** Empty: both. */
  entityTypes: IndexedEntityType[];
  category?: string;
  /** Only within this (plain) kaboodle. */
  kaboodleId?: string;
}

/**
 * A kaboodle as the index keeps it (from catalogue.changed or a rebuild), so a search can be limited
 * to its members: its own members in order, or, for a smart kaboodle, the search that makes them.
 */
export interface IndexedKaboodle {
  ownerId: string;
  id: string;
  /** The catalogue version: an upsert or delete with a version ≤ the stored one is ignored. */
  version: number;
  /** In the owner's order; [] for a smart kaboodle. */
  members: MemberRef[];
  smart?: SavedSearch;
  updatedAt: Date;
}

export interface KaboodleRef {
  ownerId: string;
  id: string;
  version: number;
}

/**
 * Kaboodle memberships beside the entities, with the same guarantees: version-guarded writes,
 * remembered deletes, one owner's never seen by another, and gone with their owner (deleteOwner).
 */
export interface KaboodleIndex {
  upsert(kaboodles: IndexedKaboodle[]): Promise<UpsertOutcome>;
  delete(refs: KaboodleRef[]): Promise<UpsertOutcome>;
  /** The owner's kaboodle, or undefined (missing, deleted, or another owner's). */
  get(ownerId: string, id: string): Promise<IndexedKaboodle | undefined>;
  /** Every live kaboodle changed before `updatedBefore`, in batches (a rebuild prunes the gone). */
  listLive(options: { updatedBefore: Date; batchSize?: number }): AsyncIterable<KaboodleRef[]>;
}

export interface EntityRef {
  entityType: IndexedEntityType;
  id: string;
  ownerId: string;
  version: number;
}

export interface UpsertOutcome {
  /** Written or replaced. */
  applied: number;
  /** Ignored because the index already holds that version or a later one (or a later delete). */
  stale: number;
}

export interface IndexStats {
  entities: number;
  /**
   * Bytes on disk (embedded) or store size (Elasticsearch). With an owner: an estimate computed
   * from that owner's entities alone, so it never moves when another user writes.
   */
  sizeBytes: number;
}

export interface SearchIndex {
  readonly kind: 'lancedb' | 'elasticsearch';
  readonly dimensions: number;
  /** Create tables / templates / aliases when missing. Idempotent. */
  open(): Promise<void>;
  /**
   * Version-guarded bulk upsert; applies with back-pressure (resolves when durable and searchable).
   * Rejects (InputError) a vector whose length is not `dimensions`. The same entity twice in one call:
   * the highest version wins, the others count as stale.
   */
  upsert(entities: IndexedEntity[]): Promise<UpsertOutcome>;
  /** Version-guarded delete; remembers the version so a late, older upsert does not resurrect it. */
  delete(refs: EntityRef[]): Promise<UpsertOutcome>;
  /** Remove everything of one owner (user deleted), kaboodles included. */
  deleteOwner(ownerId: string): Promise<void>;
  search(query: SearchQuery): Promise<SearchHit[]>;
  /**
   * The ranking `search` gives (its `withExcerpts` ignored) without reading any display field, for
   * a caller that fuses lists and then reads only the page it shows with `hitsOf`: a hybrid page of
   * 20 fused from two lists of 60 reads 20 rows, not 120.
   */
  searchKeys(query: SearchQuery): Promise<RankedRef[]>;
  /**
   * These entities' display hits, in the refs' order, each with its ref's score and raw. A ref to
   * a missing, deleted or another owner's entity is left out.
   */
  hitsOf(query: HitsQuery): Promise<SearchHit[]>;
  /**
   * Vector neighbours of one entity across documents and inventory items (never itself), scored by
   * cosine similarity. Throws NotFoundError when the entity is not this owner's (or is deleted).
   */
  related(query: RelatedQuery): Promise<SearchHit[]>;
  /** The stored version of an entity, or undefined (deleted entities answer undefined). */
  versionOf(ref: Omit<EntityRef, 'version'>): Promise<number | undefined>;
  /**
   * The whole index's live entities and size, or one owner's share. An owner's share may read every
   * one of the owner's entities (the embedded index sums their text): not for every search.
   */
  stats(ownerId?: string): Promise<IndexStats>;
  /**
   * The owner's live entities, as `stats(ownerId).entities`, cheaply enough to ask per search: the
   * embedded index counts once per owner and moves the count with writes, Elasticsearch counts.
   */
  entityCount(ownerId: string): Promise<number>;
  /**
   * Every live (not deleted) entity of every owner whose `updatedAt` is before `updatedBefore`, in
   * batches: a rebuild deletes those the catalogue no longer has. Entities written while it runs may
   * or may not appear.
   */
  listLive(options: { updatedBefore: Date; batchSize?: number }): AsyncIterable<EntityRef[]>;
  /** Kaboodle memberships (a search's `only` comes from them). */
  readonly kaboodles: KaboodleIndex;
  ping(): Promise<void>;
  close(): Promise<void>;
}
