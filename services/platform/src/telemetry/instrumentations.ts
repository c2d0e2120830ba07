// The OpenTelemetry auto-instrumentations every Kaboodle process runs: HTTP in and out (the S3 client
// talks HTTP, so blob traffic shows too), express routes, pg queries, gRPC calls, fetch (undici) and
// the Node runtime's metrics (event loop, heap, GC). Kafka's produce and consume spans come from the
// event bus itself (event-bus-delivery.ts, messaging semantic conventions, both adapters): kafkajs'
// instrumentation writes the sending context's traceparent over every message's, and the outbox
// relay sends events stored by many requests in one batch, so each event's trace would end at the
// relay instead of continuing from the request that caused it. Hooking ESM
// imports needs a loader hook in place before those packages load: installInstrumentationHooks()
// is what the entrypoint calls first (services/server/src/main.ts).
import { register as registerHooks } from 'import-in-the-middle/register-hooks.mjs';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { RuntimeNodeInstrumentation } from '@opentelemetry/instrumentation-runtime-node';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';

/** Packages the instrumentations patch: only these go through the import hook. */
const INSTRUMENTED = ['express', 'pg', 'pg-pool', '@grpc/grpc-js', 'undici'];

/** Whether gRPC and HTTP server spans come from the instrumentations (the kit then makes none of its own). */
let grpcAutoInstrumented = false;
let httpAutoInstrumented = false;
export const grpcSpansByInstrumentation = (): boolean => grpcAutoInstrumented;
export const httpSpansByInstrumentation = (): boolean => httpAutoInstrumented;

let hooked = false;
/** Install the import hook once, before the instrumented packages are first imported. */
export function installInstrumentationHooks(): void {
  if (hooked) return;
  hooked = true;
  registerHooks({ include: INSTRUMENTED });
}

const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

export function kaboodleInstrumentations(): Instrumentation[] {
  grpcAutoInstrumented = true;
  httpAutoInstrumented = true;
  return [
    new HttpInstrumentation({
      // Probes and scrapes every few seconds would drown the traces that matter.
      ignoreIncomingRequestHook: (req) => PROBES.has((req.url ?? '').split('?')[0]!),
    }),
    // Route handlers only: a span per middleware and router layer would bury the ones that matter.
    new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE, ExpressLayerType.ROUTER] }),
    new PgInstrumentation({ enhancedDatabaseReporting: false }),
    new GrpcInstrumentation(),
    new UndiciInstrumentation(),
    new RuntimeNodeInstrumentation(),
  ];
}
