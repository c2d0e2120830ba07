// The metrics operators alert on (the chart's PrometheusRule and dashboard use these names): dead
// letters per topic and group, consumer lag per group and partition, the outbox's backlog and the
// age of its oldest event, processing duration by stage and search latency by mode. Instruments are
// made per meter provider, so they follow telemetry restarts (tests).
import { metrics } from '@opentelemetry/api';
import type { Attributes, Counter, Histogram, MeterProvider, ObservableGauge } from '@opentelemetry/api';
import { TRACER_NAME } from './trace-context.ts';

/** Seconds: from a few milliseconds (a search) to minutes (OCR of a long scan). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

interface Instruments {
  deadLetters: Counter;
  stage: Histogram;
  search: Histogram;
}
const byProvider = new WeakMap<MeterProvider, Instruments>();

function instruments(): Instruments {
  const provider = metrics.getMeterProvider();
  let i = byProvider.get(provider);
  if (!i) {
    const meter = provider.getMeter(TRACER_NAME);
    const seconds = { unit: 's', advice: { explicitBucketBoundaries: DURATION_BUCKETS } };
    i = {
      // Exported as kaboodle_messaging_dead_letters_total{topic, group}.
      deadLetters: meter.createCounter('kaboodle.messaging.dead_letters', {
        description: 'Events a consumer gave up on and moved to the dead-letter topic',
      }),
      // kaboodle_processing_stage_duration{stage}
      stage: meter.createHistogram('kaboodle.processing.stage.duration', {
        ...seconds,
        description: 'Time spent in each stage of analysing a file (fetch, extract, enrich, embed, vision)',
      }),
      // kaboodle_search_duration{mode}
      search: meter.createHistogram('kaboodle.search.duration', {
        ...seconds,
        description: 'Time to answer a search, by mode (keyword, semantic, hybrid)',
      }),
    };
    byProvider.set(provider, i);
  }
  return i;
}

export function recordDeadLetter(topic: string, group: string): void {
  instruments().deadLetters.add(1, { topic, group });
}

export function recordStageDuration(stage: string, seconds: number, attributes: Attributes = {}): void {
  instruments().stage.record(seconds, { stage, ...attributes });
}

export function recordSearchDuration(mode: string, seconds: number): void {
  instruments().search.record(seconds, { mode });
}

/** Time an async step and record it as a processing stage, whatever its outcome. */
export async function timeStage<T>(stage: string, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  let outcome = 'ok';
  try {
    return await fn();
  } catch (err) {
    outcome = 'error';
    throw err;
  } finally {
    recordStageDuration(stage, (performance.now() - started) / 1000, { outcome });
  }
}

export interface GaugeReading {
  value: number;
  attributes: Attributes;
}

/**
 * A gauge read when metrics are collected (each /metrics scrape or OTLP export): `read` returns the
 * current values. Returns a function that removes it.
 */
export function observeGauge(
  name: string,
  description: string,
  read: () => Promise<GaugeReading[]> | GaugeReading[],
  unit?: string,
): () => void {
  const meter = metrics.getMeterProvider().getMeter(TRACER_NAME);
  const gauge: ObservableGauge = meter.createObservableGauge(name, { description, ...(unit && { unit }) });
  const callback = async (result: { observe(value: number, attributes?: Attributes): void }) => {
    try {
      for (const r of await read()) result.observe(r.value, r.attributes);
    } catch {
      // A reading that fails (engine away) is left out of this collection; readiness reports why.
    }
  };
  gauge.addCallback(callback);
  return () => gauge.removeCallback(callback);
}
