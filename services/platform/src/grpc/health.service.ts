// grpc.health.v1 (Check, List, Watch) whose answers follow the registered modules' health checks,
// the same checks /readyz touches. "" is the whole server: SERVING only when every check passes.
import { setTimeout as sleep } from 'node:timers/promises';
import { Health, HealthCheckResponse_ServingStatus as ServingStatus } from '@kaboodle/proto';
import { NotFoundError } from '../errors.ts';
import type { Logger } from '../log/index.ts';
import type { GrpcServiceRegistration, HealthCheck } from '../module.ts';
import { implementGrpcService } from './service-definition.ts';
import { ANY_SERVICE } from './service-identity.ts';

export { ServingStatus };

export interface GrpcHealthOptions {
  logger: Logger;
  /** A check slower than this counts as failing (default 2000 ms). */
  checkTimeoutMs?: number;
  /** Results are reused this long so a burst of probes runs each check once (default 1000 ms). */
  cacheMs?: number;
  /** How often Watch re-evaluates while someone watches (default 5000 ms). */
  watchIntervalMs?: number;
}

export interface GrpcHealth {
  /** Register a service name (e.g. `kaboodle.search.v1.SearchService`) and the checks it depends on. */
  register(service: string, checks: readonly HealthCheck[]): void;
  /** Status of one service, or of the server for ""; NotFoundError for an unknown name. */
  status(service?: string): Promise<ServingStatus>;
  /** Every registered service and "" with its status. */
  statuses(): Promise<Record<string, ServingStatus>>;
  /** The reasons checks currently fail, by check name (empty when healthy). */
  failures(): Promise<Record<string, string>>;
  /** From now on everything is NOT_SERVING and watchers end (graceful shutdown). */
  shutdown(): void;
  readonly registration: GrpcServiceRegistration;
}

const isCritical = (check: HealthCheck): boolean => check.critical !== false;

export function createGrpcHealth(options: GrpcHealthOptions): GrpcHealth {
  const checkTimeoutMs = options.checkTimeoutMs ?? 2000;
  const cacheMs = options.cacheMs ?? 1000;
  const watchIntervalMs = options.watchIntervalMs ?? 5000;
  const log = options.logger;
  const services = new Map<string, readonly HealthCheck[]>();
  const cache = new Map<HealthCheck, { at: number; result: Promise<string | undefined> }>();
  const lastFailure = new Map<string, string | undefined>();
  const closing = new AbortController();

  /** Undefined when healthy, else the reason. */
  async function runCheck(check: HealthCheck): Promise<string | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${checkTimeoutMs} ms`)), checkTimeoutMs);
    });
    let reason: string | undefined;
    try {
      await Promise.race([check.check(), timeout]);
    } catch (err) {
      reason = err instanceof Error ? err.message : String(err);
    } finally {
      clearTimeout(timer);
    }
    const before = lastFailure.get(check.name);
    if (reason !== undefined && before === undefined)
      log.warn({ check: check.name, reason }, 'health check failing');
    if (reason === undefined && before !== undefined)
      log.info({ check: check.name }, 'health check recovered');
    lastFailure.set(check.name, reason);
    return reason;
  }

  function cachedCheck(check: HealthCheck): Promise<string | undefined> {
    const hit = cache.get(check);
    const now = Date.now();
    if (hit && now - hit.at < cacheMs) return hit.result;
    const result = runCheck(check);
    cache.set(check, { at: now, result });
    return result;
  }

  /** The checks a service's status follows: only critical ones (a degraded dependency serves on). */
  function checksFor(service: string): readonly HealthCheck[] {
    if (service === '') return [...new Set([...services.values()].flat())].filter(isCritical);
    const checks = services.get(service);
    if (!checks) throw new NotFoundError(`unknown service ${JSON.stringify(service)}`);
    return checks.filter(isCritical);
  }

  async function status(service = ''): Promise<ServingStatus> {
    const checks = checksFor(service);
    if (closing.signal.aborted) return ServingStatus.NOT_SERVING;
    const results = await Promise.all(checks.map(cachedCheck));
    return results.every((r) => r === undefined) ? ServingStatus.SERVING : ServingStatus.NOT_SERVING;
  }

  async function statuses(): Promise<Record<string, ServingStatus>> {
    const names = ['', ...services.keys()];
    const values = await Promise.all(names.map((n) => status(n)));
    return Object.fromEntries(names.map((n, i) => [n, values[i]!]));
  }

  async function failures(): Promise<Record<string, string>> {
    const checks = checksFor('');
    const results = await Promise.all(checks.map(cachedCheck));
    const out: Record<string, string> = {};
    checks.forEach((c, i) => {
      if (results[i] !== undefined) out[c.name] = results[i];
    });
    return out;
  }

  const registration = implementGrpcService(
    Health,
    {
      check: async (request) => ({ status: await status(request.service) }),
      list: async () => {
        const all = await statuses();
        return {
          statuses: Object.fromEntries(Object.entries(all).map(([name, s]) => [name, { status: s }])),
        };
      },
      // Sends the current status at once, then only changes, until the client leaves or the server stops.
      watch: async function* (request, ctx) {
        const stop = AbortSignal.any([ctx.signal, closing.signal]);
        let last: ServingStatus | undefined;
        for (;;) {
          const current =
            services.has(request.service) || request.service === ''
              ? await status(request.service)
              : ServingStatus.SERVICE_UNKNOWN;
          if (current !== last) {
            last = current;
            yield { status: current };
          }
          if (ctx.signal.aborted) return;
          if (closing.signal.aborted) {
            if (last !== ServingStatus.NOT_SERVING) yield { status: ServingStatus.NOT_SERVING };
            return;
          }
          await sleep(watchIntervalMs, undefined, { signal: stop }).catch(() => undefined);
        }
      },
    },
    // Any Kaboodle service may ask whether another is serving.
    { '*': [ANY_SERVICE] },
  );

  return {
    register(service, checks) {
      if (!service) throw new TypeError('grpc health: a service name is required');
      const known = services.get(service) ?? [];
      services.set(service, [...new Set([...known, ...checks])]);
    },
    status,
    statuses,
    failures,
    shutdown: () => closing.abort(),
    registration,
  };
}
