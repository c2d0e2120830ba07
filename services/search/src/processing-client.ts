// How search reaches the services it depends on: the processing service (query embeddings) and the
// catalogue (index rebuilds), in-process when they share this process, over gRPC when split.
import { setTimeout as sleep } from 'node:timers/promises';
import { createGrpcClient, InputError } from '@kaboodle/platform';
import type { Logger, ServiceModule } from '@kaboodle/platform';
import type { ChannelCredentials } from '@kaboodle/platform';
import {
  CatalogueService,
  create,
  EntityType,
  ImageEmbeddingService,
  ListForIndexRequestSchema,
  ProcessingService,
} from '@kaboodle/proto';
import type { ListForIndexRequest, ListForIndexResponse } from '@kaboodle/proto';
import type { EmbedTexts } from './query-embedder.ts';

/** What search needs of the processing module in-process (ProcessingModule.embedder fits). */
export interface InProcessEmbedder {
  readonly dimensions: number;
  /** Which model makes the vectors (recorded by the index: another model means a reindex). */
  readonly model?: string;
  embed(texts: string[]): Promise<Float32Array[]>;
}

/** What search needs of the processing module's image model in-process (find by photo). */
export interface InProcessImageEmbedder {
  readonly dimensions: number;
  readonly model: string;
  embed(bytes: Uint8Array, options?: { signal?: AbortSignal }): Promise<Float32Array>;
}

/** How search reaches the processing service: the module itself in one process, gRPC when split. */
export type ProcessingModuleHandle =
  | {
      kind: 'in-process';
      module: () => ServiceModule & {
        readonly embedder: InProcessEmbedder;
        readonly imageEmbedder?: InProcessImageEmbedder;
      };
    }
  | GrpcHandle;

/** A split service: its address, and this service's mTLS credentials when identities are enforced. */
export interface GrpcHandle {
  kind: 'grpc';
  address: string;
  credentials?: ChannelCredentials;
}

/** What search needs of the catalogue module in-process (the contract's typed listForIndex). */
export interface CatalogueIndexSource {
  listForIndex(request: ListForIndexRequest): AsyncIterable<ListForIndexResponse>;
}

/** How search reaches the catalogue (index rebuilds): in-process, gRPC when split, or not at all. */
export type CatalogueModuleHandle =
  { kind: 'in-process'; module: () => ServiceModule & Partial<CatalogueIndexSource> } | GrpcHandle;

export interface EmbeddingSpace {
  dimensions: number;
  model: string;
}

export interface ProcessingClient {
  embed: EmbedTexts;
  /** A photo's vector in the image space (ImageRejected photos answer InputError). */
  embedImage(bytes: Uint8Array, signal?: AbortSignal): Promise<Float32Array>;
  /** The image model's space, or undefined when processing offers none. */
  imageSpace(signal?: AbortSignal): Promise<EmbeddingSpace | undefined>;
  /** The embedder's space (split: asks Embed once, retrying until processing answers or `signal` aborts). */
  space(signal?: AbortSignal): Promise<EmbeddingSpace>;
  close(): void;
}

/** gRPC Embed takes at most 256 texts per call. */
export const MAX_EMBED_TEXTS = 256;

export function connectProcessing(handle: ProcessingModuleHandle, logger: Logger): ProcessingClient {
  if (handle.kind === 'in-process') {
    return {
      embed: (texts) => handle.module().embedder.embed(texts),
      space: async () => {
        const { dimensions, model } = handle.module().embedder;
        return { dimensions, model: model ?? '' };
      },
      embedImage: async (bytes, signal) => {
        const images = handle.module().imageEmbedder;
        if (!images) throw new Error('the processing module in this process has no image model');
        try {
          return await images.embed(bytes, signal ? { signal } : {});
        } catch (err) {
          // a picture processing refuses is the caller's to fix, as over gRPC (INVALID_ARGUMENT)
          if ((err as Error).name === 'ImageRejectedError') throw new InputError((err as Error).message);
          throw err;
        }
      },
      imageSpace: async () => {
        const images = handle.module().imageEmbedder;
        return images ? { dimensions: images.dimensions, model: images.model } : undefined;
      },
      close: () => undefined,
    };
  }
  const tls = handle.credentials ? { credentials: handle.credentials } : {};
  const client = createGrpcClient(ProcessingService, handle.address, { logger, deadlineMs: 10_000, ...tls });
  const imageClient = createGrpcClient(ImageEmbeddingService, handle.address, {
    logger,
    deadlineMs: 60_000,
    ...tls,
  });
  let knownImages: EmbeddingSpace | undefined;
  const embed: EmbedTexts = async (texts) => {
    const { vectors } = await client.embed({ texts });
    return vectors.map((v) => Float32Array.from(v.values));
  };
  let known: EmbeddingSpace | undefined;
  return {
    embed,
    async space(signal) {
      for (let attempt = 1; known === undefined; attempt++) {
        try {
          const answer = await client.embed({ texts: ['kaboodle'] }, signal ? { signal } : {});
          const dimensions = answer.dimensions || answer.vectors[0]?.values.length || 0;
          if (!dimensions) throw new Error('Embed answered without a vector');
          known = { dimensions, model: answer.model };
        } catch (err) {
          if (signal?.aborted) throw err;
          const waitMs = Math.min(10_000, 250 * 2 ** Math.min(attempt, 6));
          logger.warn({ err, attempt, waitMs }, 'asking the processing service for its embedding size');
          await sleep(waitMs, undefined, signal ? { signal } : {});
        }
      }
      return known;
    },
    async embedImage(bytes, signal) {
      const answer = await imageClient.embedImage({ image: bytes }, signal ? { signal } : {});
      return Float32Array.from(answer.vector?.values ?? []);
    },
    async imageSpace(signal) {
      if (knownImages) return knownImages;
      // one tiny picture tells the model and its size (like Embed's one word for the text space)
      const answer = await imageClient.embedImage({ image: TINY_PNG }, signal ? { signal } : {});
      const dimensions = answer.dimensions || answer.vector?.values.length || 0;
      if (!dimensions) return undefined;
      knownImages = { dimensions, model: answer.model };
      return knownImages;
    },
    close: () => {
      client.close();
      imageClient.close();
    },
  };
}

/** An 8×8 grey PNG (made by sharp; the contract test decodes it through the real model). */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAD0lEQVQImWNowAEYhpYEAILzYAEeEbvlAAAAAElFTkSuQmCC',
  'base64',
);

export interface CatalogueClient {
  /** Every entity and kaboodle of every owner (or one owner), for a rebuild. */
  listForIndex(ownerId?: string): AsyncIterable<ListForIndexResponse>;
  close(): void;
}

export function connectCatalogue(
  handle: CatalogueModuleHandle | undefined,
  logger: Logger,
): CatalogueClient | undefined {
  if (!handle) return undefined;
  // Documents, items and kaboodles: a rebuild restores memberships too. No owner: a full
  // rebuild, which the request must say explicitly (all_owners).
  const request = (ownerId?: string) =>
    create(ListForIndexRequestSchema, {
      ...(ownerId ? { ownerId } : { allOwners: true }),
      entityTypes: [EntityType.DOCUMENT, EntityType.INVENTORY_ITEM, EntityType.KABOODLE],
    });
  if (handle.kind === 'in-process') {
    return {
      listForIndex(ownerId) {
        const catalogue = handle.module();
        if (typeof catalogue.listForIndex !== 'function') {
          throw new Error('the catalogue module in this process does not offer listForIndex');
        }
        return catalogue.listForIndex(request(ownerId));
      },
      close: () => undefined,
    };
  }
  const client = createGrpcClient(CatalogueService, handle.address, {
    logger,
    ...(handle.credentials && { credentials: handle.credentials }),
  });
  return {
    listForIndex: (ownerId) => client.listForIndex(request(ownerId)),
    close: () => client.close(),
  };
}
