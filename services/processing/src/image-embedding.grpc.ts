// kaboodle.processing.v1.ImageEmbeddingService: EmbedImage for the search service's "find an item by
// photo" when it runs apart from processing (in one process it calls the module's imageEmbedder).
import { implementGrpcService, InputError } from '@kaboodle/platform';
import type { GrpcServiceRegistration } from '@kaboodle/platform';
import { ImageEmbeddingService } from '@kaboodle/proto';
import type { ImageEmbedder } from './vision/index.ts';
import { ImageRejectedError } from './vision/image-rejected.ts';

/** The proto's limit: a photo as uploads allow it. */
export const MAX_EMBED_IMAGE_BYTES = 20 * 1024 * 1024;

export function createImageEmbeddingGrpcService(embedder: ImageEmbedder): GrpcServiceRegistration {
  return implementGrpcService(
    ImageEmbeddingService,
    {
      async embedImage(request, ctx) {
        const bytes = request.image;
        if (bytes.length === 0) throw new InputError('EmbedImage needs the photo bytes.');
        if (bytes.length > MAX_EMBED_IMAGE_BYTES) throw new InputError('The photo is larger than 20 MB.');
        try {
          const vector = await embedder.embed(bytes, { signal: ctx.signal });
          return {
            vector: { values: Array.from(vector) },
            provider: embedder.provider,
            model: embedder.model,
            dimensions: vector.length,
          };
        } catch (err) {
          // a picture that cannot be read is the caller's to fix (400 at the HTTP edge)
          if (err instanceof ImageRejectedError) throw new InputError(err.message, { cause: err });
          throw err;
        }
      },
    },
    // Find-by-photo embeddings are for the search service only (checked per call under mTLS).
    { EmbedImage: ['search'] },
  );
}
