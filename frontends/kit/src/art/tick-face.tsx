// Tick's face and hands: clock hands as eyebrows, blinking eyes, a monocle or spectacles, cheeks,
// mouth and bow tie, and the arms of each pose (with the archivist's index card when reading).
import { BRASS_DARK, MAGENTA, NEON } from './tick-body.tsx';
import type { TickEyewear, TickPose } from './tick-mascot.tsx';

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

export function TickFace({
  id,
  animated,
  cheerful,
  eyewear,
}: {
  id: string;
  animated: boolean;
  cheerful: boolean;
  eyewear: TickEyewear;
}) {
  return (
    <>
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
          <circle cx="120" cy="116" r="14" fill={`url(#${id}-glass)`} stroke="#f3d48a" strokeWidth="2.8" />
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
    </>
  );
}

export function TickArms({ id, animated, pose }: { id: string; animated: boolean; pose: TickPose }) {
  return (
    <>
      {/* the archivist's index card */}
      {pose === 'reading' && (
        <g transform="rotate(-4 100 186)">
          <rect x="64" y="168" width="72" height="40" rx="3" fill="#f4ead2" stroke={NEON} strokeWidth="1.5" />
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
          <path d={arm.d} fill="none" stroke={`url(#${id}-brass)`} strokeWidth="5.5" strokeLinecap="round" />
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
    </>
  );
}
