// A value held by its key: the same object for as long as the key stays the same, so effects and
// callbacks can depend on a query that a screen rebuilds on every render without running again.
import { useState } from 'react';

/** `value` as first seen with `key` (e.g. a query and its JSON); a new key takes the new value. */
export function useKeyedValue<T>(value: T, key: string): T {
  const [held, setHeld] = useState({ key, value });
  if (held.key === key) return held.value;
  // React's "adjust state when a prop changes": this render is redone at once with the new value.
  setHeld({ key, value });
  return value;
}
