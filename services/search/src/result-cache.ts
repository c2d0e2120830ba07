// Recent search answers per owner, so a repeated query (a refreshed page, a debounced box typing the
// same text again, several tabs) costs no embedding and no index work. An entry is valid only while
// its owner has had no index write since it was made (a per-owner generation, bumped by every write
// this process applies) and for at most `ttlMs`: with several search replicas each applies only its
// share of catalogue.changed, so the TTL bounds how stale another replica's answer can be.
import { LRUCache } from 'lru-cache';

export interface ResultCacheOptions {
  /** Answers kept (SEARCH_RESULT_CACHE_SIZE; 0 turns the cache off). */
  size: number;
  /** Longest an answer is served (SEARCH_RESULT_CACHE_TTL). */
  ttlMs: number;
  now?: () => number;
}

export interface ResultCache<T> {
  get(ownerId: string, key: string): T | undefined;
  /** The owner's generation now: read it before searching, pass it to set(). */
  generationOf(ownerId: string): number;
  /**
   * Keep an answer computed from the index as it was at `generation`: if a write came in while the
   * search ran, the answer is already outdated and is not kept.
   */
  set(ownerId: string, key: string, value: T, generation: number): void;
  /** The owner's index content changed: forget every answer made before. */
  invalidateOwner(ownerId: string): void;
  readonly stats: { hits: number; misses: number };
}

interface Entry<T> {
  value: T;
  at: number;
  generation: number;
}

export function createResultCache<T>(options: ResultCacheOptions): ResultCache<T> {
  const now = options.now ?? Date.now;
  // lru-cache refuses max 0; get and set return early when the size is 0, so max 1 is never used.
  const entries = new LRUCache<string, Entry<T>>({ max: Math.max(options.size, 1) });
  // Owners with a write since start; an owner not listed is at generation 0.
  const generations = new Map<string, number>();
  const stats = { hits: 0, misses: 0 };
  // The owner id is part of every key: one user's answer can never be served to another.
  const keyOf = (ownerId: string, key: string) => `${ownerId}\u0000${key}`;
  return {
    stats,
    get(ownerId, key) {
      if (options.size === 0) return undefined;
      const entry = entries.get(keyOf(ownerId, key));
      if (entry && entry.generation === (generations.get(ownerId) ?? 0) && now() - entry.at < options.ttlMs) {
        stats.hits++;
        return entry.value;
      }
      stats.misses++;
      return undefined;
    },
    generationOf: (ownerId) => generations.get(ownerId) ?? 0,
    set(ownerId, key, value, generation) {
      if (options.size === 0 || options.ttlMs <= 0) return;
      if (generation !== (generations.get(ownerId) ?? 0)) return;
      entries.set(keyOf(ownerId, key), { value, at: now(), generation });
    },
    invalidateOwner(ownerId) {
      generations.set(ownerId, (generations.get(ownerId) ?? 0) + 1);
    },
  };
}
