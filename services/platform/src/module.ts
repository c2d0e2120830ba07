// What a service module is (Loki's modules.go, fastify/demo's app.ts): a factory's product that the
// `kaboodle` entrypoint mounts on the shared HTTP/gRPC servers and starts/stops in dependency order.
import type { Router } from 'express';
import type { OperationSpec } from './http/api/operation.ts';
import type { ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';

export interface HealthCheck {
  /** e.g. `database`, `event-bus`, `blob-store`, `processing.grpc`. */
  name: string;
  /** Resolves when healthy; throws (with a short reason) when not. */
  check(): Promise<void>;
  /**
   * Whether a failure takes this pod out of service (default true). Only what the pod needs to answer
   * its own requests is critical (its database, its index); a shared engine that other parts buffer
   * for (Kafka: the outbox holds events) or another service is reported as `degraded` instead, so one
   * outage never cascades through every pod's readiness.
   */
  critical?: boolean;
}

export interface GrpcServiceRegistration {
  /** Fully-qualified service name, e.g. `kaboodle.processing.v1.ProcessingService` (for grpc.health.v1). */
  name: string;
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
  /**
   * Who may call each method when service identities are enforced (mTLS): proto method name or `*`
   * → service identities (`search`), or `*` for any Kaboodle service. Unlisted methods are refused.
   */
  callers?: Readonly<Record<string, readonly string[]>>;
}

export interface ServiceModule {
  /** Kebab-case module id: `auth`, `ingestion`, `processing`, `catalogue`, `search`, `web`. */
  readonly name: string;
  /** Routes mounted at the root of the shared HTTP server (paths carry their own prefix, e.g. /api/auth). */
  readonly router?: Router;
  /** The HTTP operations the router serves, declared (the module's part of the OpenAPI document). */
  readonly operations?: readonly OperationSpec[];
  readonly grpc?: GrpcServiceRegistration[];
  /** Dependencies /readyz touches for this module. */
  readonly checks?: HealthCheck[];
  /** Start consumers, relays, timers. Called after every dependency has started. */
  start?(): Promise<void>;
  /** Stop in reverse dependency order; finish in-flight work, then release resources. */
  stop?(): Promise<void>;
  /**
   * Background work that must keep running once started (a loop that cannot go on by itself): asked
   * right after start; if it rejects before stop, the entrypoint reports the module failed (readiness
   * fails and the process exits non-zero) rather than serving on half dead.
   */
  background?(): Promise<unknown>;
}
