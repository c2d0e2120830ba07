// pino JSON logs: `msg`, `component`, `err`, and the active OpenTelemetry trace/span ids on every
// line, so a log line leads to its trace. Pretty output only on a TTY, and only when the pino-pretty
// dev dependency is installed (production images carry plain JSON).
import { createRequire } from 'node:module';
import { isSpanContextValid, trace, context } from '@opentelemetry/api';
import { pino, stdSerializers } from 'pino';
import type { DestinationStream, Logger as PinoLogger, LoggerOptions } from 'pino';

export type Logger = PinoLogger;
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface CreateLoggerOptions {
  /** Minimum level (default info). */
  level?: LogLevel;
  /** What part of the system logs: `server`, `http`, `catalogue.consumer`... */
  component: string;
  /** Where lines go (default stdout). Tests pass a stream to read the lines back. */
  destination?: DestinationStream;
  /** Pretty-print: default true only when stdout is a TTY and pino-pretty is installed. */
  pretty?: boolean;
  /** Extra fields on every line. */
  base?: Record<string, unknown>;
}

/**
 * Paths removed from every line wherever they appear one level deep, so a careless
 * `log.info({ headers })` cannot leak credentials.
 */
const REDACT_PATHS = [
  'password',
  '*.password',
  'token',
  '*.token',
  'secret',
  '*.secret',
  'authorization',
  '*.authorization',
  'cookie',
  '*.cookie',
  '*.headers.authorization',
  '*.headers.cookie',
  '*.headers["set-cookie"]',
];

/** The active span's ids (OpenTelemetry log data model names), or nothing outside a span. */
function traceFields(): Record<string, string> {
  const span = trace.getSpan(context.active());
  const sc = span?.spanContext();
  if (!sc || !isSpanContextValid(sc)) return {};
  return {
    trace_id: sc.traceId,
    span_id: sc.spanId,
    trace_flags: `0${sc.traceFlags.toString(16)}`.slice(-2),
  };
}

function prettyStream(): DestinationStream | undefined {
  try {
    // Resolved at run time: pino-pretty is a dev dependency and may be absent in production.
    const require = createRequire(import.meta.url);
    const build = require('pino-pretty') as (opts: Record<string, unknown>) => DestinationStream;
    // sync: the last lines before a crash must reach the terminal.
    return build({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', sync: true });
  } catch {
    return undefined;
  }
}

export function createLogger(options: CreateLoggerOptions): Logger {
  if (!options.component) throw new TypeError('createLogger: component is required');
  const pinoOptions: LoggerOptions = {
    level: options.level ?? 'info',
    messageKey: 'msg',
    errorKey: 'err',
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Level as its name ("info"), which log pipelines read without a lookup table.
    formatters: { level: (label) => ({ level: label }) },
    serializers: { err: stdSerializers.err, error: stdSerializers.err },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    mixin: traceFields,
  };
  let destination = options.destination;
  const wantPretty = options.pretty ?? (destination === undefined && process.stdout.isTTY === true);
  if (wantPretty) destination = prettyStream() ?? destination;
  const root = destination ? pino(pinoOptions, destination) : pino(pinoOptions);
  roots.add(root);
  // `component` is a child binding, not in `base`, so childLogger can replace it (see below).
  return root.child({ ...options.base, component: options.component });
}

// Roots made by createLogger. pino children inherit from their parent's prototype chain, so the
// root of any child can be found by walking it.
const roots = new WeakSet<object>();

function rootOf(logger: Logger): Logger | undefined {
  for (let l: object | null = logger; l !== null; l = Object.getPrototypeOf(l) as object | null) {
    if (roots.has(l)) return l as Logger;
  }
  return undefined;
}

/**
 * A logger for another component, keeping the parent's other bindings, level, destination and
 * trace ids. Unlike `logger.child({ component })`, which would print `component` twice (pino appends
 * child bindings), this rebuilds the child from the root with the component replaced.
 */
export function childLogger(
  logger: Logger,
  component: string,
  bindings: Record<string, unknown> = {},
): Logger {
  const root = rootOf(logger);
  const child = root
    ? root.child({ ...logger.bindings(), ...bindings, component })
    : logger.child({ ...bindings, component });
  child.level = logger.level;
  return child;
}
