// Tick, Kaboodle's mascot: a clockwork archivist. A round brass clock body whose hands (stopped at
// ten past ten) are his eyebrows, a monocle or spectacles, gear ears that turn, a neon outline.
import type { CSSProperties } from 'react';
import { ArtStyles } from './art-styles.tsx';
import { Gear, useSvgId } from './gears.tsx';

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

const BRASS_DARK = '#6b4a14';
const NEON = 'var(--kb-teal, #2ee6d6)';
const MAGENTA = 'var(--kb-magenta, #ff4fd8)';

interface ArmSpec {
  d: string;
  hand: [number, number];
  className?: string;
}

function arms(pose: TickPose): ArmSpec[] {
  switch (pose) {
    case 'wave':
      return [
        { d: 'M40 138 Q26 152 24 170', hand: [24, 172] },
        { d: 'M160 132 Q182 118 184 92', hand: [184, 88], className: 'kb-tick-wave' },
      ];
    case 'cheer':
      return [
        { d: 'M40 130 Q20 114 18 88', hand: [18, 84] },
        { d: 'M160 130 Q180 114 182 88', hand: [182, 84] },
      ];
    case 'reading':
      return [
        { d: 'M40 140 Q46 170 70 176', hand: [72, 176] },
        { d: 'M160 140 Q154 170 130 176', hand: [128, 176] },
      ];
    case 'idle':
    default:
      return [
        { d: 'M40 138 Q24 150 24 172', hand: [24, 174] },
        { d: 'M160 138 Q176 150 176 172', hand: [176, 174] },
      ];
  }
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
      <ArtStyles />
      <svg
        width={size}
        height={(size * 240) / 200}
        viewBox="0 0 200 240"
        role={decorative ? undefined : 'img'}
        aria-hidden={decorative ? true : undefined}
        aria-label={decorative ? undefined : title}
      >
        <defs>
          <radialGradient id={`${id}-brass`} cx="38%" cy="30%" r="80%">
            <stop offset="0%" stopColor="#fff0c2" />
            <stop offset="35%" stopColor="#e2b65c" />
            <stop offset="75%" stopColor="#a8741f" />
            <stop offset="100%" stopColor="#5c3d0e" />
          </radialGradient>
          <radialGradient id={`${id}-dial`} cx="50%" cy="40%" r="65%">
            <stop offset="0%" stopColor="#2b2552" />
            <stop offset="70%" stopColor="#16122e" />
            <stop offset="100%" stopColor="#0b0918" />
          </radialGradient>
          <linearGradient id={`${id}-glass`} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0%" stopColor="rgba(255,255,255,0.55)" />
            <stop offset="45%" stopColor="rgba(255,255,255,0.05)" />
            <stop offset="100%" stopColor="rgba(56,232,240,0.15)" />
          </linearGradient>
        </defs>

        {/* floor shadow */}
        <ellipse cx="100" cy="228" rx="54" ry="7" fill="rgba(157,107,255,0.28)" />

        <g className={animated ? 'kb-tick-bob' : undefined}>
          {/* ear gears, behind the body */}
          <g>
            <Gear
              cx={32}
              cy={86}
              radius={16}
              teeth={10}
              tooth={3}
              period={animated ? 9 : 0}
              fill={`url(#${id}-brass)`}
              spokes={2}
            />
            <Gear
              cx={168}
              cy={86}
              radius={16}
              teeth={10}
              tooth={3}
              period={animated ? 9 : 0}
              reverse
              fill={`url(#${id}-brass)`}
              spokes={2}
            />
          </g>

          {/* legs and feet */}
          <g stroke={BRASS_DARK} strokeWidth="1.5">
            <rect x="76" y="184" width="12" height="30" rx="5" fill={`url(#${id}-brass)`} />
            <rect x="112" y="184" width="12" height="30" rx="5" fill={`url(#${id}-brass)`} />
            <path d="M66 222 Q66 210 82 210 Q94 210 94 222 Z" fill={`url(#${id}-brass)`} />
            <path d="M106 222 Q106 210 118 210 Q134 210 134 222 Z" fill={`url(#${id}-brass)`} />
          </g>

          {/* crown, stem and bow of a pocket watch */}
          <circle cx="100" cy="30" r="11" fill="none" stroke={`url(#${id}-brass)`} strokeWidth="5" />
          <rect x="91" y="40" width="18" height="16" rx="3" fill={`url(#${id}-brass)`} stroke={BRASS_DARK} />
          {[94, 98, 102, 106].map((x) => (
            <line key={x} x1={x} y1="42" x2={x} y2="54" stroke={BRASS_DARK} strokeWidth="1.2" />
          ))}

          {/* body: brass case with neon edge */}
          <g className="kb-art-glow">
            <circle cx="100" cy="122" r="68" fill={`url(#${id}-brass)`} stroke={NEON} strokeWidth="2" />
          </g>
          {/* rivets around the bezel, Deco rhythm */}
          {Array.from({ length: 24 }, (_, i) => {
            const a = (i / 24) * Math.PI * 2;
            return (
              <circle
                key={i}
                cx={100 + 63 * Math.cos(a)}
                cy={122 + 63 * Math.sin(a)}
                r={i % 6 === 0 ? 2 : 1.1}
                fill={i % 6 === 0 ? '#fff3cf' : BRASS_DARK}
              />
            );
          })}
          <circle cx="100" cy="122" r="57" fill={`url(#${id}-dial)`} stroke={BRASS_DARK} strokeWidth="2" />
          {/* dial marks */}
          {Array.from({ length: 12 }, (_, i) => {
            const a = (i / 12) * Math.PI * 2;
            const long = i % 3 === 0;
            const r1 = long ? 45 : 49;
            return (
              <line
                key={i}
                x1={100 + r1 * Math.cos(a)}
                y1={122 + r1 * Math.sin(a)}
                x2={100 + 53 * Math.cos(a)}
                y2={122 + 53 * Math.sin(a)}
                stroke={long ? NEON : 'rgba(226,182,92,0.7)'}
                strokeWidth={long ? 2.4 : 1.4}
                strokeLinecap="round"
              />
            );
          })}

          {/* the hands at ten past ten double as eyebrows */}
          <g strokeLinecap="round">
            <line x1="100" y1="96" x2="72" y2="86" stroke="#f3d48a" strokeWidth="3.6" />
            <line x1="100" y1="96" x2="130" y2="84" stroke="#f3d48a" strokeWidth="2.6" />
            <circle cx="100" cy="96" r="3.4" fill={MAGENTA} />
          </g>

          {/* eyes */}
          <g className={animated ? 'kb-tick-blink' : undefined}>
            <ellipse cx="80" cy="116" rx="7.5" ry={cheerful ? 5 : 8.5} fill="#f6f1ff" />
            <ellipse cx="120" cy="116" rx="7.5" ry={cheerful ? 5 : 8.5} fill="#f6f1ff" />
            <circle cx="81.5" cy={cheerful ? 117 : 118} r="3.8" fill="#140f2c" />
            <circle cx="121.5" cy={cheerful ? 117 : 118} r="3.8" fill="#140f2c" />
            <circle cx="83" cy="115.5" r="1.3" fill="#fff" />
            <circle cx="123" cy="115.5" r="1.3" fill="#fff" />
          </g>

          {/* eyewear */}
          {eyewear === 'spectacles' ? (
            <g fill={`url(#${id}-glass)`} stroke="#f3d48a" strokeWidth="2.4">
              <circle cx="80" cy="116" r="13" />
              <circle cx="120" cy="116" r="13" />
              <path d="M93 114 Q100 109 107 114" fill="none" />
            </g>
          ) : (
            <g>
              <circle
                cx="120"
                cy="116"
                r="14"
                fill={`url(#${id}-glass)`}
                stroke="#f3d48a"
                strokeWidth="2.8"
              />
              <circle cx="120" cy="116" r="16.5" fill="none" stroke={NEON} strokeWidth="0.8" opacity="0.8" />
              {/* monocle chain down to the case */}
              <path
                d="M131 125 Q140 150 150 160"
                fill="none"
                stroke="#f3d48a"
                strokeWidth="1.4"
                strokeDasharray="2.2 1.6"
              />
            </g>
          )}

          {/* cheeks and mouth */}
          <circle cx="68" cy="134" r="5" fill={MAGENTA} opacity="0.35" />
          <circle cx="132" cy="134" r="5" fill={MAGENTA} opacity="0.35" />
          {cheerful ? (
            <path d="M86 138 Q100 158 114 138 Z" fill="#140f2c" stroke="#f3d48a" strokeWidth="2" />
          ) : (
            <path
              d="M87 140 Q100 152 113 140"
              fill="none"
              stroke="#f3d48a"
              strokeWidth="2.6"
              strokeLinecap="round"
            />
          )}

          {/* bow tie */}
          <g fill={MAGENTA} stroke="#7a1c55" strokeWidth="1">
            <path d="M100 166 L86 158 L86 174 Z" />
            <path d="M100 166 L114 158 L114 174 Z" />
            <rect x="96" y="162" width="8" height="8" rx="2" />
          </g>

          {/* the archivist's index card */}
          {pose === 'reading' && (
            <g transform="rotate(-4 100 186)">
              <rect
                x="64"
                y="168"
                width="72"
                height="40"
                rx="3"
                fill="#f4ead2"
                stroke={NEON}
                strokeWidth="1.5"
              />
              <rect x="64" y="168" width="72" height="8" rx="3" fill={MAGENTA} opacity="0.8" />
              {[184, 191, 198].map((y) => (
                <line
                  key={y}
                  x1="72"
                  y1={y}
                  x2={y === 198 ? 110 : 128}
                  y2={y}
                  stroke="#8a7a5a"
                  strokeWidth="1.6"
                />
              ))}
            </g>
          )}
          {/* arms (brass rods) and hands */}
          {arms(pose).map((arm, i) => (
            <g key={i} className={animated ? arm.className : undefined}>
              <path d={arm.d} fill="none" stroke={BRASS_DARK} strokeWidth="8" strokeLinecap="round" />
              <path
                d={arm.d}
                fill="none"
                stroke={`url(#${id}-brass)`}
                strokeWidth="5.5"
                strokeLinecap="round"
              />
              <circle
                cx={arm.hand[0]}
                cy={arm.hand[1]}
                r="7"
                fill={`url(#${id}-brass)`}
                stroke={NEON}
                strokeWidth="1.2"
              />
            </g>
          ))}
        </g>
      </svg>
    </span>
  );
}
