// grpc-js service definitions built from protobuf-es descriptors at run time (no grpc-js codegen),
// and a typed, promise-based way to implement them. The server (grpc-server.ts) adds tracing,
// logging and error mapping around every handler, so implementations just return or throw.
import { create, fromBinary, isMessage, toBinary } from '@bufbuild/protobuf';
import type {
  DescMessage,
  DescMethod,
  DescService,
  MessageInitShape,
  MessageShape,
} from '@bufbuild/protobuf';
import type {
  Metadata,
  MethodDefinition,
  sendUnaryData,
  ServerUnaryCall,
  ServerWritableStream,
  ServiceDefinition,
  UntypedHandleCall,
  UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { once } from 'node:events';
import type { GrpcServiceRegistration } from '../module.ts';

/** `/kaboodle.processing.v1.ProcessingService/Embed`: the HTTP/2 path of a method. */
export function grpcMethodPath(method: DescMethod): string {
  return `/${method.parent.typeName}/${method.name}`;
}

function serializer(schema: DescMessage): (value: unknown) => Buffer {
  return (value) => {
    // Raw grpc-js handlers may pass a plain init object; normalise it to a message first.
    const message = isMessage(value, schema)
      ? value
      : create(schema, (value ?? {}) as MessageInitShape<DescMessage>);
    const bytes = toBinary(schema, message);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  };
}

function deserializer(schema: DescMessage): (bytes: Buffer) => MessageShape<DescMessage> {
  return (bytes) => fromBinary(schema, bytes);
}

/** The grpc-js definition of one method (shared by the server and the client). */
export function toGrpcMethodDefinition(method: DescMethod): MethodDefinition<unknown, unknown> {
  return {
    path: grpcMethodPath(method),
    requestStream: method.methodKind === 'client_streaming' || method.methodKind === 'bidi_streaming',
    responseStream: method.methodKind === 'server_streaming' || method.methodKind === 'bidi_streaming',
    requestSerialize: serializer(method.input),
    requestDeserialize: deserializer(method.input),
    responseSerialize: serializer(method.output),
    responseDeserialize: deserializer(method.output),
    originalName: method.localName,
  };
}

/**
 * A grpc-js ServiceDefinition for a protobuf-es service: keyed by the proto method name (`Embed`),
 * with `originalName` the local name (`embed`), so implementations may use either.
 */
export function toGrpcServiceDefinition(service: DescService): ServiceDefinition {
  const definition: Record<string, MethodDefinition<unknown, unknown>> = {};
  for (const method of service.methods) definition[method.name] = toGrpcMethodDefinition(method);
  return definition as ServiceDefinition;
}

/** What a handler knows about its call. */
export interface GrpcCallContext {
  /** Request metadata (headers). */
  readonly metadata: Metadata;
  /** Aborted when the client cancels, the deadline passes or the server force-stops. */
  readonly signal: AbortSignal;
  /** When the client gives up, if it set a deadline. */
  readonly deadline: Date | undefined;
  readonly peer: string;
  readonly method: DescMethod;
}

type Init<M extends DescMessage> = MessageInitShape<M>;

/** The handler type for one method, by its kind. */
export type GrpcHandler<M extends DescMethod> = M['methodKind'] extends 'unary'
  ? (
      request: MessageShape<M['input']>,
      ctx: GrpcCallContext,
    ) => Promise<Init<M['output']>> | Init<M['output']>
  : M['methodKind'] extends 'server_streaming'
    ? (request: MessageShape<M['input']>, ctx: GrpcCallContext) => AsyncIterable<Init<M['output']>>
    : never;

/** Handlers for every method of a service, keyed by local name (`embed`, `analyze`). */
export type GrpcServiceImplementation<S extends DescService> = {
  [K in keyof S['method']]: S['method'][K] extends DescMethod ? GrpcHandler<S['method'][K]> : never;
};

function callContext(
  method: DescMethod,
  call: ServerUnaryCall<unknown, unknown> | ServerWritableStream<unknown, unknown>,
): GrpcCallContext {
  const controller = new AbortController();
  const abort = () => controller.abort(new Error(`${grpcMethodPath(method)} was cancelled by the client`));
  if (call.cancelled) abort();
  else call.once('cancelled', abort);
  const deadline = call.getDeadline();
  const deadlineDate =
    deadline instanceof Date ? deadline : Number.isFinite(deadline) ? new Date(deadline) : undefined;
  return {
    metadata: call.metadata,
    signal: controller.signal,
    deadline: deadlineDate,
    peer: call.getPeer(),
    method,
  };
}

function unaryHandler(method: DescMethod, handler: GrpcHandler<DescMethod>): UntypedHandleCall {
  const fn = handler as (request: unknown, ctx: GrpcCallContext) => unknown;
  return (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
    // Errors go to the callback unmapped: the server maps them (and logs the original) in one place.
    Promise.resolve()
      .then(() => fn(call.request, callContext(method, call)))
      .then(
        (response) => callback(null, create(method.output, (response ?? {}) as Init<DescMessage>)),
        (err: unknown) => callback(err as Error),
      );
  };
}

function serverStreamingHandler(method: DescMethod, handler: GrpcHandler<DescMethod>): UntypedHandleCall {
  const fn = handler as (request: unknown, ctx: GrpcCallContext) => AsyncIterable<unknown>;
  return (call: ServerWritableStream<unknown, unknown>) => {
    const ctx = callContext(method, call);
    void (async () => {
      try {
        for await (const item of fn(call.request, ctx)) {
          if (ctx.signal.aborted) return;
          // Respect back-pressure: a slow client must not make the server buffer the whole stream.
          if (!call.write(create(method.output, item as Init<DescMessage>))) {
            await Promise.race([once(call, 'drain'), once(ctx.signal, 'abort')]);
          }
        }
        if (!ctx.signal.aborted) call.end();
      } catch (err) {
        if (!ctx.signal.aborted) call.emit('error', err);
      }
    })();
  };
}

/**
 * Implement a service with typed, promise-returning handlers (unary) and async iterables (server
 * streaming). Throw domain errors (errors.ts); the server maps them to gRPC status codes.
 * Client- and bidi-streaming methods are not supported by this helper (no Kaboodle API has one):
 * register a raw grpc-js implementation with toGrpcServiceDefinition for those.
 */
export function implementGrpcService<S extends DescService>(
  service: S,
  implementation: GrpcServiceImplementation<S>,
  /** Who may call which method (service-identity.ts); checked on every call under mTLS. */
  callers?: Partial<Record<S['methods'][number]['name'] | '*', readonly string[]>>,
): GrpcServiceRegistration {
  for (const name of Object.keys(callers ?? {})) {
    if (name !== '*' && !service.methods.some((m) => m.name === name))
      throw new TypeError(`implementGrpcService(${service.typeName}): callers names unknown method ${name}`);
  }
  const handlers: UntypedServiceImplementation = {};
  const impl = implementation as unknown as Record<string, GrpcHandler<DescMethod> | undefined>;
  for (const method of service.methods) {
    const handler = impl[method.localName];
    if (typeof handler !== 'function') {
      throw new TypeError(`implementGrpcService(${service.typeName}): no handler for ${method.localName}`);
    }
    if (method.methodKind === 'unary') handlers[method.name] = unaryHandler(method, handler);
    else if (method.methodKind === 'server_streaming')
      handlers[method.name] = serverStreamingHandler(method, handler);
    else {
      throw new TypeError(
        `implementGrpcService(${service.typeName}): ${method.methodKind} method ${method.name} needs a raw grpc-js handler`,
      );
    }
  }
  return {
    name: service.typeName,
    definition: toGrpcServiceDefinition(service),
    implementation: handlers,
    ...(callers && { callers: callers as Record<string, readonly string[]> }),
  };
}
