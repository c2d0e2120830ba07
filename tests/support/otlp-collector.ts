// A local OpenTelemetry collector for tests: an HTTP server taking OTLP/HTTP JSON exports on
// /v1/traces (what @opentelemetry/exporter-trace-otlp-http sends), keeping every span with the
// service that sent it, and drawing one trace as a tree.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CollectedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  service: string;
  startNs: bigint;
  attributes: Record<string, unknown>;
}

export interface OtlpCollector {
  /** OTEL_EXPORTER_OTLP_ENDPOINT for the processes under test. */
  readonly endpoint: string;
  readonly spans: CollectedSpan[];
  trace(traceId: string): CollectedSpan[];
  /** One line per span, indented under its parent: `service: name`. */
  tree(traceId: string): string[];
  close(): Promise<void>;
}

const KINDS = ['', 'internal', 'server', 'client', 'producer', 'consumer'];

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
const value = (v: OtlpValue): unknown => v.stringValue ?? v.intValue ?? v.boolValue ?? v.doubleValue;
const attrs = (list: Array<{ key: string; value: OtlpValue }> | undefined) =>
  Object.fromEntries((list ?? []).map((a) => [a.key, value(a.value)]));

export async function startOtlpCollector(): Promise<OtlpCollector> {
  const spans: CollectedSpan[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      if (req.url === '/v1/traces' && body) {
        const payload = JSON.parse(body) as {
          resourceSpans?: Array<{
            resource?: { attributes?: Array<{ key: string; value: OtlpValue }> };
            scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }>;
          }>;
        };
        for (const rs of payload.resourceSpans ?? []) {
          const service = String(attrs(rs.resource?.attributes)['service.name'] ?? '?');
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? [])
              spans.push({
                traceId: String(s.traceId),
                spanId: String(s.spanId),
                parentSpanId: String(s.parentSpanId ?? ''),
                name: String(s.name),
                kind: Number(s.kind ?? 0),
                service,
                startNs: BigInt(String(s.startTimeUnixNano ?? '0')),
                attributes: attrs(s.attributes as Array<{ key: string; value: OtlpValue }>),
              });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const trace = (traceId: string) =>
    spans.filter((s) => s.traceId === traceId).sort((a, b) => (a.startNs < b.startNs ? -1 : 1));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    trace,
    tree(traceId) {
      const all = trace(traceId);
      const ids = new Set(all.map((s) => s.spanId));
      const lines: string[] = [];
      const walk = (parent: string, depth: number) => {
        for (const s of all.filter((x) =>
          parent === '' ? !ids.has(x.parentSpanId) : x.parentSpanId === parent,
        )) {
          lines.push(`${'  '.repeat(depth)}${s.service}: ${s.name} (${KINDS[s.kind] ?? s.kind})`);
          walk(s.spanId, depth + 1);
        }
      };
      walk('', 0);
      return lines;
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}
