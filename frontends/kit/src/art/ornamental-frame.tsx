// Art Deco frame: hairline brass border, inset double rule, stepped fan ornaments on each corner,
// an optional title plate on the top edge. Wraps any content.
import type { CSSProperties, ElementType, ReactNode } from 'react';
import './art.css';

export interface OrnamentalFrameProps {
  children?: ReactNode;
  /** A short caption set into the top rule (rendered in small caps). */
  title?: string;
  /** The element to render (section, article, div…). */
  as?: ElementType;
  className?: string;
  style?: CSSProperties;
  /** Extra attributes such as aria-labelledby or data-testid. */
  [attr: `aria-${string}` | `data-${string}`]: unknown;
}

/** One corner: a quarter sunburst and three stepped rules. Mirrored by CSS for the other corners. */
function Corner() {
  return (
    <svg viewBox="0 0 46 46" aria-hidden="true">
      <g fill="none" stroke="var(--kb-gold, #f5c542)" strokeWidth="1.4" strokeLinecap="square">
        <path d="M2 44 V2 H44" />
        <path d="M7 36 V7 H36" opacity="0.8" />
        <path d="M12 28 V12 H28" opacity="0.6" />
      </g>
      <g stroke="var(--kb-teal, #2ee6d6)" strokeWidth="1" opacity="0.9">
        {[0, 22.5, 45, 67.5, 90].map((a) => (
          <line
            key={a}
            x1="12"
            y1="12"
            x2={12 + 14 * Math.cos((a * Math.PI) / 180)}
            y2={12 + 14 * Math.sin((a * Math.PI) / 180)}
          />
        ))}
      </g>
      <rect x="9" y="9" width="6" height="6" transform="rotate(45 12 12)" fill="var(--kb-magenta, #ff4fd8)" />
      <circle cx="2" cy="2" r="2" fill="var(--kb-gold, #f5c542)" />
    </svg>
  );
}

export function OrnamentalFrame({
  children,
  title,
  as: Tag = 'div',
  className,
  style,
  ...attrs
}: OrnamentalFrameProps) {
  return (
    <Tag className={`kb-ornament ${className ?? ''}`} style={style} {...attrs}>
      {(['tl', 'tr', 'bl', 'br'] as const).map((pos) => (
        <span key={pos} className={`kb-ornament-corner ${pos}`} aria-hidden="true">
          <Corner />
        </span>
      ))}
      {title && <span className="kb-ornament-title">{title}</span>}
      {children}
    </Tag>
  );
}
