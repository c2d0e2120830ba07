// Clock-face loading indicator (docs/product.md#loading-screen): a percentage, the label "Loading", hands
// showing the current time, and a progress ring of radius 85 (circumference ≈ 534.07) filling clockwise from
// 12.
import type { CSSProperties } from 'react';
import { useEffect, useState } from 'react';
import './art.css';
import { useSvgId } from './gears.tsx';
import { ClockDial, ClockHands, ClockReadout } from './clock-parts.tsx';
import { clampPercent, handAngles } from './geometry.ts';

export interface ClockFaceProps {
  /** Progress 0..100 (clamped). */
  percentage: number;
  label?: string;
  /** Rendered size in px. */
  size?: number;
  /** Fixed time for the hands (tests, screenshots); by default the hands follow the wall clock. */
  time?: Date;
  className?: string;
  style?: CSSProperties;
}

/** Current time, refreshed every second (only while mounted and no fixed time is given). */
function useNow(fixed: Date | undefined): Date {
  const [now, setNow] = useState(() => fixed ?? new Date());
  useEffect(() => {
    if (fixed) {
      setNow(fixed);
      return;
    }
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, [fixed]);
  return fixed ?? now;
}

export function ClockFace({
  percentage,
  label = 'Loading',
  size = 200,
  time,
  className,
  style,
}: ClockFaceProps) {
  const id = useSvgId('kb-clock');
  const pct = Math.round(clampPercent(percentage));
  const angles = handAngles(useNow(time));
  return (
    <span
      className={`kb-art kb-clock ${className ?? ''}`}
      style={style}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct}
      aria-valuetext={`${label} ${pct}%`}
    >
      <svg width={size} height={size} viewBox="0 0 200 200" aria-hidden="true">
        <ClockDial id={id} pct={pct} />
        <ClockReadout label={label} pct={pct} />
        {/* hands: current time */}
        <ClockHands angles={angles} />
      </svg>
    </span>
  );
}
