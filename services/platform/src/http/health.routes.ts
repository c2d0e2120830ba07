// /healthz (the process answers: liveness never asks anything else), /readyz (what this pod needs to
// answer its own requests answers, checked on each call so an engine that goes away and comes back
// flips it both ways; non-critical dependencies are reported `degraded` without failing it) and
// /metrics (Prometheus text), as declared in health.api.ts.
import type { Router } from 'express';
import type { HealthCheck } from '../module.ts';
import { getTelemetry } from '../telemetry/telemetry.ts';
import { createApiRouter } from './api/api-router.ts';
import { getHealth, getMetrics, getReadiness } from './health.api.ts';

export interface CheckResult {
  name: string;
  status: 'ok' | 'fail' | 'degraded';
  durationMs: number;
  /** Why it failed (the check's error message, or a timeout). */
  error?: string;
}

export interface ReadinessReport {
  ready: boolean;
  checks: CheckResult[];
}

class CheckTimeoutError extends Error {}

async function runCheck(check: HealthCheck, timeoutMs: number): Promise<CheckResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      // Wrapped so a check that throws synchronously is still a failed check, not a crash.
      Promise.resolve().then(() => check.check()),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new CheckTimeoutError(`timed out after ${timeoutMs}ms`)), timeoutMs);
      }),
    ]);
    return { name: check.name, status: 'ok', durationMs: Math.round(performance.now() - started) };
  } catch (err) {
    const error = err instanceof Error ? err.message || err.name : String(err);
    const status = check.critical === false ? 'degraded' : 'fail';
    return { name: check.name, status, durationMs: Math.round(performance.now() - started), error };
  } finally {
    clearTimeout(timer);
  }
}

/** Run every check concurrently, each bounded by timeoutMs; only critical failures make it unready. */
export async function checkReadiness(
  checks: readonly HealthCheck[],
  timeoutMs: number,
): Promise<ReadinessReport> {
  const results = await Promise.all(checks.map((c) => runCheck(c, timeoutMs)));
  return { ready: results.every((r) => r.status !== 'fail'), checks: results };
}

export interface HealthRoutesOptions {
  /** Live list: checks added later are included on the next call. */
  checks: readonly HealthCheck[];
  timeoutMs: number;
  /** True while the server drains for shutdown: /readyz answers 503 so load balancers stop sending. */
  isDraining: () => boolean;
}

export function createHealthRoutes(options: HealthRoutesOptions): Router {
  const api = createApiRouter();
  const startedAt = Date.now();

  api.handle(getHealth, ({ reply }) => {
    reply(200, { status: 'ok', uptimeSeconds: Math.round((Date.now() - startedAt) / 1000) });
  });

  api.handle(getReadiness, async ({ res, reply }) => {
    res.set('Cache-Control', 'no-store');
    if (options.isDraining()) {
      reply(503, { status: 'shutting down', checks: [] });
      return;
    }
    const report = await checkReadiness(options.checks, options.timeoutMs);
    if (report.ready) {
      reply(200, { status: 'ready', checks: report.checks });
    } else {
      const failed = report.checks.filter((c) => c.status === 'fail');
      reply(503, {
        status: 'not ready',
        failed: failed.map((c) => `${c.name}: ${c.error ?? 'failed'}`),
        checks: report.checks,
      });
    }
  });

  api.handle(getMetrics, ({ req, res }) => {
    const telemetry = getTelemetry();
    if (!telemetry) {
      res.status(503).type('text/plain').send('# telemetry is not started in this process\n');
      return;
    }
    telemetry.metricsHandler(req, res);
  });

  return api.router;
}
