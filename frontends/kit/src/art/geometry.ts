// Pure geometry behind the hand-drawn SVG art: gear outlines, clock hands, the progress ring.
// Kept free of React so it can be unit-tested and reused by every art component.

/** Radius of the clock-face progress ring (docs/product.md#limits: circumference about 534.07 = 2π·85). */
export const CLOCK_RING_RADIUS = 85;
export const CLOCK_RING_CIRCUMFERENCE = 2 * Math.PI * CLOCK_RING_RADIUS;

/** Rounds to 2 decimals so generated path strings stay short and stable. */
function r2(n: number): number {
  return Math.round(n * 100) / 100;
}

function polar(cx: number, cy: number, radius: number, angle: number): string {
  return `${r2(cx + radius * Math.cos(angle))} ${r2(cy + radius * Math.sin(angle))}`;
}

export interface GearShape {
  cx: number;
  cy: number;
  /** Radius at the tip of the teeth. */
  outer: number;
  /** Radius at the root of the teeth. */
  inner: number;
  teeth: number;
  /** Radius of the axle hole (drawn as a second sub-path, so use fill-rule evenodd). 0 = none. */
  hole?: number;
}

/**
 * SVG path for a gear with trapezoid (Art Deco, flat-topped) teeth.
 * Each tooth spans half its pitch; the tip is narrower than the root so teeth look machined.
 */
export function gearPath({ cx, cy, outer, inner, teeth, hole = 0 }: GearShape): string {
  if (!Number.isInteger(teeth) || teeth < 3)
    throw new RangeError(`a gear needs at least 3 teeth, got ${teeth}`);
  if (!(outer > inner && inner > hole && hole >= 0)) {
    throw new RangeError(
      `gear radii must satisfy outer > inner > hole >= 0 (got ${outer}, ${inner}, ${hole})`,
    );
  }
  const pitch = (2 * Math.PI) / teeth;
  const parts: string[] = [];
  for (let i = 0; i < teeth; i++) {
    const a = i * pitch - Math.PI / 2;
    const rootStart = a;
    const tipStart = a + pitch * 0.1;
    const tipEnd = a + pitch * 0.4;
    const rootEnd = a + pitch * 0.5;
    parts.push(
      `${i === 0 ? 'M' : 'L'}${polar(cx, cy, inner, rootStart)}`,
      `L${polar(cx, cy, outer, tipStart)}`,
      `L${polar(cx, cy, outer, tipEnd)}`,
      `L${polar(cx, cy, inner, rootEnd)}`,
      // the gap between teeth follows the root circle
      `A${inner} ${inner} 0 0 1 ${polar(cx, cy, inner, a + pitch)}`,
    );
  }
  parts.push('Z');
  if (hole > 0) {
    parts.push(
      `M${r2(cx + hole)} ${r2(cy)}`,
      `A${hole} ${hole} 0 1 0 ${r2(cx - hole)} ${r2(cy)}`,
      `A${hole} ${hole} 0 1 0 ${r2(cx + hole)} ${r2(cy)}Z`,
    );
  }
  return parts.join(' ');
}

export interface HandAngles {
  /** Degrees clockwise from 12 o'clock. */
  hour: number;
  minute: number;
  second: number;
}

/** Angles of the hour, minute and second hands for a wall-clock time (local time). */
export function handAngles(date: Date): HandAngles {
  const s = date.getSeconds();
  const m = date.getMinutes() + s / 60;
  const h = (date.getHours() % 12) + m / 60;
  return { hour: h * 30, minute: m * 6, second: s * 6 };
}

/** Clamps a progress value to 0..100; non-numbers count as 0 so a bad prop never breaks the ring. */
export function clampPercent(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, value));
}

/** stroke-dashoffset that leaves `percent` of the ring drawn. */
export function ringOffset(percent: number, circumference = CLOCK_RING_CIRCUMFERENCE): number {
  return circumference * (1 - clampPercent(percent) / 100);
}

/**
 * Evenly spread positions (in % of the box) for n sparkles around a centre, alternating two radii
 * so a burst reads as a ring of twinkles rather than a perfect circle.
 */
export function sparklePositions(count: number): { x: number; y: number; delay: number; scale: number }[] {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`sparkle count must be a whole number ≥ 0`);
  return Array.from({ length: count }, (_, i) => {
    const angle = (i / Math.max(count, 1)) * 2 * Math.PI - Math.PI / 2;
    const radius = i % 2 === 0 ? 44 : 34;
    return {
      x: r2(50 + radius * Math.cos(angle)),
      y: r2(50 + radius * Math.sin(angle)),
      delay: r2((i % 4) * 0.08),
      scale: i % 3 === 0 ? 1 : i % 3 === 1 ? 0.7 : 0.85,
    };
  });
}

/** Four-pointed star path (a sparkle), centred on (cx, cy). */
export function starPath(cx: number, cy: number, radius: number, waist = 0.28): string {
  const w = radius * waist;
  return [
    `M${cx} ${cy - radius}`,
    `Q${cx + w} ${cy - w} ${cx + radius} ${cy}`,
    `Q${cx + w} ${cy + w} ${cx} ${cy + radius}`,
    `Q${cx - w} ${cy + w} ${cx - radius} ${cy}`,
    `Q${cx - w} ${cy - w} ${cx} ${cy - radius}Z`,
  ].join(' ');
}
