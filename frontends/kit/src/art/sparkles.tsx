// A burst of n four-pointed sparkles around the centre of the positioned parent. Purely visual:
// the owner decides how long it stays mounted (the landing page shows 8 for 1 s).
import type { CSSProperties } from 'react';
import './art.css';
import { sparklePositions, starPath } from './geometry.ts';

export interface SparklesProps {
  /** Number of sparkles (the landing page's mascot burst uses 8). */
  count?: number;
  /** Length of one sparkle's twinkle in ms. */
  duration?: number;
  className?: string;
}

const COLOURS = ['var(--kb-teal, #2ee6d6)', 'var(--kb-gold, #f5c542)', 'var(--kb-magenta, #ff4fd8)'];

export function Sparkles({ count = 8, duration = 1000, className }: SparklesProps) {
  const spots = sparklePositions(count);
  if (spots.length === 0) return null;
  return (
    <span
      className={`kb-sparkles ${className ?? ''}`}
      aria-hidden="true"
      data-count={count}
      style={{ ['--kb-sparkle-duration' as string]: `${duration}ms` } as CSSProperties}
    >
      {spots.map((s, i) => (
        <span
          key={i}
          className="kb-sparkle"
          style={{
            left: `${s.x}%`,
            top: `${s.y}%`,
            width: `${18 * s.scale}%`,
            animationDelay: `${s.delay * (duration / 1000)}s`,
          }}
        >
          <svg viewBox="0 0 24 24">
            <path d={starPath(12, 12, 11)} fill={COLOURS[i % COLOURS.length]} />
            <circle cx="12" cy="12" r="2" fill="#fff" />
          </svg>
        </span>
      ))}
    </span>
  );
}
