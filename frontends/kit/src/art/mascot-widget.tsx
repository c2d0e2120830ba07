// The mascot widget (docs/product.md#observatory): a small Deco housing whose door swings open to reveal Tick
// with a speech bubble, "At your service!" on desktop and "Ready!" at 768 px or less. If a mascot image is
// given and fails to load, an emoji stands in so the housing is never empty.
import type { CSSProperties } from 'react';
import { useEffect, useState } from 'react';
import './art.css';
import { TickMascot } from './tick-mascot.tsx';
import { MOBILE_QUERY, useMediaQuery } from './use-media-query.ts';

export const MASCOT_GREETING_DESKTOP = 'At your service!';
export const MASCOT_GREETING_MOBILE = 'Ready!';
/** Shown when the mascot image cannot be loaded. */
export const MASCOT_FALLBACK_EMOJI = '🕰️';

export interface MascotWidgetProps {
  /** URL of a mascot picture; without it the inline SVG Tick is drawn (which cannot fail to load). */
  src?: string;
  /** Controlled door state; leave undefined to let the widget open itself and toggle on click. */
  open?: boolean;
  /** Delay before the door opens by itself, in ms. */
  openDelay?: number;
  onToggle?: (open: boolean) => void;
  /** Housing width in px. */
  size?: number;
  className?: string;
  style?: CSSProperties;
}

export function MascotWidget({
  src,
  open,
  openDelay = 400,
  onToggle,
  size = 150,
  className,
  style,
}: MascotWidgetProps) {
  const mobile = useMediaQuery(MOBILE_QUERY);
  const [selfOpen, setSelfOpen] = useState(false);
  const [imageFailed, setImageFailed] = useState(false);
  const isOpen = open ?? selfOpen;

  useEffect(() => {
    if (open !== undefined) return;
    const timer = setTimeout(() => setSelfOpen(true), openDelay);
    return () => clearTimeout(timer);
  }, [open, openDelay]);

  // a new picture gets a fresh chance to load
  useEffect(() => setImageFailed(false), [src]);

  const toggle = () => {
    const next = !isOpen;
    if (open === undefined) setSelfOpen(next);
    onToggle?.(next);
  };
  const greeting = mobile ? MASCOT_GREETING_MOBILE : MASCOT_GREETING_DESKTOP;

  let inside;
  if (src && !imageFailed) {
    inside = <img src={src} alt="Tick, the Kaboodle mascot" onError={() => setImageFailed(true)} />;
  } else if (src && imageFailed) {
    inside = (
      <span
        className="kb-widget-emoji"
        role="img"
        aria-label="Tick, the Kaboodle mascot"
        data-fallback="emoji"
      >
        {MASCOT_FALLBACK_EMOJI}
      </span>
    );
  } else {
    inside = <TickMascot pose="wave" title="Tick, the Kaboodle mascot" />;
  }

  return (
    <div
      className={`kb-widget ${className ?? ''}`}
      data-open={isOpen}
      style={{ ['--kb-widget-size' as string]: `${size}px`, ...style } as CSSProperties}
    >
      <div className="kb-widget-housing">
        <div className="kb-widget-inside">{inside}</div>
        <div className="kb-widget-door" aria-hidden="true" />
        <button
          type="button"
          className="kb-widget-toggle"
          aria-label={isOpen ? 'Close Tick’s door' : 'Open Tick’s door'}
          aria-pressed={isOpen}
          onClick={toggle}
        />
      </div>
      <p className="kb-widget-bubble" aria-live="polite">
        {isOpen ? greeting : ''}
      </p>
    </div>
  );
}
