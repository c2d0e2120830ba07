// kaboodle.processing.v1.ProcessingService on the platform gRPC kit: Embed for the search service's
// query vectors, Analyze for a stored file (the same analyzer the file.uploaded consumer uses).
import { Metadata, status as Status } from '@grpc/grpc-js';
import {
  assertSafeKey,
  ERROR_CLASS_KEY,
  ERROR_DETAILS_KEY,
  implementGrpcService,
  InputError,
  NotFoundError,
} from '@kaboodle/platform';
import type { BlobStore, GrpcServiceRegistration } from '@kaboodle/platform';
import { Destination, ProcessingService } from '@kaboodle/proto';
import type { Analyzer, Destination as AnalyzerDestination } from './analyze/index.ts';
import type { TextEmbedder } from './embed/index.ts';
import type { TagUse } from './enrich/index.ts';
import { ExtractionError } from './extract/extractor.ts';

export interface ProcessingGrpcDeps {
  analyzer: Analyzer;
  embedder: TextEmbedder;
  blobs: BlobStore;
}

/** The proto's limits on Embed. */
export const MAX_EMBED_TEXTS = 256;
export const MAX_EMBED_TEXT_CHARS = 100_000;
/** More tags than any user keeps; the enrichers look at the most used 100 anyway. */
export const MAX_EXISTING_TAGS = 10_000;

const DESTINATIONS: Record<number, AnalyzerDestination> = {
  [Destination.UNSPECIFIED]: 'auto',
  [Destination.AUTO]: 'auto',
  [Destination.DOCUMENT]: 'document',
  [Destination.INVENTORY]: 'inventory',
};

/**
 * A file that cannot be processed is the caller's to report, not a server fault: FAILED_PRECONDITION
 * with the user-readable reason (the kit maps 422 to INTERNAL, which would hide it).
 */
function extractionStatus(err: ExtractionError): { code: number; details: string; metadata: Metadata } {
  const metadata = new Metadata();
  metadata.set(ERROR_CLASS_KEY, 'ExtractionError');
  metadata.set(ERROR_DETAILS_KEY, Buffer.from(JSON.stringify({ code: err.code })));
  const code =
    err.code === 'too_large'
      ? Status.RESOURCE_EXHAUSTED
      : err.code === 'aborted'
        ? Status.CANCELLED
        : err.code === 'timeout'
          ? Status.DEADLINE_EXCEEDED
          : Status.FAILED_PRECONDITION;
  return { code, details: err.message, metadata };
}

/** The user's tags as the analyzer takes them; a blank tag is the caller's mistake, not a tag. */
function existingTags(tags: ReadonlyArray<{ tag: string; count: number }>): TagUse[] {
  if (tags.length > MAX_EXISTING_TAGS) {
    throw new InputError(
      `options.existing_tags takes at most ${MAX_EXISTING_TAGS} tags, got ${tags.length}.`,
    );
  }
  const blank = tags.findIndex((t) => !t.tag.trim());
  if (blank >= 0) throw new InputError(`options.existing_tags[${blank}] has an empty tag.`);
  return tags.map((t) => ({ tag: t.tag.trim(), count: t.count }));
}

export function createProcessingGrpcService(deps: ProcessingGrpcDeps): GrpcServiceRegistration {
  return implementGrpcService(
    ProcessingService,
    {
      async embed(request, ctx) {
        const texts = request.texts;
        if (texts.length === 0 || texts.length > MAX_EMBED_TEXTS) {
          throw new InputError(`Embed takes 1 to ${MAX_EMBED_TEXTS} texts, got ${texts.length}.`);
        }
        const tooLong = texts.findIndex((t) => t.length > MAX_EMBED_TEXT_CHARS);
        if (tooLong >= 0)
          throw new InputError(`Text ${tooLong + 1} is longer than ${MAX_EMBED_TEXT_CHARS} characters.`);
        const vectors = await deps.embedder.embed(texts, { signal: ctx.signal });
        const dimensions = vectors[0]?.length ?? deps.embedder.dimensions;
        return {
          vectors: vectors.map((v) => ({ values: Array.from(v) })),
          provider: deps.embedder.provider,
          model: deps.embedder.model,
          dimensions,
        };
      },

      async analyze(request, ctx) {
        const file = request.file;
        if (!file?.blobKey) throw new InputError('Analyze needs file.blob_key.');
        try {
          assertSafeKey(file.blobKey);
        } catch {
          throw new InputError('file.blob_key is not a valid key.');
        }
        if (!file.fileName.trim()) throw new InputError('File name is required');
        const info = await deps.blobs.stat(file.blobKey);
        if (!info) throw new NotFoundError('The file to analyse was not found.');
        try {
          const result = await deps.analyzer.analyze(
            {
              blobKey: file.blobKey,
              fileName: file.fileName,
              ...(file.contentType ? { contentType: file.contentType } : {}),
              instructions: request.options?.instructions ?? '',
              destination: DESTINATIONS[request.options?.destination ?? Destination.UNSPECIFIED] ?? 'auto',
              existingTags: existingTags(request.options?.existingTags ?? []),
            },
            { signal: ctx.signal },
          );
          return result.kind === 'document'
            ? { result: { case: 'document', value: result.document } }
            : { result: { case: 'inventoryItem', value: result.inventoryItem } };
        } catch (err) {
          if (err instanceof ExtractionError) throw extractionStatus(err);
          throw err;
        }
      },
    },
    // Query embeddings are for the search service; Analyze runs from events, never over the network.
    { Embed: ['search'] },
  );
}
