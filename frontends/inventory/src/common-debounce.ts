// The 300 ms pause before typed text filters the inventory (docs/product.md#limits).
import { useEffect, useState } from 'react';

export const DEBOUNCE_MS = 300;

/** The value as it was once it stopped changing for `ms`. */
export function useDebouncedValue<T>(value: T, ms = DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
