// Line icons drawn for Kaboodle (24×24, stroke = currentColor) so capability panels and cards do
// not depend on an emoji font, which many machines (and headless browsers) lack.
import type { CSSProperties } from 'react';
import { LIBRARY_ICONS } from './deco-icons-library.tsx';
import { TOOL_ICONS } from './deco-icons-tools.tsx';

// One table, in the order the icons were drawn (DECO_ICON_NAMES keeps it).
const PATHS = { ...LIBRARY_ICONS, ...TOOL_ICONS };

export type DecoIconName = keyof typeof PATHS;
export const DECO_ICON_NAMES = Object.keys(PATHS) as DecoIconName[];

export interface DecoIconProps {
  name: DecoIconName;
  /** Size in px. */
  size?: number;
  /** Accessible name; omit when the icon sits next to text that says the same. */
  title?: string;
  className?: string;
  style?: CSSProperties;
}

export function DecoIcon({ name, size = 24, title, className, style }: DecoIconProps) {
  return (
    <svg
      className={`kb-icon ${className ?? ''}`}
      style={style}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
      role={title ? 'img' : undefined}
      aria-label={title}
      aria-hidden={title ? undefined : true}
      data-icon={name}
    >
      {PATHS[name]}
    </svg>
  );
}
