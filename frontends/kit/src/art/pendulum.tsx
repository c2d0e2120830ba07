// A swinging Art Deco pendulum: stepped bracket, long rod, sunburst bob. The swing is a CSS
// rotation about the pivot, so it costs no JavaScript and stops under prefers-reduced-motion.
import type { CSSProperties } from 'react';
import './art.css';
import { useSvgId } from './gears.tsx';

export interface PendulumProps {
  /** Rendered width in px; the artwork is 120×220. */
  size?: number;
  /** Seconds for one swing from side to side. */
  period?: number;
  /** Swing amplitude in degrees either side of vertical. */
  amplitude?: number;
  animated?: boolean;
  title?: string;
  className?: string;
  style?: CSSProperties;
}

export function Pendulum({
  size = 120,
  period = 2,
  amplitude = 16,
  animated = true,
  title,
  className,
  style,
}: PendulumProps) {
  const id = useSvgId('kb-pendulum');
  const armStyle = {
    ['--kb-art-period' as string]: `${period}s`,
    ['--kb-art-amplitude' as string]: `${amplitude}deg`,
  } as CSSProperties;
  return (
    <span className={`kb-art kb-pendulum ${className ?? ''}`} style={style}>
      <svg
        width={size}
        height={(size * 220) / 120}
        viewBox="0 0 120 220"
        role={title ? 'img' : undefined}
        aria-label={title}
        aria-hidden={title ? undefined : true}
      >
        <defs>
          <radialGradient id={`${id}-bob`} cx="38%" cy="32%" r="75%">
            <stop offset="0%" stopColor="#fff0c2" />
            <stop offset="50%" stopColor="#d6a84f" />
            <stop offset="100%" stopColor="#5c3d0e" />
          </radialGradient>
          <linearGradient id={`${id}-rod`} x1="0" x2="1">
            <stop offset="0%" stopColor="#7a5418" />
            <stop offset="50%" stopColor="#f3d48a" />
            <stop offset="100%" stopColor="#7a5418" />
          </linearGradient>
        </defs>
        {/* the arc the bob sweeps, faint, like a scale on a regulator clock */}
        <path
          d="M22 190 Q60 214 98 190"
          fill="none"
          stroke="var(--kb-violet, #8b5cf6)"
          strokeWidth="1"
          strokeDasharray="2 4"
          opacity="0.7"
        />
        <g className={animated ? 'kb-art-pendulum-arm' : undefined} style={armStyle}>
          <rect x="58" y="12" width="4" height="150" fill={`url(#${id}-rod)`} />
          <g className="kb-art-glow-magenta">
            <circle
              cx="60"
              cy="176"
              r="24"
              fill={`url(#${id}-bob)`}
              stroke="var(--kb-magenta, #ff4fd8)"
              strokeWidth="1.8"
            />
          </g>
          {Array.from({ length: 12 }, (_, i) => (
            <line
              key={i}
              x1="60"
              y1="176"
              x2={60 + 17 * Math.cos((i / 12) * Math.PI * 2)}
              y2={176 + 17 * Math.sin((i / 12) * Math.PI * 2)}
              stroke="#7a5418"
              strokeWidth="1.2"
              opacity="0.8"
            />
          ))}
          <circle cx="60" cy="176" r="6" fill="#1a1530" stroke="#f3d48a" strokeWidth="1.5" />
        </g>
        {/* stepped Deco bracket that holds the pivot */}
        <g fill="#2a2346" stroke="var(--kb-gold, #f5c542)" strokeWidth="1.4">
          <path d="M30 2 H90 L84 9 H36 Z" />
          <path d="M40 9 H80 L74 16 H46 Z" />
        </g>
        <circle cx="60" cy="13" r="4" fill="var(--kb-teal, #2ee6d6)" />
      </svg>
    </span>
  );
}
