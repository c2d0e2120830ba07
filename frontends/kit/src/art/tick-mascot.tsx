// Tick, Kaboodle's mascot: a clockwork archivist. A round brass clock body whose hands (stopped at
// ten past ten) are his eyebrows, a monocle or spectacles, gear ears that turn, a neon outline.
import type { CSSProperties } from 'react';
import './art.css';
import { useSvgId } from './gears.tsx';
import { TickDefs, TickBody } from './tick-body.tsx';
import { TickArms, TickFace } from './tick-face.tsx';

export type TickPose = 'idle' | 'wave' | 'reading' | 'cheer';
export type TickEyewear = 'monocle' | 'spectacles';

export interface TickMascotProps {
  /** Rendered width in px; the artwork is 200×240. */
  size?: number;
  pose?: TickPose;
  eyewear?: TickEyewear;
  /** Idle motion (bobbing, blinking, turning ear gears). Off under prefers-reduced-motion anyway. */
  animated?: boolean;
  /** Accessible name. Pass '' to mark the art as decoration. */
  title?: string;
  className?: string;
  style?: CSSProperties;
}

export function TickMascot({
  size = 200,
  pose = 'idle',
  eyewear = 'monocle',
  animated = true,
  title = 'Tick, the Kaboodle clockwork archivist',
  className,
  style,
}: TickMascotProps) {
  const id = useSvgId('kb-tick');
  const decorative = title === '';
  const cheerful = pose === 'cheer';
  return (
    <span className={`kb-art kb-tick ${className ?? ''}`} style={style} data-pose={pose}>
      <svg
        width={size}
        height={(size * 240) / 200}
        viewBox="0 0 200 240"
        role={decorative ? undefined : 'img'}
        aria-hidden={decorative ? true : undefined}
        aria-label={decorative ? undefined : title}
      >
        <TickDefs id={id} />

        {/* floor shadow */}
        <ellipse cx="100" cy="228" rx="54" ry="7" fill="rgba(157,107,255,0.28)" />

        <g className={animated ? 'kb-tick-bob' : undefined}>
          <TickBody id={id} animated={animated} />

          <TickFace id={id} animated={animated} cheerful={cheerful} eyewear={eyewear} />

          <TickArms id={id} animated={animated} pose={pose} />
        </g>
      </svg>
    </span>
  );
}
