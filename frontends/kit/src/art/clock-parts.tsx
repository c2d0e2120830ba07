// The clock face's drawing (docs/product.md#loading-screen), in its 200×200 units: the dial with the
// progress ring, marks and numerals; the label and percentage window; and the hands.
import { CLOCK_RING_CIRCUMFERENCE, CLOCK_RING_RADIUS, ringOffset } from './geometry.ts';

const NUMERALS: [string, number][] = [
  ['XII', 0],
  ['III', 90],
  ['IX', 270],
];

/** Bezel, progress ring (track, then the arc filled clockwise from 12), marks and numerals. */
export function ClockDial({ id, pct }: { id: string; pct: number }) {
  return (
    <>
      <defs>
        <radialGradient id={`${id}-dial`} cx="50%" cy="42%" r="60%">
          <stop offset="0%" stopColor="#2b2552" />
          <stop offset="100%" stopColor="#0d0b1c" />
        </radialGradient>
        <linearGradient id={`${id}-ring`} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0%" stopColor="var(--kb-teal, #2ee6d6)" />
          <stop offset="100%" stopColor="var(--kb-magenta, #ff4fd8)" />
        </linearGradient>
      </defs>
      {/* bezel */}
      <circle cx="100" cy="100" r="97" fill="#16122b" stroke="var(--kb-gold, #f5c542)" strokeWidth="2" />
      <circle
        cx="100"
        cy="100"
        r="92"
        fill="none"
        stroke="var(--kb-gold, #f5c542)"
        strokeWidth="0.8"
        opacity="0.5"
      />
      {/* progress ring: track, then the filled arc starting at 12 o'clock */}
      <circle
        cx="100"
        cy="100"
        r={CLOCK_RING_RADIUS}
        fill="none"
        stroke="rgba(157,107,255,0.22)"
        strokeWidth="7"
      />
      <circle
        className="kb-clock-ring kb-art-glow"
        data-testid="clock-ring"
        cx="100"
        cy="100"
        r={CLOCK_RING_RADIUS}
        fill="none"
        stroke={`url(#${id}-ring)`}
        strokeWidth="7"
        strokeLinecap="round"
        strokeDasharray={CLOCK_RING_CIRCUMFERENCE.toFixed(2)}
        strokeDashoffset={ringOffset(pct).toFixed(2)}
        transform="rotate(-90 100 100)"
      />
      <circle cx="100" cy="100" r="76" fill={`url(#${id}-dial)`} stroke="#5c3d0e" strokeWidth="1.5" />
      {/* minute and hour marks */}
      {Array.from({ length: 60 }, (_, i) => {
        const hour = i % 5 === 0;
        const a = (i / 60) * Math.PI * 2;
        const r1 = hour ? 64 : 69;
        return (
          <line
            key={i}
            x1={100 + r1 * Math.sin(a)}
            y1={100 - r1 * Math.cos(a)}
            x2={100 + 72 * Math.sin(a)}
            y2={100 - 72 * Math.cos(a)}
            stroke={hour ? '#f3d48a' : 'rgba(243,212,138,0.35)'}
            strokeWidth={hour ? 2 : 0.8}
          />
        );
      })}
      {NUMERALS.map(([text, deg]) => {
        const a = (deg * Math.PI) / 180;
        return (
          <text
            key={text}
            x={100 + 53 * Math.sin(a)}
            y={100 - 53 * Math.cos(a) + 4}
            textAnchor="middle"
            fontSize="11"
            fontFamily="var(--kb-font-display, Georgia, serif)"
            fill="var(--kb-gold, #f5c542)"
            letterSpacing="1"
          >
            {text}
          </text>
        );
      })}
    </>
  );
}

/** The label and the percentage window, below the pivot where VI would be. */
export function ClockReadout({ label, pct }: { label: string; pct: number }) {
  return (
    <>
      {/* percentage window and label below the pivot, where VI would be */}
      <text
        x="100"
        y="157"
        textAnchor="middle"
        fontSize="10"
        letterSpacing="3"
        fill="var(--kb-teal, #2ee6d6)"
        fontFamily="var(--kb-font, system-ui, sans-serif)"
      >
        {label.toUpperCase()}
      </text>
      <rect
        x="70"
        y="118"
        width="60"
        height="26"
        rx="4"
        fill="#0b0918"
        stroke="var(--kb-gold, #f5c542)"
        strokeWidth="1"
      />
      <text
        x="100"
        y="133"
        textAnchor="middle"
        fontSize="17"
        fontWeight="700"
        fill="#fff4d6"
        fontFamily="var(--kb-font, system-ui, sans-serif)"
      >
        {pct}%
      </text>
    </>
  );
}

export function ClockHands({ angles }: { angles: { hour: number; minute: number; second: number } }) {
  return (
    <g strokeLinecap="round" data-testid="clock-hands">
      <line
        x1="100"
        y1="106"
        x2="100"
        y2="58"
        stroke="#f3d48a"
        strokeWidth="4"
        transform={`rotate(${angles.hour.toFixed(1)} 100 100)`}
        data-hand="hour"
      />
      <line
        x1="100"
        y1="108"
        x2="100"
        y2="38"
        stroke="#f3d48a"
        strokeWidth="2.6"
        transform={`rotate(${angles.minute.toFixed(1)} 100 100)`}
        data-hand="minute"
      />
      <line
        x1="100"
        y1="112"
        x2="100"
        y2="32"
        stroke="var(--kb-magenta, #ff4fd8)"
        strokeWidth="1.3"
        transform={`rotate(${angles.second.toFixed(1)} 100 100)`}
        data-hand="second"
      />
      <circle cx="100" cy="100" r="4.5" fill="var(--kb-magenta, #ff4fd8)" stroke="#fff4d6" strokeWidth="1" />
    </g>
  );
}
