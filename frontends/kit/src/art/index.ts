// Kaboodle's hand-made SVG art: Tick the mascot, gears, pendulum, frames, sparkles, clock face.
export { TickMascot } from './tick-mascot.tsx';
export type { TickMascotProps, TickPose, TickEyewear } from './tick-mascot.tsx';
export { Gears, Gear, useSvgId } from './gears.tsx';
export type { GearsProps, GearProps } from './gears.tsx';
export { Pendulum } from './pendulum.tsx';
export type { PendulumProps } from './pendulum.tsx';
export { OrnamentalFrame } from './ornamental-frame.tsx';
export type { OrnamentalFrameProps } from './ornamental-frame.tsx';
export { Sparkles } from './sparkles.tsx';
export type { SparklesProps } from './sparkles.tsx';
export { ClockFace } from './clock-face.tsx';
export type { ClockFaceProps } from './clock-face.tsx';
export {
  MascotWidget,
  MASCOT_GREETING_DESKTOP,
  MASCOT_GREETING_MOBILE,
  MASCOT_FALLBACK_EMOJI,
} from './mascot-widget.tsx';
export type { MascotWidgetProps } from './mascot-widget.tsx';
export {
  useMediaQuery,
  usePrefersReducedMotion,
  MOBILE_QUERY,
  REDUCED_MOTION_QUERY,
} from './use-media-query.ts';
export {
  CLOCK_RING_RADIUS,
  CLOCK_RING_CIRCUMFERENCE,
  clampPercent,
  gearPath,
  handAngles,
  ringOffset,
  sparklePositions,
  starPath,
} from './geometry.ts';
export { DecoIcon, DECO_ICON_NAMES } from './deco-icon.tsx';
export type { DecoIconName, DecoIconProps } from './deco-icon.tsx';
export { KaboodleMark } from './kaboodle-mark.tsx';
