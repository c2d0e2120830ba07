// A small LRU map (Map keeps insertion order: re-inserting on read moves a key to the end).
export interface LruCache<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): void;
  delete(key: K): void;
  readonly size: number;
  clear(): void;
}

export function createLruCache<K, V>(capacity: number): LruCache<K, V> {
  if (!Number.isInteger(capacity) || capacity < 0) {
    throw new TypeError(`LRU capacity must be a non-negative integer, got ${capacity}`);
  }
  const map = new Map<K, V>();
  return {
    get(key) {
      const value = map.get(key);
      if (value === undefined) return undefined;
      map.delete(key);
      map.set(key, value);
      return value;
    },
    set(key, value) {
      if (capacity === 0) return;
      map.delete(key);
      map.set(key, value);
      if (map.size > capacity) map.delete(map.keys().next().value as K);
    },
    delete(key) {
      map.delete(key);
    },
    get size() {
      return map.size;
    },
    clear: () => map.clear(),
  };
}
