// /healthz (the process answers), /readyz (every dependency answers, checked on each call so an
// engine that goes away and comes back flips it both ways) and /metrics (Prometheus text).
import { Router } from 'express';
import type { HealthCheck } from '../module.ts';
import { getTelemetry } from '../telemetry/telemetry.ts';

export interface CheckResult {
  name: string;
  status: 'ok' | 'fail';
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
    return { name: check.name, status: 'fail', durationMs: Math.round(performance.now() - started), error };
  } finally {
    clearTimeout(timer);
  }
}

/** Run every check concurrently, each bounded by timeoutMs. */
export async function checkReadiness(
  checks: readonly HealthCheck[],
  timeoutMs: number,
): Promise<ReadinessReport> {
  const results = await Promise.all(checks.map((c) => runCheck(c, timeoutMs)));
  return { ready: results.every((r) => r.status === 'ok'), checks: results };
}

export interface HealthRoutesOptions {
  /** Live list: checks added later are included on the next call. */
  checks: readonly HealthCheck[];
  timeoutMs: number;
  /** True while the server drains for shutdown: /readyz answers 503 so load balancers stop sending. */
  isDraining: () => boolean;
}

export function createHealthRoutes(options: HealthRoutesOptions): Router {
  const router = Router();
  const startedAt = Date.now();

  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', uptimeSeconds: Math.round((Date.now() - startedAt) / 1000) });
  });

  router.get('/readyz', async (_req, res) => {
    res.set('Cache-Control', 'no-store');
    if (options.isDraining()) {
      res.status(503).json({ status: 'shutting down', checks: [] });
      return;
    }
    const report = await checkReadiness(options.checks, options.timeoutMs);
    if (report.ready) {
      res.json({ status: 'ready', checks: report.checks });
    } else {
      const failed = report.checks.filter((c) => c.status === 'fail');
      res.status(503).json({
        status: 'not ready',
        failed: failed.map((c) => `${c.name}: ${c.error ?? 'failed'}`),
        checks: report.checks,
      });
    }
  });

  router.get('/metrics', (req, res) => {
    const telemetry = getTelemetry();
    if (!telemetry) {
      res.status(503).type('text/plain').send('# telemetry is not started in this process\n');
      return;
    }
    telemetry.metricsHandler(req, res);
  });

  return router;
}
