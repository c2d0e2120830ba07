// The browser cache (docs/product.md#limits): namespaced entries {value, timestamp, ttl} in localStorage
// under the product's prefix, each namespace with its own time-to-live; expired entries go at load.

export const CACHE_PREFIX = 'kaboodle:cache:';
export const DEFAULT_TTL_MS = 3600 * 1000;
export const NAMESPACE_TTL_MS: Readonly<Record<string, number>> = {
  inventory: 30 * 60 * 1000,
  documents: 60 * 60 * 1000,
  search: 5 * 60 * 1000,
};

export interface CacheEntry<T = unknown> {
  value: T;
  timestamp: number;
  ttl: number;
}

/** The part of the Web Storage API the cache needs (localStorage in the browser). */
export interface KeyValueStorage {
  readonly length: number;
  key(index: number): string | null;
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface ApiCache {
  get<T>(namespace: string, key: string): T | undefined;
  set<T>(namespace: string, key: string, value: T, ttlMs?: number): void;
  /** Drops one namespace, or everything the cache owns (e.g. on sign-out). */
  clear(namespace?: string): void;
  /** Removes expired entries; returns how many went. */
  purgeExpired(): number;
}

export interface ApiCacheOptions {
  storage: () => KeyValueStorage | undefined;
  now?: () => number;
  warn?: (message: string, err: unknown) => void;
}

export function ttlForNamespace(namespace: string): number {
  return NAMESPACE_TTL_MS[namespace] ?? DEFAULT_TTL_MS;
}

function isEntry(value: unknown): value is CacheEntry {
  if (!value || typeof value !== 'object') return false;
  const entry = value as Record<string, unknown>;
  return 'value' in entry && typeof entry.timestamp === 'number' && typeof entry.ttl === 'number';
}

export function createApiCache(options: ApiCacheOptions): ApiCache {
  const now = options.now ?? Date.now;
  const warn = options.warn ?? ((message, err) => console.warn(message, err));
  const fullKey = (namespace: string, key: string) => `${CACHE_PREFIX}${namespace}:${key}`;

  const ownKeys = (storage: KeyValueStorage, prefix = CACHE_PREFIX): string[] => {
    const keys: string[] = [];
    for (let i = 0; i < storage.length; i++) {
      const k = storage.key(i);
      if (k !== null && k.startsWith(prefix)) keys.push(k);
    }
    return keys;
  };

  const purgeExpired = (): number => {
    const storage = options.storage();
    if (!storage) return 0;
    let removed = 0;
    try {
      for (const k of ownKeys(storage)) {
        const raw = storage.getItem(k);
        let expired = true;
        try {
          const parsed: unknown = raw === null ? null : JSON.parse(raw);
          expired = !isEntry(parsed) || now() - parsed.timestamp >= parsed.ttl;
        } catch {
          // An unreadable entry is as good as expired.
        }
        if (expired) {
          storage.removeItem(k);
          removed++;
        }
      }
    } catch (err) {
      warn('Cache purge failed', err);
    }
    return removed;
  };

  const cache: ApiCache = {
    get<T>(namespace: string, key: string): T | undefined {
      const storage = options.storage();
      if (!storage) return undefined;
      const k = fullKey(namespace, key);
      try {
        const raw = storage.getItem(k);
        if (raw === null) return undefined;
        const parsed: unknown = JSON.parse(raw);
        if (!isEntry(parsed) || now() - parsed.timestamp >= parsed.ttl) {
          storage.removeItem(k);
          return undefined;
        }
        return parsed.value as T;
      } catch (err) {
        warn(`Cache read failed for ${k}`, err);
        return undefined;
      }
    },
    set<T>(namespace: string, key: string, value: T, ttlMs = ttlForNamespace(namespace)): void {
      const storage = options.storage();
      if (!storage) return;
      const k = fullKey(namespace, key);
      const entry: CacheEntry<T> = { value, timestamp: now(), ttl: ttlMs };
      try {
        storage.setItem(k, JSON.stringify(entry));
      } catch (err) {
        // Usually a full quota: make room by dropping what has expired (docs/product.md#messages), then give
        // up quietly.
        warn(`Cache write failed for ${k}`, err);
        purgeExpired();
      }
    },
    clear(namespace?: string): void {
      const storage = options.storage();
      if (!storage) return;
      try {
        for (const k of ownKeys(
          storage,
          namespace === undefined ? CACHE_PREFIX : `${CACHE_PREFIX}${namespace}:`,
        )) {
          storage.removeItem(k);
        }
      } catch (err) {
        warn('Cache clear failed', err);
      }
    },
    purgeExpired,
  };
  purgeExpired();
  return cache;
}
