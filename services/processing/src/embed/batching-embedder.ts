// Shared machinery for embedding providers: concurrent calls made in the same tick are coalesced
// into batches (a model call per batch, not per caller), repeated texts (typically search queries)
// come from an LRU cache, and the event loop gets a turn between batches so a long document never
// holds it for more than one batch. Short calls (search queries) go ahead of long ones (a
// document's passages), so a query never waits behind a 40-page upload.
import { LRUCache } from 'lru-cache';
import { l2normalize, type EmbedOptions, type EmbeddingSpace, type TextEmbedder } from './text-embedder.ts';

export interface BatchingEmbedderOptions {
  space: () => EmbeddingSpace;
  /** Embeds one batch; returns one vector per text (any length, normalised here). */
  embedBatch(texts: string[]): Promise<ArrayLike<number>[]>;
  /** Texts per model call. */
  maxBatch: number;
  /** Characters per model call (the model's cost grows with input; default unlimited). */
  maxBatchChars?: number;
  /** Texts longer than this are cut (the model's useful input size). */
  maxChars: number;
  /**
   * Cuts a text to what the model actually reads (after `maxChars`), so text it would ignore is
   * neither tokenised nor counted against `maxBatchChars`, and the cache key is what was embedded.
   */
  clip?: (text: string) => string;
  /**
   * Texts with different keys never share a model call. For a model that pads every sequence of a
   * batch to the longest one (attention), short texts batched with long ones cost as much as long
   * ones: keying by length bucket keeps a title out of a batch of full passages.
   */
  batchKey?: (text: string) => number;
  /** Batches in flight at once (default 1); more only helps when the model runs on several threads. */
  parallelBatches?: number;
  /** Entries in the LRU cache of text → vector (0 disables). */
  cacheSize?: number;
  /** Texts up to this length are cached (queries and short chunks; default 1000). */
  cacheMaxChars?: number;
  warmUp?: () => Promise<void>;
  close?: () => Promise<void>;
}

interface Pending {
  text: string;
  resolve(v: Float32Array): void;
  reject(err: unknown): void;
}

export function createBatchingEmbedder(options: BatchingEmbedderOptions): TextEmbedder {
  const cacheSize = options.cacheSize ?? 2000;
  // lru-cache refuses max 0: no cache at all is how 0 turns it off.
  const cache = cacheSize > 0 ? new LRUCache<string, Float32Array>({ max: cacheSize }) : undefined;
  const cacheMaxChars = options.cacheMaxChars ?? 1000;
  const maxBatchChars = options.maxBatchChars ?? Infinity;
  // Two lanes: calls of a few short texts (queries) are served before bulk work.
  const urgent: Pending[] = [];
  const bulk: Pending[] = [];
  const waiting = () => urgent.length + bulk.length;
  const batchKey = options.batchKey;
  // The oldest waiting text, then (in order) those that may share its call: same key, within the
  // batch's text and character limits.
  const nextBatch = (): Pending[] => {
    const lane = urgent.length > 0 ? urgent : bulk;
    const first = lane.shift()!;
    const batch: Pending[] = [first];
    let chars = first.text.length;
    const key = batchKey?.(first.text);
    for (let i = 0; i < lane.length && batch.length < options.maxBatch;) {
      const next = lane[i]!;
      if (batchKey && batchKey(next.text) !== key) {
        i++;
        continue;
      }
      if (chars + next.text.length > maxBatchChars) break;
      chars += next.text.length;
      batch.push(next);
      lane.splice(i, 1);
    }
    return batch;
  };
  // Same text asked twice while a batch is in flight: one model call.
  const inflight = new Map<string, Promise<Float32Array>>();
  const parallel = Math.max(1, options.parallelBatches ?? 1);
  let running = 0;
  let scheduled = false;

  // Let every caller of this tick enqueue first (that is the coalescing); the event loop also gets a
  // turn between batches.
  function pump(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      while (running < parallel && waiting() > 0) {
        running++;
        void runBatch(nextBatch()).finally(() => {
          running--;
          if (waiting() > 0) pump();
        });
      }
    });
  }

  async function runBatch(batch: Pending[]): Promise<void> {
    try {
      // No caller's signal reaches a shared batch: one caller giving up must not fail the others.
      const vectors = await options.embedBatch(batch.map((p) => p.text));
      if (vectors.length !== batch.length) {
        throw new Error(`the embedding model returned ${vectors.length} vectors for ${batch.length} texts`);
      }
      batch.forEach((p, i) => p.resolve(l2normalize(Float32Array.from(vectors[i]!))));
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  }

  function embedOne(text: string, lane: Pending[]): Promise<Float32Array> {
    const capped = text.length > options.maxChars ? text.slice(0, options.maxChars) : text;
    const cut = options.clip ? options.clip(capped) : capped;
    const cacheable = cut.length <= cacheMaxChars;
    if (cacheable) {
      const hit = cache?.get(cut);
      if (hit) return Promise.resolve(hit);
    }
    const running = inflight.get(cut);
    if (running) return running;
    const promise = new Promise<Float32Array>((resolve, reject) => {
      lane.push({ text: cut, resolve, reject });
    }).then(
      (v) => {
        inflight.delete(cut);
        if (cacheable) cache?.set(cut, v);
        return v;
      },
      (err: unknown) => {
        inflight.delete(cut);
        throw err;
      },
    );
    inflight.set(cut, promise);
    pump();
    return promise;
  }

  const embedder: TextEmbedder = {
    get provider() {
      return options.space().provider;
    },
    get model() {
      return options.space().model;
    },
    get dimensions() {
      return options.space().dimensions;
    },
    async embed(texts: string[], embedOptions: EmbedOptions = {}): Promise<Float32Array[]> {
      if (!Array.isArray(texts)) throw new TypeError('embed: texts must be an array of strings');
      const { signal } = embedOptions;
      signal?.throwIfAborted();
      const lane =
        texts.length <= 8 && texts.every((t) => typeof t === 'string' && t.length <= 500) ? urgent : bulk;
      const work = texts.map((t) => {
        if (typeof t !== 'string') throw new TypeError('embed: every text must be a string');
        // An empty text has no meaning to embed: a zero vector matches nothing.
        if (t.trim() === '') return Promise.resolve(null);
        return embedOne(t, lane);
      });
      const all = Promise.all(work);
      const vectors = signal
        ? await new Promise<(Float32Array | null)[]>((resolve, reject) => {
            const onAbort = () => reject(signal.reason);
            signal.addEventListener('abort', onAbort, { once: true });
            all.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
          })
        : await all;
      const dims = vectors.find((v) => v !== null)?.length ?? options.space().dimensions;
      return vectors.map((v) => v ?? new Float32Array(dims));
    },
    ...(options.warmUp ? { warmUp: options.warmUp } : {}),
    ...(options.close ? { close: options.close } : {}),
  };
  return embedder;
}
