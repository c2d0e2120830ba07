// "Find an item by photo" and image neighbours: the photo becomes a vector with processing's image
// model, and the image index ranks the owner's items by cosine similarity. The owner id comes from the
// verified token; the image index filters by it, so nobody's photos are compared with another's.
import { performance } from 'node:perf_hooks';
import { UnavailableError } from '@kaboodle/platform';
import type { ImageIndex } from './index/image-index.port.ts';
import type { IndexedEntityType, SearchHit } from './index/search-index.port.ts';

export interface PhotoSearchDeps {
  /** The open image index; throws UnavailableError until it is open. */
  images: () => ImageIndex;
  embedImage(bytes: Uint8Array, signal?: AbortSignal): Promise<Float32Array>;
}

export interface PhotoMatches {
  results: SearchHit[];
  model: string;
  timing: { embed: number; index: number };
}

export function createPhotoSearch(deps: PhotoSearchDeps) {
  return {
    async findByPhoto(
      ownerId: string,
      bytes: Uint8Array,
      limit: number,
      signal?: AbortSignal,
    ): Promise<PhotoMatches> {
      const images = deps.images();
      let t = performance.now();
      const vector = await deps.embedImage(bytes, signal);
      const embed = performance.now() - t;
      if (vector.length !== images.dimensions) {
        throw new UnavailableError(
          'The photo model changed; the photo index is being rebuilt. Try again shortly.',
        );
      }
      t = performance.now();
      const results = await images.search({ ownerId, vector, limit });
      return { results, model: images.model, timing: { embed, index: performance.now() - t } };
    },

    /** Items whose photos look like this one's ([] when it has no photo vector or is not the owner's). */
    async neighbours(
      ownerId: string,
      ref: { type: IndexedEntityType; id: string },
      limit: number,
    ): Promise<SearchHit[]> {
      const images = deps.images();
      const vector = await images.vectorOf({ ownerId, entityType: ref.type, id: ref.id });
      if (!vector) return [];
      return images.search({ ownerId, vector, limit, exclude: { entityType: ref.type, id: ref.id } });
    },
  };
}

export type PhotoSearch = ReturnType<typeof createPhotoSearch>;
