import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { combineConfigs, ConfigError, defineConfig, env, parseDuration } from './config.ts';
import { platformConfig, platformFields } from './platform-config.ts';

/** The problems a parse reports (fails the test when it unexpectedly succeeds). */
function problemsOf(parse: () => unknown): readonly string[] {
  try {
    parse();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('config kit', () => {
  describe('string', () => {
    it('reads the value, trimmed', () => {
      const c = defineConfig({ NAME: env.string() }).parse({ NAME: '  kaboodle ' });
      expect(c.NAME).toBe('kaboodle');
    });
    it('treats unset and empty as absent, using the default', () => {
      const s = defineConfig({ NAME: env.string({ default: 'x' }) });
      expect(s.parse({}).NAME).toBe('x');
      expect(s.parse({ NAME: '' }).NAME).toBe('x');
      expect(s.parse({ NAME: '   ' }).NAME).toBe('x');
    });
    it('leaves an optional key undefined', () => {
      expect(defineConfig({ NAME: env.string() }).parse({}).NAME).toBeUndefined();
    });
    it('reports a missing required key with its description', () => {
      const s = defineConfig({ TOKEN: env.string({ required: true, description: 'API token' }) });
      expect(problemsOf(() => s.parse({}))).toEqual(['TOKEN: is required (API token)']);
    });
    it('applies a custom check', () => {
      const s = defineConfig({
        NAME: env.string({ check: (v) => (v.length > 3 ? 'must be at most 3 characters' : undefined) }),
      });
      expect(problemsOf(() => s.parse({ NAME: 'abcd' }))).toEqual(['NAME: must be at most 3 characters']);
      expect(s.parse({ NAME: 'abc' }).NAME).toBe('abc');
    });
  });

  describe('int', () => {
    const s = defineConfig({ N: env.int({ min: 1, max: 10 }) });
    it('parses integers within range, with sign', () => {
      expect(s.parse({ N: '7' }).N).toBe(7);
      expect(defineConfig({ N: env.int() }).parse({ N: '-3' }).N).toBe(-3);
    });
    it.each(['abc', '1.5', '1e3', '0x10', '11', '0'])('rejects %j with the range in the message', (raw) => {
      expect(problemsOf(() => s.parse({ N: raw }))).toEqual([
        `N: must be an integer between 1 and 10, got ${JSON.stringify(raw)}`,
      ]);
    });
    it('words one-sided ranges', () => {
      expect(problemsOf(() => defineConfig({ N: env.int({ min: 5 }) }).parse({ N: '1' }))).toEqual([
        'N: must be an integer >= 5, got "1"',
      ]);
      expect(problemsOf(() => defineConfig({ N: env.int({ max: 5 }) }).parse({ N: '9' }))).toEqual([
        'N: must be an integer <= 5, got "9"',
      ]);
    });
    it('rejects integers beyond safe precision', () => {
      expect(
        problemsOf(() => defineConfig({ N: env.int() }).parse({ N: '99999999999999999999' })),
      ).toHaveLength(1);
    });
  });

  describe('port', () => {
    it('accepts 1-65535 and says so otherwise', () => {
      const s = defineConfig({ PORT: env.port({ default: 8080 }) });
      expect(s.parse({}).PORT).toBe(8080);
      expect(s.parse({ PORT: '65535' }).PORT).toBe(65535);
      expect(problemsOf(() => s.parse({ PORT: 'abc' }))).toEqual([
        'PORT: must be an integer between 1 and 65535, got "abc"',
      ]);
      expect(problemsOf(() => s.parse({ PORT: '70000' }))).toEqual([
        'PORT: must be an integer between 1 and 65535, got "70000"',
      ]);
    });
  });

  describe('bool', () => {
    const s = defineConfig({ B: env.bool({ default: false }) });
    it.each([
      ['true', true],
      ['TRUE', true],
      ['1', true],
      ['yes', true],
      ['on', true],
      ['false', false],
      ['0', false],
      ['No', false],
      ['off', false],
    ])('reads %j as %s', (raw, value) => {
      expect(s.parse({ B: raw }).B).toBe(value);
    });
    it('rejects anything else', () => {
      expect(problemsOf(() => s.parse({ B: 'maybe' }))).toEqual([
        'B: must be a boolean (true/false, 1/0, yes/no, on/off), got "maybe"',
      ]);
    });
  });

  describe('url', () => {
    const s = defineConfig({ U: env.url({ protocols: ['http', 'https'] }) });
    it('keeps the original text of a valid URL', () => {
      expect(s.parse({ U: 'http://collector:4318/' }).U).toBe('http://collector:4318/');
    });
    it('rejects relative or malformed URLs', () => {
      expect(problemsOf(() => s.parse({ U: 'collector:4318x' }))).toEqual([
        'U: must be a URL with scheme http or https, got "collector:4318x"',
      ]);
      expect(problemsOf(() => s.parse({ U: '/v1/traces' }))).toEqual([
        'U: must be an absolute URL (http, https), got "/v1/traces"',
      ]);
    });
    it('rejects a scheme outside the allowed list', () => {
      expect(problemsOf(() => s.parse({ U: 'ftp://x' }))).toEqual([
        'U: must be a URL with scheme http or https, got "ftp://x"',
      ]);
    });
  });

  describe('enum', () => {
    const s = defineConfig({ E: env.enum(['debug', 'info'] as const, { default: 'info' }) });
    it('matches case-insensitively and returns the declared spelling', () => {
      expect(s.parse({ E: 'DEBUG' }).E).toBe('debug');
      expect(s.parse({}).E).toBe('info');
    });
    it('lists the allowed values when the value is not one', () => {
      expect(problemsOf(() => s.parse({ E: 'loud' }))).toEqual(['E: must be one of debug, info, got "loud"']);
    });
  });

  describe('list', () => {
    it('splits on commas, trims and drops empty items', () => {
      expect(defineConfig({ L: env.list() }).parse({ L: ' a, b ,,c ' }).L).toEqual(['a', 'b', 'c']);
    });
    it('supports another separator', () => {
      expect(defineConfig({ L: env.list({ separator: ';' }) }).parse({ L: 'a,b;c' }).L).toEqual(['a,b', 'c']);
    });
    it('rejects a list of only separators', () => {
      expect(problemsOf(() => defineConfig({ L: env.list() }).parse({ L: ',,' }))).toEqual([
        'L: must list at least one item, got ",,"',
      ]);
    });
    it('checks every item and names the bad one', () => {
      const s = defineConfig({
        L: env.list({ item: (i) => (/^\d+$/.test(i) ? undefined : 'must be digits') }),
      });
      expect(problemsOf(() => s.parse({ L: '1,x,3' }))).toEqual(['L: item "x" must be digits']);
    });
  });

  describe('duration', () => {
    it.each([
      ['250', 250],
      ['250ms', 250],
      ['30s', 30_000],
      ['1.5s', 1500],
      ['5m', 300_000],
      ['2h', 7_200_000],
      ['1d', 86_400_000],
      ['10 S', 10_000],
    ])('reads %j as %d ms', (raw, ms) => {
      expect(defineConfig({ D: env.duration() }).parse({ D: raw }).D).toBe(ms);
      expect(parseDuration(raw)).toBe(ms);
    });
    it('accepts a default as text or milliseconds', () => {
      expect(defineConfig({ D: env.duration({ default: '30s' }) }).parse({}).D).toBe(30_000);
      expect(defineConfig({ D: env.duration({ default: 500 }) }).parse({}).D).toBe(500);
    });
    it('refuses an invalid default at declaration time', () => {
      expect(() => env.duration({ default: 'soon' })).toThrow(/invalid duration default "soon"/);
    });
    it('rejects malformed and out-of-range values', () => {
      const s = defineConfig({ D: env.duration({ min: 1000, max: 60_000 }) });
      expect(problemsOf(() => s.parse({ D: 'soon' }))).toEqual([
        'D: must be a duration like 500ms, 30s, 5m or 1h between 1s and 1m, got "soon"',
      ]);
      expect(problemsOf(() => s.parse({ D: '2m' }))).toEqual([
        'D: must be a duration like 500ms, 30s, 5m or 1h between 1s and 1m, got "2m"',
      ]);
      expect(s.parse({ D: '1m' }).D).toBe(60_000);
    });
  });

  describe('path', () => {
    it('resolves a relative path against the working directory', () => {
      expect(defineConfig({ P: env.path() }).parse({ P: 'data' }).P).toBe(path.resolve('data'));
      expect(defineConfig({ P: env.path() }).parse({ P: '/srv/data' }).P).toBe('/srv/data');
    });
    it('evaluates a computed default at parse time', () => {
      let calls = 0;
      const s = defineConfig({
        P: env.path({
          default: () => {
            calls += 1;
            return '/computed';
          },
        }),
      });
      expect(calls).toBe(0);
      expect(s.parse({}).P).toBe('/computed');
      expect(calls).toBe(1);
    });
  });

  describe('secrets', () => {
    const s = defineConfig({
      DB: env.url({ secret: true, protocols: ['postgres'] }),
      KEY: env.string({ secret: true }),
      NAME: env.string(),
    });
    it('never echoes a secret value in a problem', () => {
      const problems = problemsOf(() => s.parse({ DB: 'mysql://root:hunter2@db/x' }));
      expect(problems).toEqual(['DB: must be a URL with scheme postgres, got (secret)']);
      expect(problems.join('\n')).not.toContain('hunter2');
    });
    it('redacts secrets for logging and keeps other values', () => {
      const c = s.parse({ DB: 'postgres://u:hunter2@db/x', KEY: 'k', NAME: 'n' });
      expect(s.redact(c)).toEqual({ DB: '(secret)', KEY: '(secret)', NAME: 'n' });
      expect(JSON.stringify(s.redact(c))).not.toContain('hunter2');
    });
    it('leaves an absent secret as undefined in the redacted copy', () => {
      expect(s.redact(s.parse({}))).toEqual({ DB: undefined, KEY: undefined, NAME: undefined });
    });
  });

  describe('schema', () => {
    it('collects every problem in one error, one line each, in declaration order', () => {
      const s = defineConfig({
        A: env.int(),
        B: env.bool(),
        C: env.string({ required: true }),
        D: env.enum(['x'] as const),
      });
      const err = (() => {
        try {
          s.parse({ A: 'one', B: 'perhaps', D: 'y' });
        } catch (e) {
          return e as ConfigError;
        }
        throw new Error('expected a ConfigError');
      })();
      expect(err.problems).toEqual([
        'A: must be an integer, got "one"',
        'B: must be a boolean (true/false, 1/0, yes/no, on/off), got "perhaps"',
        'C: is required',
        'D: must be one of x, got "y"',
      ]);
      expect(err.message).toBe(
        'invalid configuration (4 problems):\n' + err.problems.map((p) => `  ${p}`).join('\n'),
      );
    });
    it('safeParse returns problems instead of throwing', () => {
      const result = defineConfig({ A: env.int() }).safeParse({ A: 'x' });
      expect(result).toEqual({ ok: false, problems: ['A: must be an integer, got "x"'] });
    });
    it('returns a frozen object', () => {
      const c = defineConfig({ A: env.int({ default: 1 }) }).parse({});
      expect(Object.isFrozen(c)).toBe(true);
    });
    it('reads process.env by default', () => {
      process.env.KABOODLE_TEST_CONFIG_KEY = '42';
      try {
        expect(defineConfig({ KABOODLE_TEST_CONFIG_KEY: env.int() }).parse().KABOODLE_TEST_CONFIG_KEY).toBe(
          42,
        );
      } finally {
        delete process.env.KABOODLE_TEST_CONFIG_KEY;
      }
    });
    it('runs cross-key rules alongside per-key problems', () => {
      const s = defineConfig(
        { A: env.int(), B: env.int(), C: env.bool() },
        {
          validate: (c) =>
            c.A !== undefined && c.B !== undefined && c.A > c.B ? ['B: must be at least A'] : [],
        },
      );
      expect(problemsOf(() => s.parse({ A: '5', B: '1', C: 'x' }))).toEqual([
        'C: must be a boolean (true/false, 1/0, yes/no, on/off), got "x"',
        'B: must be at least A',
      ]);
    });
    it('describes its keys for docs, hiding secret defaults', () => {
      const s = defineConfig({
        PORT: env.port({ default: 8080, description: 'HTTP port' }),
        PASS: env.string({ secret: true, default: 'changeme' }),
        WAIT: env.duration({ default: '5m' }),
        DIR: env.path({ default: () => '/x' }),
      });
      expect(s.describe()).toEqual([
        {
          key: 'PORT',
          kind: 'int',
          required: false,
          secret: false,
          default: '8080',
          description: 'HTTP port',
        },
        {
          key: 'PASS',
          kind: 'string',
          required: false,
          secret: true,
          default: '(secret)',
          description: undefined,
        },
        {
          key: 'WAIT',
          kind: 'duration',
          required: false,
          secret: false,
          default: '5m',
          description: undefined,
        },
        {
          key: 'DIR',
          kind: 'path',
          required: false,
          secret: false,
          default: '(computed)',
          description: undefined,
        },
      ]);
    });
  });

  describe('combineConfigs', () => {
    it('parses several modules at once and reports all their problems together', () => {
      const mine = defineConfig({
        MY_LIMIT: env.int({ default: 5 }),
        DATABASE_URL: platformFields.DATABASE_URL,
      });
      const all = combineConfigs(platformConfig, mine);
      const c = all.parse({ MY_LIMIT: '9' });
      expect(c.MY_LIMIT).toBe(9);
      expect(c.PORT).toBe(8080);
      expect(problemsOf(() => all.parse({ MY_LIMIT: 'x', PORT: 'y' }))).toEqual([
        'PORT: must be an integer between 0 and 65535, got "y"',
        'MY_LIMIT: must be an integer, got "x"',
      ]);
    });
    it('keeps each schema’s cross-key rules', () => {
      const mine = defineConfig(
        { X: env.int() },
        { validate: (c) => (c.X === 13 ? ['X: must not be 13'] : []) },
      );
      const all = combineConfigs(platformConfig, mine);
      expect(problemsOf(() => all.parse({ X: '13', S3_ENDPOINT: 'http://s3:9000' }))).toEqual([
        'S3_ACCESS_KEY: is required when S3_ENDPOINT is set',
        'S3_SECRET_KEY: is required when S3_ENDPOINT is set',
        'X: must not be 13',
      ]);
    });
    it('refuses one key declared twice with different rules', () => {
      const other = defineConfig({ PORT: env.port({ default: 3000 }) });
      expect(() => combineConfigs(platformConfig, other)).toThrow(/PORT is declared twice/);
    });
  });
});

describe('platform config', () => {
  it('runs with no configuration at all', () => {
    const c = platformConfig.parse({});
    expect(c).toMatchObject({
      PORT: 8080,
      HOST: '0.0.0.0',
      KABOODLE_DATA_DIR: path.resolve('.data'),
      LOG_LEVEL: 'info',
      NODE_ENV: 'development',
      OTEL_SERVICE_NAME: 'kaboodle',
      GRPC_PORT: 9090,
      S3_BUCKET: 'kaboodle',
    });
    for (const key of [
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      'DATABASE_URL',
      'KAFKA_BROKERS',
      'S3_ENDPOINT',
      'S3_ACCESS_KEY',
      'S3_SECRET_KEY',
      'S3_REGION',
    ] as const) {
      expect(c[key]).toBeUndefined();
    }
  });

  it('reads real engine settings', () => {
    const c = platformConfig.parse({
      PORT: '3000',
      DATABASE_URL: 'postgresql://kaboodle@127.0.0.1:5432/kaboodle',
      KAFKA_BROKERS: '127.0.0.1:9092, broker-2.local:9093',
      S3_ENDPOINT: 'http://127.0.0.1:4568',
      S3_ACCESS_KEY: 'S3RVER',
      S3_SECRET_KEY: 'S3RVER',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      KABOODLE_DATA_DIR: 'var/data',
      LOG_LEVEL: 'DEBUG',
    });
    expect(c.KAFKA_BROKERS).toEqual(['127.0.0.1:9092', 'broker-2.local:9093']);
    expect(c.KABOODLE_DATA_DIR).toBe(path.resolve('var/data'));
    expect(c.LOG_LEVEL).toBe('debug');
    expect(platformConfig.redact(c).S3_SECRET_KEY).toBe('(secret)');
    expect(platformConfig.redact(c).DATABASE_URL).toBe('(secret)');
  });

  it('lists every problem of a bad environment', () => {
    expect(
      problemsOf(() =>
        platformConfig.parse({
          PORT: 'abc',
          LOG_LEVEL: 'loud',
          GRPC_PORT: '-1',
          DATABASE_URL: 'mysql://root:pw@db/x',
          KAFKA_BROKERS: 'broker-1:9092,broker-2',
          S3_ENDPOINT: 'http://s3:9000',
          S3_BUCKET: 'Bad_Bucket',
          NODE_ENV: 'staging',
        }),
      ),
    ).toEqual([
      'PORT: must be an integer between 0 and 65535, got "abc"',
      'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
      'NODE_ENV: must be one of development, production, test, got "staging"',
      'GRPC_PORT: must be an integer between 0 and 65535, got "-1"',
      'DATABASE_URL: must be a URL with scheme postgres or postgresql, got (secret)',
      'KAFKA_BROKERS: item "broker-2" must be host:port',
      'S3_BUCKET: must be a valid bucket name (3-63 of a-z 0-9 . -), got "Bad_Bucket"',
      'S3_ACCESS_KEY: is required when S3_ENDPOINT is set',
      'S3_SECRET_KEY: is required when S3_ENDPOINT is set',
    ]);
  });

  it('accepts port 0 (pick a free port) for both servers', () => {
    expect(platformConfig.parse({ PORT: '0', GRPC_PORT: '0' })).toMatchObject({ PORT: 0, GRPC_PORT: 0 });
  });

  it('refuses the same port for HTTP and gRPC', () => {
    expect(problemsOf(() => platformConfig.parse({ PORT: '9000', GRPC_PORT: '9000' }))).toEqual([
      'GRPC_PORT: must differ from PORT (both are 9000)',
    ]);
  });
});
