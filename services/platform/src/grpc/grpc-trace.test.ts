// Trace context crosses a real gRPC hop: the client span's traceparent goes out in the metadata,
// the server span is its child, and the handler (and its log lines) run inside the server span.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { ProcessingService } from '@kaboodle/proto';
import { NotFoundError } from '../errors.ts';
import { createLogger } from '../log/index.ts';
import { getTelemetry, shutdownTelemetry, startTelemetry, withSpan } from '../telemetry/index.ts';
import { createGrpcClient, createGrpcServer, implementGrpcService } from './index.ts';
import type { GrpcServer } from './index.ts';

const exporter = new InMemorySpanExporter();
const lines: Array<Record<string, unknown>> = [];
const logger = createLogger({
  component: 'grpc-trace-test',
  level: 'debug',
  destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
});

let seenByHandler: { traceId: string; spanId: string; traceparent: string | undefined } | undefined;
let server: GrpcServer;

beforeAll(async () => {
  startTelemetry({ serviceName: 'grpc-trace-test', spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  server = createGrpcServer({ logger, host: '127.0.0.1' });
  server.addService(
    implementGrpcService(ProcessingService, {
      embed: async (_request, ctx) => {
        const sc = trace.getSpan(context.active())!.spanContext();
        const header = ctx.metadata.get('traceparent')[0];
        seenByHandler = {
          traceId: sc.traceId,
          spanId: sc.spanId,
          traceparent: header === undefined ? undefined : String(header),
        };
        logger.info('embedding inside the server span');
        return { dimensions: 1 };
      },
      analyze: async () => {
        throw new NotFoundError('No such file');
      },
    }),
  );
  await server.start();
});

afterAll(async () => {
  await server.stop({ timeoutMs: 1000 });
  await shutdownTelemetry();
});

describe('gRPC kit: trace propagation', () => {
  it('makes the server span a child of the client span, in the same trace', async () => {
    exporter.reset();
    const client = createGrpcClient(ProcessingService, server.address);
    try {
      const traceId = await withSpan('upload', async (span) => {
        await client.embed({ texts: ['x'] });
        return span.spanContext().traceId;
      });
      expect(seenByHandler?.traceId).toBe(traceId);
      expect(seenByHandler?.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));

      const spans = exporter.getFinishedSpans();
      const clientSpan = spans.find((s) => s.kind === SpanKind.CLIENT);
      const serverSpan = spans.find((s) => s.kind === SpanKind.SERVER);
      expect(clientSpan?.name).toBe('kaboodle.processing.v1.ProcessingService/Embed');
      expect(serverSpan?.name).toBe('kaboodle.processing.v1.ProcessingService/Embed');
      expect(serverSpan?.spanContext().traceId).toBe(traceId);
      expect(serverSpan?.parentSpanContext?.spanId).toBe(clientSpan?.spanContext().spanId);
      expect(serverSpan?.spanContext().spanId).toBe(seenByHandler?.spanId);
      expect(serverSpan?.attributes).toMatchObject({
        'rpc.system': 'grpc',
        'rpc.method': 'Embed',
        'rpc.grpc.status_code': 0,
      });

      const logged = lines.find((l) => l['msg'] === 'embedding inside the server span');
      expect(logged?.['trace_id']).toBe(traceId);
    } finally {
      client.close();
    }
  });

  it('records server and client call durations for /metrics', async () => {
    const client = createGrpcClient(ProcessingService, server.address);
    const metricsServer = createServer((req, res) => getTelemetry()!.metricsHandler(req, res));
    try {
      await client.embed({ texts: ['x'] });
      await expect(client.analyze({})).rejects.toBeInstanceOf(NotFoundError);
      await new Promise<void>((resolve) => metricsServer.listen(0, '127.0.0.1', resolve));
      const { port } = metricsServer.address() as AddressInfo;
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      const count = (name: string, method: string, code: number) =>
        new RegExp(
          `^${name}(_seconds)?_count\\{[^}]*rpc_method="${method}"[^}]*rpc_grpc_status_code="${code}"[^}]*\\} [1-9]`,
          'm',
        ).test(text);
      expect(count('rpc_server_call_duration', 'Embed', 0)).toBe(true);
      expect(count('rpc_client_call_duration', 'Embed', 0)).toBe(true);
      expect(count('rpc_server_call_duration', 'Analyze', 5)).toBe(true);
      expect(count('rpc_client_call_duration', 'Analyze', 5)).toBe(true);
    } finally {
      client.close();
      metricsServer.close();
    }
  });

  it('marks both spans failed with the status code when the call fails', async () => {
    exporter.reset();
    const client = createGrpcClient(ProcessingService, server.address);
    try {
      await expect(client.analyze({})).rejects.toBeInstanceOf(NotFoundError);
      const serverSpan = exporter.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER);
      const clientSpan = exporter.getFinishedSpans().find((s) => s.kind === SpanKind.CLIENT);
      expect(serverSpan?.attributes['rpc.grpc.status_code']).toBe(5);
      expect(serverSpan?.status).toMatchObject({ code: 2, message: 'NOT_FOUND: No such file' });
      expect(clientSpan?.attributes['rpc.grpc.status_code']).toBe(5);
      expect(clientSpan?.status.code).toBe(2);
    } finally {
      client.close();
    }
  });
});
