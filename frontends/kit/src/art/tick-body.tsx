// Tick's parts behind the face: the gradients, the ear gears, legs and feet, the pocket-watch crown,
// and the brass case with its rivets and dial marks. Drawn in Tick's 200×240 artwork units.
import { Gear } from './gears.tsx';

export const BRASS_DARK = '#6b4a14';
export const NEON = 'var(--kb-teal, #2ee6d6)';
export const MAGENTA = 'var(--kb-magenta, #ff4fd8)';

/** The brass, dial and glass gradients, named after this instance's `id`. */
export function TickDefs({ id }: { id: string }) {
  return (
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
  );
}

export function TickBody({ id, animated }: { id: string; animated: boolean }) {
  return (
    <>
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
    </>
  );
}
