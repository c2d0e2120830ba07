// One trace from an upload to search, across processes: every service in its own process (mutual
// TLS between them, Kafka between them through a private librdkafka mock broker), each exporting
// OTLP/HTTP to a local collector. The upload's trace must reach ingestion's HTTP handler, the Kafka
// hops, processing's analysis, the catalogue (its Postgres/PGlite writes) and search's indexing.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCertificates } from '../../services/platform/src/grpc/testing/test-certificates.ts';
import { kafkaMockMissing, startKafkaMock } from '../chaos/support/private-engines.ts';
import type { PrivateBroker } from '../chaos/support/private-engines.ts';
import { startKaboodleProcess, tempDataDir } from '../support/kaboodle-process.ts';
import type { KaboodleProcess } from '../support/kaboodle-process.ts';
import { startOtlpCollector } from '../support/otlp-collector.ts';
import type { OtlpCollector } from '../support/otlp-collector.ts';

const missing = kafkaMockMissing();
if (missing) console.log(`[trace] skipped: ${missing}`);
const json = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };

describe.skipIf(missing)('one trace from an upload through Kafka, processing, catalogue and search', () => {
  const data = tempDataDir();
  const certs = createTestCertificates();
  let broker: PrivateBroker;
  let collector: OtlpCollector;
  const procs: KaboodleProcess[] = [];
  const url: Record<string, string> = {};

  beforeAll(async () => {
    broker = await startKafkaMock();
    collector = await startOtlpCollector();
    const env = (target: string) => {
      const f = certs.files(target);
      return {
        KABOODLE_DATA_DIR: data.dir,
        KAFKA_BROKERS: broker.brokers,
        DATABASE_URL: '',
        S3_ENDPOINT: '',
        OTEL_SERVICE_NAME: `kaboodle-${target}`,
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
        OTEL_TRACES_SAMPLER: 'always_on',
        OTEL_BSP_SCHEDULE_DELAY: '200',
        GRPC_TLS_CERT_FILE: f.certFile,
        GRPC_TLS_KEY_FILE: f.keyFile,
        GRPC_TLS_CA_FILE: f.caFile,
      };
    };
    const auth = await startKaboodleProcess({ target: 'auth', env: env('auth') });
    const processing = await startKaboodleProcess({ target: 'processing', env: env('processing') });
    procs.push(auth, processing);
    const grpc = (p: KaboodleProcess) => p.grpcAddress!.replace(/^0\.0\.0\.0:/, '127.0.0.1:');
    const peers = { AUTH_URL: auth.url, PROCESSING_GRPC_ADDRESS: grpc(processing) };
    const catalogue = await startKaboodleProcess({
      target: 'catalogue',
      env: { ...env('catalogue'), ...peers },
    });
    procs.push(catalogue);
    const [ingestion, search] = await Promise.all(
      (['ingestion', 'search'] as const).map((t) =>
        startKaboodleProcess({
          target: t,
          env: { ...env(t), ...peers, CATALOGUE_GRPC_ADDRESS: grpc(catalogue) },
        }),
      ),
    );
    procs.push(ingestion!, search!);
    Object.assign(url, { auth: auth.url, ingestion: ingestion!.url, search: search!.url });
  }, 240_000);
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    broker?.stop();
    await collector?.close();
    certs.remove();
    data.remove();
  });

  it('follows the upload from ingestion’s handler to search’s index write in one trace', async () => {
    const email = `trace-${randomUUID()}@example.com`;
    const registered = await fetch(new URL('/api/auth/register', url.auth), {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email, password: 'correct horse battery staple', name: 'Tracy Trace' }),
    });
    expect(registered.status).toBe(201);
    const { token } = (await registered.json()) as { token: string };
    const bearer = { authorization: `Bearer ${token}` };

    const entry = `trace${randomUUID().replaceAll('-', '')}`;
    const form = new FormData();
    form.append(
      'file',
      new Blob([`Trace Notes\n\nLanterns along the harbour, ${entry}.`], { type: 'text/plain' }),
      'trace-notes.txt',
    );
    const uploaded = await fetch(new URL('/process', url.ingestion), {
      method: 'POST',
      headers: { 'x-requested-with': 'XMLHttpRequest', ...bearer },
      body: form,
    });
    expect(uploaded.status).toBe(202);
    const { id: fileId } = (await uploaded.json()) as { id: string };
    const found = async () => {
      const res = await fetch(new URL('/api/search', url.search), {
        method: 'POST',
        headers: { ...json, ...bearer },
        body: JSON.stringify({ query: entry, search_type: 'keyword', limit: 5 }),
      });
      return ((await res.json()) as { results?: { id: string }[] }).results?.map((r) => r.id) ?? [];
    };
    await expect.poll(found, { timeout: 120_000, interval: 500 }).toContain(fileId);

    // The upload request's server span at ingestion starts the trace.
    const root = () =>
      collector.spans.find(
        (s) =>
          s.service === 'kaboodle-ingestion' && s.kind === 2 && s.name === 'POST /process' && !s.parentSpanId,
      );
    await expect.poll(() => root()?.traceId, { timeout: 15_000 }).toBeDefined();
    const traceId = root()!.traceId;
    const services = () => new Set(collector.trace(traceId).map((s) => s.service));
    // (auth too when ingestion fetched its signing keys to check the token on this request)
    await expect
      .poll(() => [...services()].sort(), { timeout: 20_000 })
      .toEqual(
        expect.arrayContaining([
          'kaboodle-catalogue',
          'kaboodle-ingestion',
          'kaboodle-processing',
          'kaboodle-search',
        ]),
      );
    // A span is exported when it ends, and a consumer's span ends after its handler: the catalogue's
    // handling of file.processed can end after search's span below it was exported. So wait for
    // every span named here (a loaded machine took more than a second), then check them all.
    const expected = [
      /kaboodle-processing: .*kaboodle\.file\.processed\.v1/,
      /kaboodle-catalogue: process kaboodle\.file\.processed\.v1/,
      /kaboodle-search: process kaboodle\.catalogue\.changed\.v1/,
    ];
    const names = () => collector.trace(traceId).map((s) => `${s.service}: ${s.name}`);
    await expect
      .poll(() => expected.filter((re) => !names().some((n) => re.test(n))).map(String), { timeout: 30_000 })
      .toEqual([]);
    await new Promise((r) => setTimeout(r, 1_000)); // the last batches
    const spans = collector.trace(traceId);
    // file.uploaded leaves ingestion through its outbox, which stored the request's trace context in
    // the event's headers: processing's consumer span is a child of ingestion's request handler.
    const consumed = spans.find(
      (s) => s.service === 'kaboodle-processing' && s.name === 'process kaboodle.file.uploaded.v1',
    );
    expect(consumed?.attributes['messaging.system']).toBe('kafka');
    expect(spans.find((s) => s.spanId === consumed?.parentSpanId)?.service).toBe('kaboodle-ingestion');
    // catalogue.changed too leaves through the catalogue's outbox: search's consumer hangs off the
    // catalogue's handling of file.processed.
    const indexed = spans.find(
      (s) => s.service === 'kaboodle-search' && s.name === 'process kaboodle.catalogue.changed.v1',
    );
    expect(spans.find((s) => s.spanId === indexed?.parentSpanId)?.service).toBe('kaboodle-catalogue');
    // Every span of it hangs off the upload: one tree, no orphans.
    const ids = new Set(spans.map((s) => s.spanId));
    expect(spans.filter((s) => s.parentSpanId && !ids.has(s.parentSpanId)).map((s) => s.name)).toEqual([]);
    console.log(`[trace] ${spans.length} spans, trace ${traceId}:\n${collector.tree(traceId).join('\n')}`);
  }, 240_000);
});
