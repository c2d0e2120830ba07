// docs/product.md#states, #limits: the carousel moves to the next view every 6000 ms, wrapping, while it is
// not paused (pointer over it, focus inside it, or the person prefers reduced motion), and never with one
// view.
import { useEffect, useRef } from 'react';

export function useAutoRotate(options: {
  count: number;
  paused: boolean;
  intervalMs: number;
  onTick: () => void;
}): void {
  const { count, paused, intervalMs } = options;
  const tick = useRef(options.onTick);
  tick.current = options.onTick;
  useEffect(() => {
    if (paused || count <= 1) return;
    const timer = setInterval(() => tick.current(), intervalMs);
    return () => clearInterval(timer);
  }, [count, paused, intervalMs]);
}
