// Windowing for long lists that scroll with the page: only the rows near the viewport are rendered;
// spacers keep the scroll height (and the scrollbar) true to the full list.
import { useEffect, useState, type RefObject } from 'react';

export interface WindowRange {
  start: number;
  end: number;
}

/** Rows [start, end) that intersect the viewport plus `overscan` rows either side. */
export function visibleRange(
  count: number,
  rowHeight: number,
  listTop: number,
  viewportHeight: number,
  overscan = 10,
): WindowRange {
  if (count === 0) return { start: 0, end: 0 };
  const first = Math.floor(-listTop / rowHeight);
  const last = Math.ceil((viewportHeight - listTop) / rowHeight);
  return {
    start: Math.max(0, Math.min(count, first - overscan)),
    end: Math.max(0, Math.min(count, last + overscan)),
  };
}

/** Below `threshold` rows everything renders (cheap, and simplest for assistive technology). */
export function useWindowRange(
  ref: RefObject<HTMLElement | null>,
  count: number,
  rowHeight: number,
  threshold = 60,
): WindowRange {
  const [range, setRange] = useState<WindowRange>({ start: 0, end: Math.min(count, threshold) });
  useEffect(() => {
    if (count <= threshold) {
      setRange({ start: 0, end: count });
      return;
    }
    let frame = 0;
    const update = () => {
      frame = 0;
      const top = ref.current?.getBoundingClientRect().top ?? 0;
      const next = visibleRange(count, rowHeight, top, window.innerHeight);
      setRange((r) => (r.start === next.start && r.end === next.end ? r : next));
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(update);
    };
    update();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      if (frame !== 0) cancelAnimationFrame(frame);
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
    };
  }, [ref, count, rowHeight, threshold]);
  return range;
}
