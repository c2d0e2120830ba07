// The OpenTelemetry auto-instrumentations every Kaboodle process runs: HTTP in and out (the S3 client
// talks HTTP, so blob traffic shows too), express routes, pg queries, kafkajs produce and consume,
// gRPC calls, fetch (undici) and the Node runtime's metrics (event loop, heap, GC). Hooking ESM
// imports needs a loader hook in place before those packages load: installInstrumentationHooks()
// is what the entrypoint calls first (services/server/src/main.ts).
import { register as registerHooks } from 'import-in-the-middle/register-hooks.mjs';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { KafkaJsInstrumentation } from '@opentelemetry/instrumentation-kafkajs';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { RuntimeNodeInstrumentation } from '@opentelemetry/instrumentation-runtime-node';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';

/** Packages the instrumentations patch: only these go through the import hook. */
const INSTRUMENTED = ['express', 'pg', 'pg-pool', 'kafkajs', '@grpc/grpc-js', 'undici'];

/** Whether gRPC spans come from the instrumentation (the kit then makes none of its own). */
let grpcAutoInstrumented = false;
export const grpcSpansByInstrumentation = (): boolean => grpcAutoInstrumented;

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
  return [
    new HttpInstrumentation({
      // Probes and scrapes every few seconds would drown the traces that matter.
      ignoreIncomingRequestHook: (req) => PROBES.has((req.url ?? '').split('?')[0]!),
    }),
    new ExpressInstrumentation(),
    new PgInstrumentation({ enhancedDatabaseReporting: false }),
    new KafkaJsInstrumentation(),
    new GrpcInstrumentation(),
    new UndiciInstrumentation(),
    new RuntimeNodeInstrumentation(),
  ];
}
