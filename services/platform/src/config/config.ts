// The typed config kit: each module declares the env keys it reads; one parse validates them all and
// reports every problem at once (Loki Config.Validate, Immich EnvDto), so a bad deployment fails fast
// with a full list instead of one error per restart.
import path from 'node:path';

/** Result of parsing one raw value: the typed value, or a problem phrased to follow "KEY: ". */
type ParseResult<T> = { ok: true; value: T } | { ok: false; problem: string };

export type ConfigKind = 'string' | 'int' | 'bool' | 'url' | 'enum' | 'list' | 'duration' | 'path';

interface CommonOptions<T> {
  /** Used when the variable is unset or empty. A function is evaluated at parse time (e.g. cwd-based paths). */
  default?: T | (() => T);
  /** Unset (and no default) is a problem. */
  required?: boolean;
  /** The value is never printed: not in problems, not in `redact()`. */
  secret?: boolean;
  /** One line for docs and `describe()`. */
  description?: string;
  /** Extra rule on the parsed value; return a problem (e.g. "must be below 10") or undefined. */
  check?: (value: T) => string | undefined;
}

/** A declared env key. `R` is true when the parsed value is always present (default or required). */
export interface ConfigField<T, R extends boolean = boolean> {
  readonly kind: ConfigKind;
  readonly required: boolean;
  readonly secret: boolean;
  readonly description: string | undefined;
  /** Human-readable default for docs (undefined when none). */
  readonly defaultText: string | undefined;
  /** The default, evaluated (functions are called). */
  defaultValue(): T | undefined;
  parse(raw: string): ParseResult<T>;
  /** Phantom marker so inference can tell required/defaulted fields from optional ones. */
  readonly _present?: R;
}

type Present<O> = O extends { default: unknown } ? true : O extends { required: true } ? true : false;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any field type is accepted in a spec
export type ConfigSpec = Record<string, ConfigField<any, boolean>>;

/** The parsed, typed config object for a spec: fields without default or `required` may be undefined. */
export type ConfigOf<S extends ConfigSpec> = {
  readonly [K in keyof S]: S[K] extends ConfigField<infer T, infer R>
    ? R extends true
      ? T
      : T | undefined
    : never;
};

/** Thrown by `parse` with every problem found, one line each ("PORT: must be ..., got \"abc\""). */
export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(
      `invalid configuration (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n` +
        problems.map((p) => `  ${p}`).join('\n'),
    );
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

function field<T, O extends CommonOptions<T>>(
  kind: ConfigKind,
  options: O | undefined,
  parse: (raw: string) => ParseResult<T>,
  show: (value: T) => string = String,
): ConfigField<T, Present<O>> {
  const opts: CommonOptions<T> = options ?? {};
  const defaultValue = (): T | undefined =>
    typeof opts.default === 'function' ? (opts.default as () => T)() : opts.default;
  const defaultText =
    opts.default === undefined
      ? undefined
      : typeof opts.default === 'function'
        ? '(computed)'
        : opts.secret
          ? '(secret)'
          : show(opts.default as T);
  return {
    kind,
    required: opts.required === true,
    secret: opts.secret === true,
    description: opts.description,
    defaultText,
    defaultValue,
    parse(raw) {
      const result = parse(raw);
      if (!result.ok || !opts.check) return result;
      const problem = opts.check(result.value);
      return problem === undefined ? result : { ok: false, problem };
    },
  };
}

const got = (raw: string): string => `got ${JSON.stringify(raw)}`;

function rangeText(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return ` between ${min} and ${max}`;
  if (min !== undefined) return ` >= ${min}`;
  if (max !== undefined) return ` <= ${max}`;
  return '';
}

export interface IntOptions extends CommonOptions<number> {
  min?: number;
  max?: number;
}

export interface UrlOptions extends CommonOptions<string> {
  /** Allowed schemes without the colon, e.g. ['http', 'https']. Any scheme when absent. */
  protocols?: readonly string[];
}

export interface ListOptions extends CommonOptions<string[]> {
  /** Separator between items (default ","); items are trimmed and empty items dropped. */
  separator?: string;
  /** Rule per item; return a problem or undefined. */
  item?: (item: string) => string | undefined;
}

export interface DurationOptions extends Omit<CommonOptions<number>, 'default'> {
  /** Milliseconds, or a duration text like "30s". */
  default?: number | string;
  /** Bounds in milliseconds. */
  min?: number;
  max?: number;
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "250ms", "30s", "1.5m", "2h", "1d", or a bare number of milliseconds → milliseconds. */
export function parseDuration(raw: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/i.exec(raw.trim());
  if (!m) return undefined;
  const unit = DURATION_UNITS[(m[2] ?? 'ms').toLowerCase()] ?? 1;
  return Math.round(Number(m[1]) * unit);
}

function formatDuration(ms: number): string {
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

const BOOL_TRUE = new Set(['true', '1', 'yes', 'on']);
const BOOL_FALSE = new Set(['false', '0', 'no', 'off']);

/** Field builders: `env.int({ default: 8080, min: 1, max: 65535 })`, `env.enum(['a', 'b'] as const)`. */
export const env = {
  string<O extends CommonOptions<string>>(options?: O) {
    return field<string, O>('string', options, (raw) => ({ ok: true, value: raw }));
  },

  int<O extends IntOptions>(options?: O) {
    const { min, max } = options ?? {};
    return field<number, O>('int', options, (raw) => {
      const value = /^[+-]?\d+$/.test(raw) ? Number(raw) : NaN;
      if (
        !Number.isSafeInteger(value) ||
        (min !== undefined && value < min) ||
        (max !== undefined && value > max)
      ) {
        return { ok: false, problem: `must be an integer${rangeText(min, max)}, ${got(raw)}` };
      }
      return { ok: true, value };
    });
  },

  /** A TCP port, 1-65535. */
  port<O extends CommonOptions<number>>(options?: O) {
    return env.int({ min: 1, max: 65535, ...options } as O & IntOptions);
  },

  bool<O extends CommonOptions<boolean>>(options?: O) {
    return field<boolean, O>('bool', options, (raw) => {
      const v = raw.toLowerCase();
      if (BOOL_TRUE.has(v)) return { ok: true, value: true };
      if (BOOL_FALSE.has(v)) return { ok: true, value: false };
      return { ok: false, problem: `must be a boolean (true/false, 1/0, yes/no, on/off), ${got(raw)}` };
    });
  },

  /** An absolute URL; the original text is kept (URL normalisation would change e.g. trailing slashes). */
  url<O extends UrlOptions>(options?: O) {
    const protocols = options?.protocols;
    const expected = protocols ? ` (${protocols.join(', ')})` : '';
    return field<string, O>('url', options, (raw) => {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        return { ok: false, problem: `must be an absolute URL${expected}, ${got(raw)}` };
      }
      if (protocols && !protocols.includes(url.protocol.slice(0, -1))) {
        return { ok: false, problem: `must be a URL with scheme ${protocols.join(' or ')}, ${got(raw)}` };
      }
      return { ok: true, value: raw };
    });
  },

  /** One of fixed values, matched case-insensitively and returned in its declared spelling. */
  enum<const V extends readonly string[], O extends CommonOptions<V[number]>>(values: V, options?: O) {
    return field<V[number], O>('enum', options, (raw) => {
      const match = values.find((v) => v.toLowerCase() === raw.toLowerCase());
      return match === undefined
        ? { ok: false, problem: `must be one of ${values.join(', ')}, ${got(raw)}` }
        : { ok: true, value: match };
    });
  },

  list<O extends ListOptions>(options?: O) {
    const separator = options?.separator ?? ',';
    const item = options?.item;
    return field<string[], O>(
      'list',
      options,
      (raw) => {
        const items = raw
          .split(separator)
          .map((s) => s.trim())
          .filter((s) => s !== '');
        if (items.length === 0) return { ok: false, problem: `must list at least one item, ${got(raw)}` };
        for (const i of items) {
          const problem = item?.(i);
          if (problem !== undefined) return { ok: false, problem: `item ${JSON.stringify(i)} ${problem}` };
        }
        return { ok: true, value: items };
      },
      (v) => v.join(separator),
    );
  },

  /** A duration in milliseconds: "250ms", "30s", "5m", "1h", "1d" or a bare number of ms. */
  duration<O extends DurationOptions>(options?: O) {
    const { min, max } = options ?? {};
    const def = options?.default;
    let defaultMs: number | undefined;
    if (typeof def === 'string') {
      defaultMs = parseDuration(def);
      if (defaultMs === undefined) throw new TypeError(`invalid duration default ${JSON.stringify(def)}`);
    } else {
      defaultMs = def;
    }
    const common = { ...options, default: defaultMs } as CommonOptions<number>;
    if (defaultMs === undefined) delete common.default;
    return field<number, CommonOptions<number>>(
      'duration',
      common,
      (raw) => {
        const value = parseDuration(raw);
        const range =
          min !== undefined && max !== undefined
            ? ` between ${formatDuration(min)} and ${formatDuration(max)}`
            : min !== undefined
              ? ` of at least ${formatDuration(min)}`
              : max !== undefined
                ? ` of at most ${formatDuration(max)}`
                : '';
        if (value === undefined || (min !== undefined && value < min) || (max !== undefined && value > max)) {
          return { ok: false, problem: `must be a duration like 500ms, 30s, 5m or 1h${range}, ${got(raw)}` };
        }
        return { ok: true, value };
      },
      formatDuration,
    ) as ConfigField<number, Present<O>>;
  },

  /** A filesystem path, resolved to an absolute path against the process's working directory. */
  path<O extends CommonOptions<string>>(options?: O) {
    return field<string, O>('path', options, (raw) => ({ ok: true, value: path.resolve(raw) }));
  },
};

export interface DescribedKey {
  key: string;
  kind: ConfigKind;
  required: boolean;
  secret: boolean;
  default: string | undefined;
  description: string | undefined;
}

export interface ConfigSchema<S extends ConfigSpec> {
  readonly spec: S;
  /**
   * Parse and validate every declared key from `source` (default process.env). Unset and empty
   * values fall back to defaults. Throws ConfigError listing every problem; returns a frozen object.
   */
  parse(source?: Readonly<Record<string, string | undefined>>): ConfigOf<S>;
  /** Like parse, but returns the problems instead of throwing. */
  safeParse(
    source?: Readonly<Record<string, string | undefined>>,
  ): { ok: true; config: ConfigOf<S> } | { ok: false; problems: string[] };
  /** A copy safe to log: secrets replaced by "(secret)". */
  redact(config: ConfigOf<S>): Record<string, unknown>;
  /** One row per key, for docs and `--help`. */
  describe(): DescribedKey[];
  /** Cross-key rules, kept so `combineConfigs` can carry them over. */
  readonly validators: ReadonlyArray<(config: ConfigOf<S>) => string[]>;
}

export interface DefineConfigOptions<S extends ConfigSpec> {
  /**
   * Rules across keys (e.g. "S3_ACCESS_KEY: is required when S3_ENDPOINT is set"), returning problems.
   * Keys that failed their own rule read as undefined here, so guard comparisons accordingly.
   */
  validate?: (config: ConfigOf<S>) => string[];
}

/**
 * Declare a module's env keys; returns a schema that parses them. Combine modules' schemas with
 * `combineConfigs` so the entrypoint parses everything once and reports every problem together.
 */
export function defineConfig<S extends ConfigSpec>(
  spec: S,
  options: DefineConfigOptions<S> = {},
): ConfigSchema<S> {
  const validators = options.validate ? [options.validate] : [];
  return makeSchema(spec, validators);
}

function makeSchema<S extends ConfigSpec>(
  spec: S,
  validators: ReadonlyArray<(config: ConfigOf<S>) => string[]>,
): ConfigSchema<S> {
  const safeParse = (source: Readonly<Record<string, string | undefined>> = process.env) => {
    const problems: string[] = [];
    const out: Record<string, unknown> = {};
    for (const [key, f] of Object.entries(spec)) {
      const raw = source[key]?.trim();
      if (raw === undefined || raw === '') {
        const value = f.defaultValue();
        if (value === undefined && f.required) {
          problems.push(`${key}: is required${f.description ? ` (${f.description})` : ''}`);
        }
        out[key] = value;
        continue;
      }
      const result = f.parse(raw);
      if (result.ok) {
        out[key] = result.value;
      } else {
        // Never echo a secret, even a malformed one: it may be a real credential with a typo.
        const problem = f.secret ? result.problem.replace(/,? got ".*"$/s, ', got (secret)') : result.problem;
        problems.push(`${key}: ${problem}`);
      }
    }
    // Cross-key rules run even when some keys failed (those read as undefined), so one run lists everything.
    for (const v of validators) problems.push(...v(out as ConfigOf<S>));
    return problems.length > 0
      ? { ok: false as const, problems }
      : { ok: true as const, config: Object.freeze(out) as ConfigOf<S> };
  };
  return {
    spec,
    validators,
    safeParse,
    parse(source?: Readonly<Record<string, string | undefined>>) {
      const result = safeParse(source);
      if (!result.ok) throw new ConfigError(result.problems);
      return result.config;
    },
    redact(config: ConfigOf<S>) {
      const out: Record<string, unknown> = {};
      for (const [key, f] of Object.entries(spec)) {
        const value = (config as Record<string, unknown>)[key];
        out[key] = f.secret && value !== undefined ? '(secret)' : value;
      }
      return out;
    },
    describe() {
      return Object.entries(spec).map(([key, f]) => ({
        key,
        kind: f.kind,
        required: f.required,
        secret: f.secret,
        default: f.defaultText,
        description: f.description,
      }));
    },
  };
}

/**
 * Merge schemas (platform + each module) into one, so one parse reports every problem of every
 * module. A key declared by two schemas must be the very same field object (share it by import);
 * two different declarations of one key are a programming error.
 */
export function combineConfigs<A extends ConfigSpec, B extends ConfigSpec>(
  a: ConfigSchema<A>,
  b: ConfigSchema<B>,
): ConfigSchema<A & B>;
export function combineConfigs<A extends ConfigSpec, B extends ConfigSpec, C extends ConfigSpec>(
  a: ConfigSchema<A>,
  b: ConfigSchema<B>,
  c: ConfigSchema<C>,
): ConfigSchema<A & B & C>;
export function combineConfigs(...schemas: ConfigSchema<ConfigSpec>[]): ConfigSchema<ConfigSpec>;
export function combineConfigs(...schemas: ConfigSchema<ConfigSpec>[]): ConfigSchema<ConfigSpec> {
  const spec: ConfigSpec = {};
  for (const s of schemas) {
    for (const [key, f] of Object.entries(s.spec)) {
      if (spec[key] !== undefined && spec[key] !== f) {
        throw new TypeError(
          `config key ${key} is declared twice with different rules; share one declaration`,
        );
      }
      spec[key] = f;
    }
  }
  return makeSchema(
    spec,
    schemas.flatMap((s) => s.validators),
  );
}
