export { getTelemetry, shutdownTelemetry, startTelemetry } from './telemetry.ts';
export type { Telemetry, TelemetryOptions } from './telemetry.ts';
export {
  TRACER_NAME,
  currentTraceId,
  extractTraceContext,
  injectTraceHeaders,
  recordError,
  withSpan,
} from './trace-context.ts';
export type { WithSpanOptions } from './trace-context.ts';
export {
  observeGauge,
  recordDeadLetter,
  recordSearchDuration,
  recordStageDuration,
  timeStage,
} from './operator-metrics.ts';
export type { GaugeReading } from './operator-metrics.ts';
