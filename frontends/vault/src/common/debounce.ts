// The 300 ms pause before a typed query runs, as a plain debouncer and a React hook (docs/product.md#limits).
import { useEffect, useRef, useState } from 'react';

export const DEBOUNCE_MS = 300;

export interface Debounced<A extends unknown[]> {
  (...args: A): void;
  /** Forgets a pending call. */
  cancel(): void;
  /** Runs a pending call now, if there is one. */
  flush(): void;
}

export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms = DEBOUNCE_MS): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: A | undefined;
  const run = () => {
    timer = undefined;
    const args = pending;
    pending = undefined;
    if (args) fn(...args);
  };
  const debounced = ((...args: A) => {
    pending = args;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(run, ms);
  }) as Debounced<A>;
  debounced.cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    pending = undefined;
  };
  debounced.flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    run();
  };
  return debounced;
}

/** The value as it was once it stopped changing for `ms`. */
export function useDebouncedValue<T>(value: T, ms = DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  const debounced = useRef(debounce((v: T) => setSettled(v), ms));
  useEffect(() => {
    debounced.current(value);
  }, [value]);
  useEffect(() => () => debounced.current.cancel(), []);
  return settled;
}
