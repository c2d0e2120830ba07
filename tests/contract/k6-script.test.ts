// The k6 load script cannot run here (k6 is a Go binary no registry here ships), so its validity is
// checked instead: it type-checks against k6's own type definitions (@types/k6), and its options are
// evaluated (k6's modules stubbed) so every scenario names a function the script exports and every
// threshold parses under k6's grammar, on a metric that exists, with an aggregation of its type.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { root } from './support/chart.ts';

const run = promisify(execFile);
const SCRIPT = path.join(root, 'tests/load/search.k6.js');

type MetricType = 'trend' | 'counter' | 'rate' | 'gauge';
// k6's built-in metrics (https://grafana.com/docs/k6/latest/using-k6/metrics/reference/).
const BUILTIN: Record<string, MetricType> = {
  http_req_duration: 'trend',
  http_req_waiting: 'trend',
  http_req_connecting: 'trend',
  http_req_blocked: 'trend',
  http_req_sending: 'trend',
  http_req_receiving: 'trend',
  http_req_tls_handshaking: 'trend',
  iteration_duration: 'trend',
  http_req_failed: 'rate',
  checks: 'rate',
  http_reqs: 'counter',
  iterations: 'counter',
  dropped_iterations: 'counter',
  data_sent: 'counter',
  data_received: 'counter',
  vus: 'gauge',
  vus_max: 'gauge',
};
const EXECUTORS = new Set([
  'shared-iterations',
  'per-vu-iterations',
  'constant-vus',
  'ramping-vus',
  'constant-arrival-rate',
  'ramping-arrival-rate',
  'externally-controlled',
]);
const AGGREGATIONS: Record<MetricType, RegExp> = {
  trend: /^(avg|min|max|med|p\(\d+(\.\d+)?\))$/,
  counter: /^(count|rate)$/,
  rate: /^rate$/,
  gauge: /^(value|min|max)$/,
};

/** k6's threshold expression: `<aggregation> <operator> <number>`; throws on anything else. */
export function parseThreshold(expression: string): { aggregation: string; operator: string; value: number } {
  const m =
    /^\s*(avg|min|max|med|count|rate|value|p\((\d+(?:\.\d+)?)\))\s*(<=|>=|===|==|!=|<|>)\s*(-?\d+(?:\.\d+)?)\s*$/.exec(
      expression,
    );
  if (!m) throw new Error(`not a k6 threshold: ${JSON.stringify(expression)}`);
  if (m[2] !== undefined && !(Number(m[2]) > 0 && Number(m[2]) <= 100))
    throw new Error(`percentile out of range in ${expression}`);
  return { aggregation: m[1]!, operator: m[3]!, value: Number(m[4]) };
}

/** Evaluate the script with k6's modules stubbed: its options, exported functions and custom metrics. */
async function loadScript(env: Record<string, string> = {}) {
  const source = await readFile(SCRIPT, 'utf8');
  const metrics: Record<string, MetricType> = {};
  const metricClass = (type: MetricType) =>
    class {
      constructor(name: string) {
        metrics[name] = type;
      }
      add() {}
    };
  const stubs = {
    http: { post: () => ({}), get: () => ({}), file: () => ({}) },
    check: () => true,
    fail: (m: string) => {
      throw new Error(m);
    },
    sleep: () => undefined,
    exec: { vu: { idInTest: 1 }, scenario: { iterationInTest: 0 } },
    encoding: { b64decode: () => '{}' },
    Counter: metricClass('counter'),
    Trend: metricClass('trend'),
    Rate: metricClass('rate'),
    Gauge: metricClass('gauge'),
  };
  // ES module syntax to a script: imports become the stubs, exports plain declarations.
  const exported: string[] = [];
  const body = source
    .replace(
      /^import (\w+) from '(k6[^']*)';$/gm,
      (_, name: string, from: string) =>
        `const ${name} = __stubs.${{ 'k6/http': 'http', 'k6/execution': 'exec', 'k6/encoding': 'encoding' }[from] ?? name};`,
    )
    .replace(/^import \{([^}]*)\} from '(k6[^']*)';$/gm, (_, names: string) => `const {${names}} = __stubs;`)
    .replace(/^export (const|function) (\w+)/gm, (_, kind: string, name: string) => {
      exported.push(name);
      return `${kind} ${name}`;
    });
  const sandbox: Record<string, unknown> = { __ENV: env, __stubs: stubs, console };
  vm.runInNewContext(`${body}\n;__result = { options, ${exported.join(', ')} };`, sandbox, {
    filename: SCRIPT,
  });
  const result = sandbox.__result as Record<string, unknown> & {
    options: {
      scenarios: Record<string, { executor: string; exec?: string }>;
      thresholds: Record<string, Array<string | { threshold: string }>>;
    };
  };
  return { result, exported, metrics };
}

describe('tests/load/search.k6.js', () => {
  it('type-checks against k6’s type definitions', async () => {
    const tsc = path.join(root, 'node_modules/.bin/tsc');
    const args = [
      '--ignoreConfig',
      '--noEmit',
      '--allowJs',
      '--checkJs',
      '--strict',
      'false',
      '--target',
      'es2022',
      '--module',
      'es2022',
      '--moduleResolution',
      'bundler',
      '--lib',
      'es2022',
      '--types',
      'k6',
      '--skipLibCheck',
      SCRIPT,
      path.join(root, 'tests/load/k6-globals.d.ts'),
    ];
    const out = await run(tsc, args, { cwd: root }).then(
      () => '',
      (err: { stdout: string }) => err.stdout,
    );
    expect(out).toBe('');
  }, 60_000);

  it('runs every scenario on a function it exports, seeding first and renewing tokens', async () => {
    const { result, exported } = await loadScript();
    const scenarios = result.options.scenarios;
    expect(Object.keys(scenarios).sort()).toEqual(['cached', 'hybrid', 'keyword', 'upload']);
    for (const [name, s] of Object.entries(scenarios)) {
      expect(EXECUTORS, name).toContain(s.executor);
      expect(exported, `${name} runs ${s.exec}`).toContain(s.exec ?? 'default');
      expect(typeof result[s.exec ?? 'default'], name).toBe('function');
    }
    expect(exported).toContain('setup');
    const source = await readFile(SCRIPT, 'utf8');
    expect(source).toContain('/api/auth/refresh');
    expect(source).toContain('/upload');
  });

  it('has only thresholds k6 can parse, on metrics that exist, with aggregations of their type', async () => {
    const { result, metrics } = await loadScript();
    const known: Record<string, MetricType> = { ...BUILTIN, ...metrics };
    const scenarios = new Set(Object.keys(result.options.scenarios));
    for (const [key, list] of Object.entries(result.options.thresholds)) {
      const m = /^([a-z_][a-z0-9_]*)(\{([a-z_]+):([A-Za-z0-9_ /:.-]+)\})?$/.exec(key);
      expect(m, `threshold key ${key}`).not.toBeNull();
      const type = known[m![1]!];
      expect(type, `${key}: no metric ${m![1]}`).toBeDefined();
      if (m![3] === 'scenario') expect(scenarios, key).toContain(m![4]);
      for (const entry of list) {
        const expression = typeof entry === 'string' ? entry : entry.threshold;
        const { aggregation } = parseThreshold(expression);
        expect(aggregation, `${key}: ${expression}`).toMatch(AGGREGATIONS[type!]);
      }
    }
    expect(metrics).toEqual({
      search_degraded_to_keyword: 'counter',
      token_renewals: 'counter',
      upload_to_searchable: 'trend',
    });
  });

  it('takes its thresholds from the environment', async () => {
    const { result } = await loadScript({ KEYWORD_P95_MS: '25', SEARCHABLE_P95_S: '90' });
    expect(result.options.thresholds['http_req_duration{scenario:keyword}']).toEqual(['p(95)<25']);
    expect(result.options.thresholds['upload_to_searchable']).toEqual(['p(95)<90000']);
  });

  it('refuses what k6 would refuse', () => {
    expect(() => parseThreshold('p95<10')).toThrow(/not a k6 threshold/);
    expect(() => parseThreshold('p(101)<10')).toThrow(/percentile/);
    expect(() => parseThreshold('rate less than 0.1')).toThrow();
    expect(parseThreshold('p(99.9) <= 250')).toEqual({ aggregation: 'p(99.9)', operator: '<=', value: 250 });
  });
});
