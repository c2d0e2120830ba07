// How search reaches the services it depends on: the processing service (query embeddings) and the
// catalogue (index rebuilds), in-process when they share this process, over gRPC when split.
import { setTimeout as sleep } from 'node:timers/promises';
import { createGrpcClient } from '@kaboodle/platform';
import type { Logger, ServiceModule } from '@kaboodle/platform';
import { CatalogueService, create, ListForIndexRequestSchema, ProcessingService } from '@kaboodle/proto';
import type { ListForIndexRequest, ListForIndexResponse } from '@kaboodle/proto';
import type { EmbedTexts } from './query-embedder.ts';

/** What search needs of the processing module in-process (ProcessingModule.embedder fits). */
export interface InProcessEmbedder {
  readonly dimensions: number;
  /** Which model makes the vectors (recorded by the index: another model means a reindex). */
  readonly model?: string;
  embed(texts: string[]): Promise<Float32Array[]>;
}

/** How search reaches the processing service: the module itself in one process, gRPC when split. */
export type ProcessingModuleHandle =
  | { kind: 'in-process'; module: () => ServiceModule & { readonly embedder: InProcessEmbedder } }
  | { kind: 'grpc'; address: string };

/** What search needs of the catalogue module in-process (the contract's typed listForIndex). */
export interface CatalogueIndexSource {
  listForIndex(request: ListForIndexRequest): AsyncIterable<ListForIndexResponse>;
}

/** How search reaches the catalogue (index rebuilds): in-process, gRPC when split, or not at all. */
export type CatalogueModuleHandle =
  | { kind: 'in-process'; module: () => ServiceModule & Partial<CatalogueIndexSource> }
  | { kind: 'grpc'; address: string };

export interface EmbeddingSpace {
  dimensions: number;
  model: string;
}

export interface ProcessingClient {
  embed: EmbedTexts;
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
      close: () => undefined,
    };
  }
  const client = createGrpcClient(ProcessingService, handle.address, { logger, deadlineMs: 10_000 });
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
    close: () => client.close(),
  };
}

export interface CatalogueClient {
  /** Every entity of every owner (or one owner), for a rebuild. */
  listForIndex(ownerId?: string): AsyncIterable<ListForIndexResponse>;
  close(): void;
}

export function connectCatalogue(
  handle: CatalogueModuleHandle | undefined,
  logger: Logger,
): CatalogueClient | undefined {
  if (!handle) return undefined;
  const request = (ownerId?: string) => create(ListForIndexRequestSchema, { ownerId: ownerId ?? '' });
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
  const client = createGrpcClient(CatalogueService, handle.address, { logger });
  return {
    listForIndex: (ownerId) => client.listForIndex(request(ownerId)),
    close: () => client.close(),
  };
}
