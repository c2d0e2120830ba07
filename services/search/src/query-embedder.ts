// Query embeddings for search: one vector per normalised query text, from an LRU cache when the
// text was asked recently; concurrent identical queries share one in-flight request, and the
// distinct queries of one tick go to the embedder as one batch (one model call or one gRPC Embed).
import { LRUCache } from 'lru-cache';

/** Embeds texts (the processing service's embedder, in-process or over gRPC). */
export type EmbedTexts = (texts: string[]) => Promise<Float32Array[]>;

export interface QueryEmbedderOptions {
  embed: EmbedTexts;
  /** Vectors kept (SEARCH_QUERY_CACHE_SIZE; 0 turns the cache off). */
  cacheSize: number;
  /** Most texts per embedder call (gRPC Embed takes 1..256; default 64). */
  maxBatch?: number;
}

export interface QueryEmbedderStats {
  hits: number;
  misses: number;
  /** Requests that joined one already in flight. */
  shared: number;
  /** Calls made to the embedder. */
  calls: number;
}

export interface QueryEmbedder {
  embed(query: string): Promise<Float32Array>;
  readonly stats: QueryEmbedderStats;
}

/** The cache key and the text embedded: NFKC, lower case, inner whitespace collapsed, trimmed. */
export function normaliseQuery(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

export function createQueryEmbedder(options: QueryEmbedderOptions): QueryEmbedder {
  const maxBatch = options.maxBatch ?? 64;
  // lru-cache refuses max 0: no cache at all is how 0 turns it off.
  const cache =
    options.cacheSize > 0 ? new LRUCache<string, Float32Array>({ max: options.cacheSize }) : undefined;
  const inFlight = new Map<string, Promise<Float32Array>>();
  const stats: QueryEmbedderStats = { hits: 0, misses: 0, shared: 0, calls: 0 };
  let batch: Array<{ text: string; resolve(v: Float32Array): void; reject(e: unknown): void }> = [];
  let scheduled = false;

  function run(): void {
    scheduled = false;
    while (batch.length > 0) {
      const group = batch.slice(0, maxBatch);
      batch = batch.slice(maxBatch);
      stats.calls++;
      options.embed(group.map((g) => g.text)).then(
        (vectors) => {
          group.forEach((g, i) => {
            const v = vectors[i];
            if (v) g.resolve(v);
            else
              g.reject(
                new Error(`the embedder returned ${vectors.length} vectors for ${group.length} texts`),
              );
          });
        },
        (err: unknown) => group.forEach((g) => g.reject(err)),
      );
    }
  }

  return {
    stats,
    embed(query) {
      const key = normaliseQuery(query);
      const cached = cache?.get(key);
      if (cached) {
        stats.hits++;
        return Promise.resolve(cached);
      }
      const pending = inFlight.get(key);
      if (pending) {
        stats.shared++;
        return pending;
      }
      stats.misses++;
      const promise = new Promise<Float32Array>((resolve, reject) => {
        batch.push({ text: key, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          // Same-tick arrivals (a burst of requests) join this batch.
          setImmediate(run);
        }
      }).then(
        (vector) => {
          inFlight.delete(key);
          cache?.set(key, vector);
          return vector;
        },
        (err: unknown) => {
          inFlight.delete(key);
          throw err;
        },
      );
      inFlight.set(key, promise);
      return promise;
    },
  };
}
