// The gRPC server every service module mounts on: grpc.health.v1 driven by the modules' checks,
// and around every handler a server span (parent from the caller's traceparent), one log line, and
// the one mapping of domain errors to gRPC status. Graceful stop: NOT_SERVING, tryShutdown with a
// deadline, then forceShutdown.
import type { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import {
  context,
  INVALID_SPAN_CONTEXT,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { grpcSpansByInstrumentation } from '../telemetry/instrumentations.ts';
import type { Span } from '@opentelemetry/api';
import { Server, ServerCredentials, status as Status } from '@grpc/grpc-js';
import { AuthenticationError, NotAllowedError } from '../errors.ts';
import type {
  ChannelOptions,
  MethodDefinition,
  sendUnaryData,
  ServerUnaryCall,
  ServiceDefinition,
  UntypedHandleCall,
  UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { childLogger } from '../log/index.ts';
import type { Logger } from '../log/index.ts';
import type { GrpcServiceRegistration, HealthCheck, ServiceModule } from '../module.ts';
import { TRACER_NAME } from '../telemetry/index.ts';
import { grpcCodeName, toGrpcStatus, toServiceError } from './grpc-status.ts';
import type { GrpcStatusMapping } from './grpc-status.ts';
import { createGrpcHealth } from './health.service.ts';
import type { GrpcHealth, GrpcHealthOptions } from './health.service.ts';
import { extractTraceMetadata } from './trace-metadata.ts';
import { deadlineMs, runWithCallDeadline } from './call-deadline.ts';
import { recordRpcDuration } from './rpc-metrics.ts';
import { grpcServerTls, identityOf, mayCall } from './service-identity.ts';
import type { GrpcCallers, GrpcTlsFiles } from './service-identity.ts';

export interface GrpcServerOptions {
  logger: Logger;
  /** 0 (the default) picks a free port; read it from `port` after start(). */
  port?: number;
  /** Interface to bind (default 0.0.0.0; tests use 127.0.0.1). */
  host?: string;
  /**
   * Default insecure (tests, one machine). With `tls` the server requires a client certificate from
   * the services' CA and authorises every call by the caller's identity (service-identity.ts).
   */
  credentials?: ServerCredentials;
  tls?: GrpcTlsFiles;
  /** Largest message accepted or sent (default 16 MiB; file bytes travel as streamed chunks). */
  maxMessageBytes?: number;
  /** How long stop() lets in-flight calls finish before cutting them (default 10 s). */
  shutdownTimeoutMs?: number;
  /**
   * Connections are closed (GOAWAY) after about this long (default 60 s; 0 keeps them forever), so
   * clients re-resolve the headless Service's name and spread calls over pods the autoscaler added.
   * In-flight calls get `maxConnectionAgeGraceMs` (default 10 s) to finish on the old connection.
   */
  maxConnectionAgeMs?: number;
  maxConnectionAgeGraceMs?: number;
  /** Passed to the health service. */
  health?: Omit<GrpcHealthOptions, 'logger'>;
  /** Extra grpc-js server options. */
  channelOptions?: ChannelOptions;
}

export interface GrpcServer {
  /** Add a service; its health follows `checks`. Only before start(). */
  addService(registration: GrpcServiceRegistration, checks?: readonly HealthCheck[]): void;
  /** Add every gRPC service of a module, their health following the module's checks. */
  addModule(module: ServiceModule): void;
  /** Bind and serve; resolves with the port. */
  start(): Promise<number>;
  /** The bound port (after start). */
  readonly port: number;
  /** `host:port` to dial, e.g. `127.0.0.1:50051` (after start). */
  readonly address: string;
  readonly health: GrpcHealth;
  /** Stop: report NOT_SERVING, let in-flight calls finish up to the timeout, then force. */
  stop(options?: { timeoutMs?: number }): Promise<void>;
}

interface MethodInfo {
  path: string;
  service: string;
  method: string;
}

function methodInfo(path: string): MethodInfo {
  const [, service = '', method = ''] = path.split('/');
  return { path, service, method };
}

function endSpan(span: Span, code: number, details: string): void {
  span.setAttribute('rpc.grpc.status_code', code);
  if (code !== Status.OK)
    span.setStatus({ code: SpanStatusCode.ERROR, message: `${grpcCodeName(code)}: ${details}` });
  span.end();
}

/**
 * Wrap one grpc-js handler of any kind: server span, log line, error mapping. Works for handlers
 * from implementGrpcService and for raw grpc-js implementations alike.
 */
function instrument(
  definition: MethodDefinition<unknown, unknown>,
  handler: UntypedHandleCall,
  logger: Logger,
  authorise: ((call: AuthorisableCall) => Error | undefined) | undefined,
): UntypedHandleCall {
  const info = methodInfo(definition.path);
  const tracer = trace.getTracer(TRACER_NAME);
  const attributes = { 'rpc.system': 'grpc', 'rpc.service': info.service, 'rpc.method': info.method };
  const log = logger.child({ rpc: info.path });

  function begin(call: { metadata: ServerUnaryCall<unknown, unknown>['metadata']; getPeer(): string }) {
    if (grpcSpansByInstrumentation()) {
      // The gRPC auto-instrumentation made the SERVER span and runs this handler inside it.
      return {
        span: trace.wrapSpanContext(INVALID_SPAN_CONTEXT),
        ctx: context.active(),
        started: performance.now(),
      };
    }
    // The caller's trace context, not whatever happens to be active in the server's own context.
    const parent = extractTraceMetadata(call.metadata, ROOT_CONTEXT);
    const span = tracer.startSpan(
      `${info.service}/${info.method}`,
      { kind: SpanKind.SERVER, attributes },
      parent,
    );
    return { span, ctx: trace.setSpan(parent, span), started: performance.now() };
  }

  function report(
    ctx: ReturnType<typeof trace.setSpan>,
    started: number,
    code: number,
    err?: unknown,
    mapping?: GrpcStatusMapping,
  ) {
    const elapsedMs = performance.now() - started;
    recordRpcDuration('server', elapsedMs / 1000, { service: info.service, method: info.method, code });
    const fields = { code: grpcCodeName(code), durationMs: Math.round(elapsedMs * 10) / 10 };
    context.with(ctx, () => {
      if (mapping?.fault) log.error({ ...fields, err }, 'grpc call failed with an unexpected error');
      else if (code === Status.OK) log.debug(fields, 'grpc call');
      else if (code === Status.CANCELLED && !mapping) log.debug(fields, 'grpc call cancelled by the client');
      else log.info({ ...fields, reason: mapping?.details }, 'grpc call rejected');
    });
  }

  if (!definition.responseStream) {
    // Unary and client streaming: the outcome goes through the callback.
    return ((call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
      const { span, ctx, started } = begin(call);
      let settled = false;
      const finish: sendUnaryData<unknown> = (err, value, trailer, flags) => {
        if (settled) return;
        settled = true;
        if (err) {
          const mapping = toGrpcStatus(err);
          if (mapping.fault) span.recordException(err instanceof Error ? err : new Error(String(err)));
          report(ctx, started, mapping.code, err, mapping);
          endSpan(span, mapping.code, mapping.details);
          callback(toServiceError(mapping, err));
          return;
        }
        report(ctx, started, Status.OK);
        endSpan(span, Status.OK, 'OK');
        callback(null, value, trailer, flags);
      };
      const refused = authorise?.(call);
      if (refused) {
        finish(refused);
        return;
      }
      const deadline = deadlineMs(call.getDeadline());
      context.with(ctx, () => {
        try {
          const result = runWithCallDeadline(deadline, () =>
            (handler as (c: unknown, cb: sendUnaryData<unknown>) => unknown)(call, finish),
          );
          if (result instanceof Promise) result.catch((err: unknown) => finish(err as Error));
        } catch (err) {
          finish(err as Error);
        }
      });
    }) as UntypedHandleCall;
  }

  // Server and bidi streaming: errors arrive as the stream's 'error' event; map them on the way.
  return ((call: EventEmitter & ServerUnaryCall<unknown, unknown>) => {
    const { span, ctx, started } = begin(call);
    let mapping: GrpcStatusMapping | undefined;
    let ended = false;
    const end = (code: number, details: string) => {
      if (ended) return;
      ended = true;
      endSpan(span, code, details);
    };
    const emit = call.emit.bind(call);
    call.emit = ((event: string | symbol, ...args: unknown[]) => {
      if (event === 'error' && mapping === undefined) {
        const err = args[0];
        mapping = toGrpcStatus(err);
        if (mapping.fault) span.recordException(err instanceof Error ? err : new Error(String(err)));
        report(ctx, started, mapping.code, err, mapping);
        return emit('error', toServiceError(mapping, err));
      }
      return emit(event, ...args);
    }) as typeof call.emit;
    call.once('cancelled', () => end(Status.CANCELLED, 'cancelled by the client'));
    call.once('close', () => {
      if (mapping) end(mapping.code, mapping.details);
      else {
        report(ctx, started, call.cancelled ? Status.CANCELLED : Status.OK);
        end(call.cancelled ? Status.CANCELLED : Status.OK, 'OK');
      }
    });
    const refused = authorise?.(call);
    if (refused) {
      call.emit('error', refused);
      return;
    }
    const deadline = deadlineMs(call.getDeadline());
    context.with(ctx, () => {
      try {
        const result = runWithCallDeadline(deadline, () => (handler as (c: unknown) => unknown)(call));
        if (result instanceof Promise) result.catch((err: unknown) => call.emit('error', err));
      } catch (err) {
        call.emit('error', err);
      }
    });
  }) as UntypedHandleCall;
}

type AuthorisableCall = Pick<ServerUnaryCall<unknown, unknown>, 'getAuthContext'>;

/** Per call: the caller's identity from its verified certificate, checked against the method's callers. */
function authoriser(method: string, callers: GrpcCallers | undefined) {
  return (call: AuthorisableCall): Error | undefined => {
    const identity = identityOf(call.getAuthContext()?.sslPeerCertificate);
    if (!identity) return new AuthenticationError('the client certificate names no Kaboodle service');
    if (!mayCall(callers, method, identity))
      return new NotAllowedError(`service ${identity} may not call ${method}`);
    return undefined;
  };
}

export function createGrpcServer(options: GrpcServerOptions): GrpcServer {
  const logger = childLogger(options.logger, 'grpc');
  const maxMessageBytes = options.maxMessageBytes ?? 16 * 1024 * 1024;
  const maxAge = options.maxConnectionAgeMs ?? 60_000;
  const server = new Server({
    'grpc.max_receive_message_length': maxMessageBytes,
    'grpc.max_send_message_length': maxMessageBytes,
    ...(maxAge > 0 && {
      'grpc.max_connection_age_ms': maxAge,
      'grpc.max_connection_age_grace_ms': options.maxConnectionAgeGraceMs ?? 10_000,
    }),
    ...options.channelOptions,
  });
  const health = createGrpcHealth({ ...options.health, logger });
  const names = new Set<string>();
  let port = -1;
  let state: 'new' | 'starting' | 'serving' | 'stopping' | 'stopped' = 'new';
  let stopping: Promise<void> | undefined;

  function add(registration: GrpcServiceRegistration): void {
    if (state !== 'new')
      throw new Error(`cannot add ${registration.name}: the gRPC server has already started`);
    if (names.has(registration.name))
      throw new Error(`gRPC service ${registration.name} is registered twice`);
    names.add(registration.name);
    const definition = registration.definition as ServiceDefinition<UntypedServiceImplementation>;
    const wrapped: UntypedServiceImplementation = {};
    for (const [name, method] of Object.entries(definition)) {
      const handler =
        registration.implementation[name] ??
        (method.originalName ? registration.implementation[method.originalName] : undefined);
      if (!handler) throw new Error(`gRPC service ${registration.name} has no handler for ${name}`);
      const authorise = options.tls
        ? authoriser(methodInfo(method.path).method, registration.callers)
        : undefined;
      wrapped[name] = instrument(method, handler as UntypedHandleCall, logger, authorise);
    }
    server.addService(definition, wrapped);
  }

  add(health.registration);

  const api: GrpcServer = {
    addService(registration, checks = []) {
      add(registration);
      health.register(registration.name, checks);
    },
    addModule(module) {
      for (const registration of module.grpc ?? []) api.addService(registration, module.checks ?? []);
    },
    async start() {
      if (state !== 'new') throw new Error(`the gRPC server cannot start: it is ${state}`);
      state = 'starting';
      const host = options.host ?? '0.0.0.0';
      const bindTo = `${host.includes(':') ? `[${host}]` : host}:${options.port ?? 0}`;
      port = await new Promise<number>((resolve, reject) => {
        const credentials =
          options.credentials ??
          (options.tls ? grpcServerTls(options.tls) : ServerCredentials.createInsecure());
        server.bindAsync(bindTo, credentials, (err, bound) =>
          err
            ? reject(new Error(`binding the gRPC server to ${bindTo}: ${err.message}`, { cause: err }))
            : resolve(bound),
        );
      });
      state = 'serving';
      logger.info({ address: api.address, services: [...names] }, 'grpc server listening');
      return port;
    },
    get port() {
      if (port < 0) throw new Error('the gRPC server has not started');
      return port;
    },
    get address() {
      const host = options.host ?? '0.0.0.0';
      const dialHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
      return `${dialHost.includes(':') ? `[${dialHost}]` : dialHost}:${api.port}`;
    },
    health,
    stop(stopOptions = {}) {
      stopping ??= (async () => {
        health.shutdown();
        if (state === 'new') {
          state = 'stopped';
          return;
        }
        state = 'stopping';
        const timeoutMs = stopOptions.timeoutMs ?? options.shutdownTimeoutMs ?? 10_000;
        let timer: NodeJS.Timeout | undefined;
        const graceful = new Promise<boolean>((resolve) => server.tryShutdown(() => resolve(true)));
        const timedOut = new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), timeoutMs);
        });
        const clean = await Promise.race([graceful, timedOut]);
        clearTimeout(timer);
        if (!clean) {
          logger.warn({ timeoutMs }, 'grpc calls still running at the shutdown deadline: cutting them');
          server.forceShutdown();
        }
        state = 'stopped';
        logger.info({ graceful: clean }, 'grpc server stopped');
      })();
      return stopping;
    },
  };
  return api;
}
