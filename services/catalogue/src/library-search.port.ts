// What the catalogue asks of the search service: the current results of a smart kaboodle's saved
// search, vector neighbours for recommendations and near-duplicates, and the index's size for the
// observatory. In `--target=all` the search module answers in-process; a catalogue running without
// it gets `undefined` and says so (smart kaboodles answer 503, insights leave those parts empty).
import type { EntityKind } from './activity.repository.ts';

export type SmartSearchType = 'semantic' | 'keyword' | 'hybrid';

export interface LibraryHit {
  type: EntityKind;
  id: string;
  /** In [0, 1], higher is better. */
  score: number;
}

export interface LibrarySearchQuery {
  query: string;
  searchType: SmartSearchType;
  /** Empty: documents and inventory items. */
  types: EntityKind[];
  category?: string;
  /** Only members of this kaboodle (NotFoundError when the index has no such kaboodle of the owner's). */
  kaboodleId?: string;
  /** 1..100 */
  limit: number;
}

export interface LibrarySearch {
  search(ownerId: string, q: LibrarySearchQuery): Promise<LibraryHit[]>;
  /** Neighbours of one entity (never itself); [] when it is not (yet) indexed. */
  related(
    ownerId: string,
    ref: { type: EntityKind; id: string },
    limit: number,
    minSimilarity?: number,
  ): Promise<LibraryHit[]>;
  indexStats(ownerId: string): Promise<{ entities: number; sizeBytes: number }>;
}

/** Resolves the search service lazily (the modules start in dependency order, search after us). */
export type LibrarySearchHandle = () => LibrarySearch | undefined;
