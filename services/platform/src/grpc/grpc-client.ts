// A typed gRPC client for a protobuf-es service: promise-returning unary methods, async-iterable
// server streams, a deadline on every call, retries with backoff for UNAVAILABLE and
// DEADLINE_EXCEEDED on methods the proto declares idempotent, trace context in the metadata, and
// failures mapped back to domain errors.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { create } from '@bufbuild/protobuf';
import type {
  DescMessage,
  DescMethod,
  DescService,
  MessageInitShape,
  MessageShape,
} from '@bufbuild/protobuf';
import { MethodOptions_IdempotencyLevel } from '@bufbuild/protobuf/wkt';
import { context, SpanKind, trace } from '@opentelemetry/api';
import type { Span } from '@opentelemetry/api';
import { Client, credentials as grpcCredentials, Metadata, status as Status } from '@grpc/grpc-js';
import type { ChannelCredentials, ChannelOptions, MethodDefinition, ServiceError } from '@grpc/grpc-js';
import { Health, HealthCheckResponse_ServingStatus as ServingStatus } from '@kaboodle/proto';
import { UnavailableError } from '../errors.ts';
import type { Logger } from '../log/index.ts';
import type { HealthCheck } from '../module.ts';
import { recordError, TRACER_NAME } from '../telemetry/index.ts';
import { grpcSpansByInstrumentation } from '../telemetry/instrumentations.ts';
import { fromGrpcStatus, grpcCodeName } from './grpc-status.ts';
import { toGrpcMethodDefinition } from './service-definition.ts';
import { injectTraceMetadata } from './trace-metadata.ts';
import { inheritedCallDeadline } from './call-deadline.ts';
import { recordRpcDuration } from './rpc-metrics.ts';

export interface GrpcRetryOptions {
  /** Attempts in all, the first included (default 3; 1 disables retries). */
  maxAttempts?: number;
  /** Backoff before the second attempt; doubles each time, with jitter (default 100 ms). */
  initialBackoffMs?: number;
  /** Backoff cap (default 2000 ms). */
  maxBackoffMs?: number;
  /** Also retry methods the proto does not declare idempotent (default false: they may have run). */
  retryNonIdempotent?: boolean;
}

export interface GrpcClientOptions {
  /**
   * Deadline of each unary attempt (default 5000 ms). Streams have none unless a call sets one. Inside
   * a gRPC handler, no call waits past the deadline of the call being served.
   */
  deadlineMs?: number;
  retry?: GrpcRetryOptions;
  /** Default insecure (the mesh does TLS in the cluster). */
  credentials?: ChannelCredentials;
  channelOptions?: ChannelOptions;
  /** Retries are logged at debug level when given. */
  logger?: Logger;
}

export interface GrpcCallOptions {
  /** Overrides the client's deadline for this call (per attempt). */
  deadlineMs?: number;
  /** Cancels the call; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Extra request metadata, e.g. `{ authorization: 'Bearer …' }`. */
  metadata?: Record<string, string>;
  /** Per-call retry overrides; `false` disables retries. */
  retry?: GrpcRetryOptions | false;
}

type ClientMethod<M extends DescMethod> = M['methodKind'] extends 'unary'
  ? (request: MessageInitShape<M['input']>, options?: GrpcCallOptions) => Promise<MessageShape<M['output']>>
  : M['methodKind'] extends 'server_streaming'
    ? (
        request: MessageInitShape<M['input']>,
        options?: GrpcCallOptions,
      ) => AsyncIterable<MessageShape<M['output']>>
    : never;

export type GrpcClient<S extends DescService> = {
  [K in keyof S['method']]: S['method'][K] extends DescMethod ? ClientMethod<S['method'][K]> : never;
} & {
  /** Resolves once the channel is connected; rejects after timeoutMs (default 5000). */
  waitForReady(timeoutMs?: number): Promise<void>;
  /** Close the channel; in-flight calls fail. */
  close(): void;
  readonly address: string;
};

const RETRYABLE: ReadonlySet<number> = new Set([Status.UNAVAILABLE, Status.DEADLINE_EXCEEDED]);

function isIdempotent(method: DescMethod): boolean {
  return (
    method.idempotency === MethodOptions_IdempotencyLevel.NO_SIDE_EFFECTS ||
    method.idempotency === MethodOptions_IdempotencyLevel.IDEMPOTENT
  );
}

function backoffMs(attempt: number, retry: Required<GrpcRetryOptions>): number {
  const ceiling = Math.min(retry.maxBackoffMs, retry.initialBackoffMs * 2 ** (attempt - 1));
  // Jitter in [50%, 100%] so clients that failed together do not retry in lockstep.
  return ceiling * (0.5 + Math.random() * 0.5);
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('the gRPC call was aborted');
}

function toMetadata(extra: Record<string, string> | undefined): Metadata {
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(extra ?? {})) metadata.set(key, value);
  // The active span is the client span here, so the server's span becomes its child.
  return injectTraceMetadata(metadata);
}

export function createGrpcClient<S extends DescService>(
  service: S,
  address: string,
  options: GrpcClientOptions = {},
): GrpcClient<S> {
  if (!address)
    throw new TypeError(`createGrpcClient(${service.typeName}): an address (host:port) is required`);
  const client = new Client(address, options.credentials ?? grpcCredentials.createInsecure(), {
    // Pods restart: reconnect quickly instead of grpc's default 1 s → 120 s backoff.
    'grpc.initial_reconnect_backoff_ms': 200,
    'grpc.max_reconnect_backoff_ms': 5000,
    'grpc.max_receive_message_length': 16 * 1024 * 1024,
    // Spread calls over every address the name resolves to (a headless Kubernetes Service lists each
    // pod), instead of pinning one long-lived HTTP/2 connection to one pod.
    'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
    // When a server ends a connection at its max age, the name is resolved again (new pods join);
    // grpc's default waits 30 s between resolutions.
    'grpc.dns_min_time_between_resolutions_ms': 5_000,
    ...options.channelOptions,
  });
  const tracer = trace.getTracer(TRACER_NAME);
  const defaultDeadlineMs = options.deadlineMs ?? 5000;
  const defaultRetry: Required<GrpcRetryOptions> = {
    maxAttempts: 3,
    initialBackoffMs: 100,
    maxBackoffMs: 2000,
    retryNonIdempotent: false,
    ...options.retry,
  };
  const log = options.logger?.child({ component: 'grpc-client', target: address });

  function retryFor(method: DescMethod, callOptions: GrpcCallOptions): Required<GrpcRetryOptions> {
    const retry =
      callOptions.retry === false
        ? { ...defaultRetry, maxAttempts: 1 }
        : { ...defaultRetry, ...callOptions.retry };
    if (!isIdempotent(method) && !retry.retryNonIdempotent) retry.maxAttempts = 1;
    return retry;
  }

  // When each call started and which method it is, for the duration histogram.
  const calls = new WeakMap<Span, { started: number; method: string }>();

  function startSpan(method: DescMethod): Span {
    const span = tracer.startSpan(`${service.typeName}/${method.name}`, {
      // With the gRPC auto-instrumentation this is the logical call over its attempts, each of
      // which the instrumentation records as a CLIENT span beneath it.
      kind: grpcSpansByInstrumentation() ? SpanKind.INTERNAL : SpanKind.CLIENT,
      attributes: {
        'rpc.system': 'grpc',
        'rpc.service': service.typeName,
        'rpc.method': method.name,
        'server.address': address,
      },
    });
    calls.set(span, { started: performance.now(), method: method.name });
    return span;
  }

  function endSpan(span: Span, attempts: number, err?: unknown): void {
    span.setAttribute('rpc.attempts', attempts);
    const raw = (err as ServiceError | undefined)?.code;
    const code = typeof raw === 'number' ? raw : err ? Status.UNKNOWN : Status.OK;
    span.setAttribute('rpc.grpc.status_code', code);
    if (err) recordError(span, err);
    span.end();
    const call = calls.get(span);
    if (call) {
      calls.delete(span);
      recordRpcDuration('client', (performance.now() - call.started) / 1000, {
        service: service.typeName,
        method: call.method,
        code,
      });
    }
  }

  async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
    await sleep(ms, undefined, signal ? { signal } : {}).catch(() => undefined);
  }

  function unary(method: DescMethod) {
    const definition = toGrpcMethodDefinition(method) as MethodDefinition<unknown, unknown>;
    return async (init: MessageInitShape<DescMessage>, callOptions: GrpcCallOptions = {}) => {
      const request = create(method.input, init);
      const retry = retryFor(method, callOptions);
      const deadlineMs = callOptions.deadlineMs ?? defaultDeadlineMs;
      const { signal } = callOptions;
      if (signal?.aborted) throw abortReason(signal);
      const span = startSpan(method);
      // Never wait past the deadline of the call this one serves (if any).
      const inherited = inheritedCallDeadline();
      const attemptDeadline = () => Math.min(Date.now() + deadlineMs, inherited ?? Infinity);
      const once = () =>
        new Promise<unknown>((resolve, reject) => {
          const onAbort = () => call.cancel();
          const call = client.makeUnaryRequest(
            definition.path,
            definition.requestSerialize,
            definition.responseDeserialize,
            request,
            toMetadata(callOptions.metadata),
            { deadline: attemptDeadline() },
            (err, response) => {
              signal?.removeEventListener('abort', onAbort);
              if (err) reject(err);
              else resolve(response);
            },
          );
          signal?.addEventListener('abort', onAbort, { once: true });
        });
      return context.with(trace.setSpan(context.active(), span), async () => {
        for (let attempt = 1; ; attempt++) {
          try {
            const response = await once();
            endSpan(span, attempt);
            return response;
          } catch (err) {
            const code = (err as ServiceError).code;
            if (signal?.aborted) {
              endSpan(span, attempt, err);
              throw abortReason(signal);
            }
            const wait = backoffMs(attempt, retry);
            const timeLeft = inherited === undefined || Date.now() + wait < inherited;
            if (attempt < retry.maxAttempts && RETRYABLE.has(code) && timeLeft) {
              log?.debug(
                { rpc: definition.path, attempt, code: grpcCodeName(code), waitMs: Math.round(wait) },
                'retrying grpc call',
              );
              span.addEvent('retry', { attempt, 'rpc.grpc.status_code': code });
              await pause(wait, signal);
              continue;
            }
            endSpan(span, attempt, err);
            throw fromGrpcStatus(definition.path, err as ServiceError);
          }
        }
      });
    };
  }

  function streamDeadline(ms: number | undefined): { deadline?: number } {
    const inherited = inheritedCallDeadline();
    const own = ms === undefined ? undefined : Date.now() + ms;
    const deadline = Math.min(own ?? Infinity, inherited ?? Infinity);
    return Number.isFinite(deadline) ? { deadline } : {};
  }

  function serverStreaming(method: DescMethod) {
    const definition = toGrpcMethodDefinition(method) as MethodDefinition<unknown, unknown>;
    return (init: MessageInitShape<DescMessage>, callOptions: GrpcCallOptions = {}) => {
      const request = create(method.input, init);
      const retry = retryFor(method, callOptions);
      const { signal } = callOptions;
      return (async function* () {
        if (signal?.aborted) throw abortReason(signal);
        const span = startSpan(method);
        const spanContext = trace.setSpan(context.active(), span);
        for (let attempt = 1; ; attempt++) {
          const call = context.with(spanContext, () =>
            client.makeServerStreamRequest(
              definition.path,
              definition.requestSerialize,
              definition.responseDeserialize,
              request,
              toMetadata(callOptions.metadata),
              streamDeadline(callOptions.deadlineMs),
            ),
          );
          const onAbort = () => call.cancel();
          signal?.addEventListener('abort', onAbort, { once: true });
          let received = 0;
          let finished = false;
          try {
            for await (const message of call) {
              received++;
              yield message as MessageShape<DescMessage>;
            }
            finished = true;
            endSpan(span, attempt);
            return;
          } catch (err) {
            finished = true;
            const code = (err as ServiceError).code;
            if (signal?.aborted) {
              endSpan(span, attempt, err);
              throw abortReason(signal);
            }
            // A stream is retried only before its first message: consumers never see duplicates.
            if (received === 0 && attempt < retry.maxAttempts && RETRYABLE.has(code)) {
              span.addEvent('retry', { attempt, 'rpc.grpc.status_code': code });
              await pause(backoffMs(attempt, retry), signal);
              continue;
            }
            endSpan(span, attempt, err);
            throw fromGrpcStatus(definition.path, err as ServiceError);
          } finally {
            signal?.removeEventListener('abort', onAbort);
            if (!finished) {
              // The consumer stopped early (break/return): tell the server instead of leaving it streaming.
              call.cancel();
              endSpan(span, attempt);
            }
          }
        }
      })();
    };
  }

  const api: Record<string, unknown> = {
    address,
    waitForReady(timeoutMs = 5000) {
      return new Promise<void>((resolve, reject) => {
        client.waitForReady(Date.now() + timeoutMs, (err) =>
          err
            ? reject(
                new UnavailableError(`connecting to ${service.typeName} at ${address}: ${err.message}`, {
                  cause: err,
                }),
              )
            : resolve(),
        );
      });
    },
    close: () => client.close(),
  };
  for (const method of service.methods) {
    if (method.localName in api) {
      throw new TypeError(
        `createGrpcClient(${service.typeName}): method ${method.localName} clashes with the client's own`,
      );
    }
    if (method.methodKind === 'unary') api[method.localName] = unary(method);
    else if (method.methodKind === 'server_streaming') api[method.localName] = serverStreaming(method);
    // Client and bidi streaming are not offered (no Kaboodle API has one); calling them fails clearly.
    else {
      api[method.localName] = () => {
        throw new TypeError(
          `${service.typeName}.${method.name}: ${method.methodKind} calls are not supported by the gRPC kit`,
        );
      };
    }
  }
  return api as GrpcClient<S>;
}

export interface GrpcHealthCheckOptions {
  /** Service name to ask about; "" (default) is the whole server. */
  service?: string;
  /** Default 2000 ms. */
  timeoutMs?: number;
  credentials?: ChannelCredentials;
}

/**
 * Ask a server's grpc.health.v1 whether it is SERVING; resolves when it is, throws UnavailableError
 * with the reason when not (its shape fits HealthCheck.check, for /readyz of a caller).
 */
export async function checkGrpcHealth(address: string, options: GrpcHealthCheckOptions = {}): Promise<void> {
  const client = createGrpcClient(Health, address, {
    deadlineMs: options.timeoutMs ?? 2000,
    retry: { maxAttempts: 1 },
    ...(options.credentials ? { credentials: options.credentials } : {}),
  });
  const target = options.service ? `${options.service} at ${address}` : address;
  try {
    const { status } = await client.check({ service: options.service ?? '' });
    if (status !== ServingStatus.SERVING) {
      throw new UnavailableError(`gRPC health of ${target}: ${ServingStatus[status] ?? status}`);
    }
  } catch (err) {
    if (err instanceof UnavailableError) throw err;
    throw new UnavailableError(
      `gRPC health of ${target}: ${err instanceof Error ? err.message : String(err)}`,
      {
        cause: err,
      },
    );
  } finally {
    client.close();
  }
}

/** A HealthCheck (for a module's `checks`) on a remote gRPC service. */
export function grpcHealthCheck(
  name: string,
  address: string,
  options: GrpcHealthCheckOptions = {},
): HealthCheck {
  return { name, check: () => checkGrpcHealth(address, options) };
}
