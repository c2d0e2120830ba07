// The brand mark: a gold Deco gear around a teal escapement jewel (matches the favicon).
import { gearPath } from './geometry.ts';

export function KaboodleMark({ size = 32, className }: { size?: number; className?: string }) {
  return (
    <svg className={className} width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <path
        d={gearPath({ cx: 16, cy: 16, outer: 15, inner: 12, teeth: 12, hole: 7.5 })}
        fill="var(--kb-gold, #f5c542)"
        fillRule="evenodd"
      />
      <circle cx="16" cy="16" r="5" fill="var(--kb-teal, #2ee6d6)" />
      <path
        d="M16 11.5v4.5l3 2"
        stroke="var(--kb-night, #07080f)"
        strokeWidth="1.4"
        fill="none"
        strokeLinecap="round"
      />
    </svg>
  );
}
