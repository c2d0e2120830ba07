// What the chart ships for operators: a ServiceMonitor over every target's /metrics, alert rules and a
// Grafana dashboard — validated against the Prometheus Operator's schemas, and every metric they use
// checked against the names the code exports (so a renamed metric cannot silently blind an alert).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { byKind, named, render, root, validateAll } from './support/chart.ts';
import type { K8sObject, Loose } from './support/chart.ts';

let objects: K8sObject[];
beforeAll(async () => {
  objects = await render(
    'deploymentMode=distributed',
    'monitoring.serviceMonitor.enabled=true',
    'monitoring.prometheusRule.enabled=true',
    'monitoring.grafanaDashboard.enabled=true',
  );
});

/** Prometheus names the code exports: its instruments (dots to underscores) and the runtime's. */
async function exportedMetrics(): Promise<Set<string>> {
  const names = new Set<string>();
  const dirs = ['services/platform/src', 'services/search/src', 'services/processing/src'];
  for (const dir of dirs)
    for (const file of await readdir(path.join(root, dir), { recursive: true })) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
      const text = await readFile(path.join(root, dir, file), 'utf8');
      for (const m of text.matchAll(
        /create(Histogram|Counter|UpDownCounter|ObservableGauge)\(\s*'([\w.]+)'/g,
      ))
        names.add(m[2]!.replaceAll('.', '_') + (m[1] === 'Counter' ? '_total' : ''));
      for (const m of text.matchAll(/observeGauge\(\s*'([\w.]+)'/g)) names.add(m[1]!.replaceAll('.', '_'));
    }
  // @opentelemetry/instrumentation-runtime-node's (checked on a live /metrics by hand; see README).
  for (const n of [
    'nodejs_eventloop_delay_p99',
    'nodejs_eventloop_utilization',
    'v8js_memory_heap_used',
    'v8js_gc_duration',
  ])
    names.add(n);
  return names;
}

/** Metric names in a PromQL expression (histogram series suffixes removed). */
function metricsIn(expr: string): string[] {
  const words =
    expr
      .replace(/\{[^}]*\}/g, '')
      .replace(/\b(by|without)\s*\([^)]*\)/g, '')
      .match(/[a-z_][a-z0-9_]*/g) ?? [];
  const functions = new Set([
    'max',
    'sum',
    'by',
    'rate',
    'increase',
    'histogram_quantile',
    'le',
    'and',
    'or',
    'on',
  ]);
  return [...new Set(words.filter((w) => w.includes('_') && !functions.has(w)))]
    .filter((w) => /^(kaboodle|http|rpc|nodejs|v8js)_/.test(w))
    .map((w) => w.replace(/_(bucket|count|sum)$/, ''));
}

describe('observability objects in the chart', () => {
  it('validates against the Prometheus Operator schemas and selects every target', async () => {
    await validateAll(objects);
    const monitor = named(objects, 'ServiceMonitor', 'kb-kaboodle');
    expect(monitor.spec!.endpoints).toEqual([{ port: 'http', path: '/metrics', interval: '30s' }]);
    expect(monitor.spec!.selector.matchLabels).toEqual({
      'app.kubernetes.io/name': 'kaboodle',
      'app.kubernetes.io/instance': 'kb',
    });
    // Prometheus may scrape every target (NetworkPolicy), by default from the monitoring namespace.
    for (const target of ['auth', 'web', 'processing'])
      expect(JSON.stringify(named(objects, 'NetworkPolicy', `kb-kaboodle-${target}`).spec)).toContain(
        'monitoring',
      );
  });

  it('alerts on lag, dead-letter growth, a stuck outbox, error rate and p95 latency — on metrics the code exports', async () => {
    const rules = byKind(objects, 'PrometheusRule')[0]!.spec!.groups.flatMap((g: Loose) => g.rules) as Array<{
      alert: string;
      expr: string;
    }>;
    expect(rules.map((r) => r.alert).sort()).toEqual([
      'KaboodleConsumerLagHigh',
      'KaboodleDeadLettersGrowing',
      'KaboodleHttpErrorRateHigh',
      'KaboodleHttpLatencyP95High',
      'KaboodleOutboxStuck',
      'KaboodleSearchLatencyP95High',
    ]);
    const exported = await exportedMetrics();
    for (const rule of rules)
      for (const metric of metricsIn(rule.expr))
        expect(exported, `${rule.alert} uses ${metric}`).toContain(metric);
  });

  it('ships a Grafana dashboard whose every panel queries exported metrics', async () => {
    const cm = named(objects, 'ConfigMap', 'kb-kaboodle-dashboard');
    expect(cm.metadata.labels?.['grafana_dashboard']).toBe('1');
    const dashboard = JSON.parse(cm.data!['kaboodle.json']!) as {
      panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
    };
    expect(dashboard.panels.map((p) => p.title)).toEqual(
      expect.arrayContaining([
        'Consumer lag by group',
        'Dead letters (per 5 min)',
        'Outbox backlog',
        'Processing duration p95 by stage',
        'Search latency p95 by mode',
        'Node.js event loop delay p99',
      ]),
    );
    const exported = await exportedMetrics();
    for (const panel of dashboard.panels)
      for (const target of panel.targets)
        for (const metric of metricsIn(target.expr))
          expect(exported, `${panel.title} uses ${metric}`).toContain(metric);
  });

  it('renders none of them unless asked (the Prometheus Operator may not be installed)', async () => {
    const plain = await render('deploymentMode=distributed');
    expect(plain.filter((o) => ['ServiceMonitor', 'PrometheusRule'].includes(o.kind))).toEqual([]);
  });
});
