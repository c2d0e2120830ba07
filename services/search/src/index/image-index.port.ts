// The image vector index port: a second vector per inventory item (what its photo looks like), for
// "find an item by photo" and image neighbours. Kept beside the text index, not in it: the image
// model and its size change on their own schedule, so a new image model re-fills this index alone.
// Adapters: LanceDB (lancedb-image-index.ts, a table beside the text table) and Elasticsearch
// (elasticsearch-image-index.ts, an index with a dense_vector field). Both pass one contract suite,
// tests/contract/support/image-index-contract.ts.
import type { EntityRef, IndexedEntityType, SearchHit, UpsertOutcome } from './search-index.port.ts';

/** One entity's photo vector with what a hit shows (written with the text index, same version). */
export interface ImageRecord {
  entityType: IndexedEntityType;
  id: string;
  ownerId: string;
  version: number;
  /** The image model that made the vector (vectors of other models are never compared). */
  model: string;
  /** Unit length; `dimensions` long. */
  vector: Float32Array;
  title: string;
  description: string;
  category: string;
  imageUrl: string;
  hashtags: string[];
}

export interface ImageQuery {
  /** Always required: results are only ever this owner's. */
  ownerId: string;
  vector: Float32Array;
  /** 1..100 */
  limit: number;
  /** Leave this entity out (neighbours of an item never include itself). */
  exclude?: { entityType: IndexedEntityType; id: string };
  /** Minimum cosine similarity (default 0). */
  minSimilarity?: number;
}

export interface ImageIndex {
  readonly kind: 'lancedb' | 'elasticsearch';
  readonly dimensions: number;
  /** The model whose vectors this index holds. */
  readonly model: string;
  /**
   * After open(): true when this open made the index (none was there, or the one there held another
   * model's or size's vectors and was started over), so it must be filled from the catalogue. False
   * for an index that was already there, even an empty one: a library without photos has none.
   */
  readonly created: boolean;
  open(): Promise<void>;
  /**
   * Version-guarded: a record whose version is not above the stored one (or a later delete) is
   * stale. A record of another model or size is refused (InputError).
   */
  upsert(records: ImageRecord[]): Promise<UpsertOutcome>;
  /** Version-guarded delete (remembers the version, so a late older upsert stays out). */
  delete(refs: EntityRef[]): Promise<UpsertOutcome>;
  deleteOwner(ownerId: string): Promise<void>;
  /** The owner's photos nearest to `vector`, scored by cosine similarity in [0, 1]. */
  search(query: ImageQuery): Promise<SearchHit[]>;
  /** The stored vector of one of the owner's entities, or undefined. */
  vectorOf(ref: Omit<EntityRef, 'version'>): Promise<Float32Array | undefined>;
  count(ownerId?: string): Promise<number>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
