// Art Deco gear cluster: three meshing brass gears with a neon edge, turned by CSS rotation
// (speeds in the ratio of their teeth, neighbours in opposite directions, like a real train).
import type { CSSProperties } from 'react';
import { useId } from 'react';
import './art.css';
import { gearPath } from './geometry.ts';

/** A gradient id that is safe inside url(#...) whatever useId's format is. */
export function useSvgId(prefix: string): string {
  return `${prefix}-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
}

export interface GearProps {
  cx: number;
  cy: number;
  /** Pitch radius; teeth stick out and cut in by `tooth` around it. */
  radius: number;
  teeth: number;
  tooth?: number;
  /** Seconds per turn; 0 = still. */
  period?: number;
  reverse?: boolean;
  /** Starting angle in degrees (to line teeth up with a neighbour). */
  phase?: number;
  fill: string;
  stroke?: string;
  spokes?: number;
}

/** One gear in an SVG: toothed rim, Deco spokes, hub. */
export function Gear({
  cx,
  cy,
  radius,
  teeth,
  tooth = 3.5,
  period = 0,
  reverse = false,
  phase = 0,
  fill,
  stroke = 'var(--kb-teal, #2ee6d6)',
  spokes = 4,
}: GearProps) {
  const rim = gearPath({ cx, cy, outer: radius + tooth, inner: radius - tooth, teeth, hole: radius * 0.2 });
  const inner = radius - tooth - radius * 0.14;
  const style = {
    transformOrigin: `${cx}px ${cy}px`,
    ['--kb-art-period' as string]: `${period}s`,
  } as CSSProperties;
  return (
    <g className={period > 0 ? (reverse ? 'kb-art-spin-rev' : 'kb-art-spin') : undefined} style={style}>
      <g transform={phase ? `rotate(${phase} ${cx} ${cy})` : undefined}>
        <path
          d={rim}
          fill={fill}
          fillRule="evenodd"
          stroke={stroke}
          strokeWidth={1.2}
          strokeLinejoin="round"
        />
        <circle
          cx={cx}
          cy={cy}
          r={inner}
          fill="none"
          stroke="rgba(10,9,20,0.55)"
          strokeWidth={Math.max(1.5, radius * 0.08)}
        />
        {Array.from({ length: spokes }, (_, i) => {
          const a = (i * 180) / spokes;
          return (
            <rect
              key={i}
              x={cx - radius * 0.07}
              y={cy - inner}
              width={radius * 0.14}
              height={inner * 2}
              fill="rgba(10,9,20,0.45)"
              transform={`rotate(${a} ${cx} ${cy})`}
            />
          );
        })}
        <circle cx={cx} cy={cy} r={radius * 0.3} fill="none" stroke={stroke} strokeWidth={1} opacity={0.8} />
      </g>
    </g>
  );
}

export interface GearsProps {
  /** Rendered width in px (the height follows the cluster's proportions). */
  size?: number;
  /** Seconds per turn of the large gear. */
  speed?: number;
  /** false renders the cluster still (it also stops under prefers-reduced-motion). */
  animated?: boolean;
  className?: string;
  style?: CSSProperties;
  /** Accessible name; omit for pure decoration (then the art is hidden from assistive tech). */
  title?: string;
}

// Teeth 18 / 11 / 8 with the same tooth pitch: pitch radii are proportional to the teeth count.
const PITCH = 7.1; // length of one tooth pitch along the pitch circle
const R = (teeth: number) => (PITCH * teeth) / (2 * Math.PI);

export function Gears({ size = 200, speed = 14, animated = true, className, style, title }: GearsProps) {
  const gid = useSvgId('kb-gear');
  const tooth = 3.5;
  const big = { cx: 0, cy: 0, r: R(28), teeth: 28 };
  const mid = { r: R(16), teeth: 16 };
  const small = { r: R(11), teeth: 11 };
  // the middle gear sits up-right of the big one and the small one below it, touching at pitch circles
  const a1 = (-28 * Math.PI) / 180;
  const midC = { cx: big.cx + (big.r + mid.r) * Math.cos(a1), cy: big.cy + (big.r + mid.r) * Math.sin(a1) };
  const a2 = (70 * Math.PI) / 180;
  const smallC = {
    cx: midC.cx + (mid.r + small.r) * Math.cos(a2),
    cy: midC.cy + (mid.r + small.r) * Math.sin(a2),
  };
  // the viewBox hugs the three gears (plus room for the glow), so `size` is the cluster's real width
  const circles = [
    { x: big.cx, y: big.cy, r: big.r + tooth },
    { x: midC.cx, y: midC.cy, r: mid.r + tooth },
    { x: smallC.cx, y: smallC.cy, r: small.r + tooth },
  ];
  const pad = 4;
  const minX = Math.min(...circles.map((c) => c.x - c.r)) - pad;
  const minY = Math.min(...circles.map((c) => c.y - c.r)) - pad;
  const width = Math.max(...circles.map((c) => c.x + c.r)) + pad - minX;
  const height = Math.max(...circles.map((c) => c.y + c.r)) + pad - minY;
  // shift everything so the viewBox starts at 0 0 (transform-origin is given in user units)
  big.cx -= minX;
  big.cy -= minY;
  midC.cx -= minX;
  midC.cy -= minY;
  smallC.cx -= minX;
  smallC.cy -= minY;
  const period = (teeth: number) => (animated ? (speed * teeth) / big.teeth : 0);
  return (
    <span className={`kb-art kb-gears ${className ?? ''}`} style={style}>
      <svg
        width={size}
        height={Math.round((size * height) / width)}
        viewBox={`0 0 ${width.toFixed(2)} ${height.toFixed(2)}`}
        role={title ? 'img' : undefined}
        aria-hidden={title ? undefined : true}
        aria-label={title}
      >
        <defs>
          <radialGradient id={`${gid}-brass`} cx="40%" cy="35%" r="75%">
            <stop offset="0%" stopColor="#ffe7a8" />
            <stop offset="45%" stopColor="#d6a84f" />
            <stop offset="100%" stopColor="#7a5418" />
          </radialGradient>
          <radialGradient id={`${gid}-copper`} cx="40%" cy="35%" r="75%">
            <stop offset="0%" stopColor="#ffd2b0" />
            <stop offset="50%" stopColor="#c9773f" />
            <stop offset="100%" stopColor="#5e2f14" />
          </radialGradient>
        </defs>
        <g className="kb-art-glow">
          <Gear
            cx={big.cx}
            cy={big.cy}
            radius={big.r}
            teeth={big.teeth}
            period={period(big.teeth)}
            fill={`url(#${gid}-brass)`}
            spokes={3}
          />
          <Gear
            cx={midC.cx}
            cy={midC.cy}
            radius={mid.r}
            teeth={mid.teeth}
            period={period(mid.teeth)}
            reverse
            phase={180 / mid.teeth}
            fill={`url(#${gid}-copper)`}
            stroke="var(--kb-magenta, #ff4fd8)"
            spokes={2}
          />
          <Gear
            cx={smallC.cx}
            cy={smallC.cy}
            radius={small.r}
            teeth={small.teeth}
            period={period(small.teeth)}
            phase={90 / small.teeth}
            fill={`url(#${gid}-brass)`}
            spokes={2}
          />
        </g>
      </svg>
    </span>
  );
}
