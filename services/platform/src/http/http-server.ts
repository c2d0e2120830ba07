// The express 5 app every Kaboodle process serves: request ids, tracing, metrics, request logs, health
// endpoints, the modules' routers, then one 404 and one error handler for everything.
import express, { Router } from 'express';
import type { Express, RequestHandler } from 'express';
import { childLogger } from '../log/logger.ts';
import type { Logger } from '../log/logger.ts';
import type { HealthCheck } from '../module.ts';
import { errorHandler, notFoundHandler } from './error-handler.ts';
import { checkReadiness, createHealthRoutes } from './health.routes.ts';
import type { ReadinessReport } from './health.routes.ts';
import { isDraining } from './listen.ts';
import { requestContext } from './request-context.ts';
import { RESPONSE_CHECK_LOCAL } from './api/api-router.ts';
import type { ResponseCheck } from './api/api-router.ts';

export interface HttpServerOptions {
  /** The kit logs each request through a child with component `http`. */
  logger: Logger;
  /** Dependencies /readyz touches (modules' checks). More can be added with addChecks. */
  checks?: readonly HealthCheck[];
  /** Routers (or handlers) mounted at the root in order; more can be added with mount. */
  routers?: ReadonlyArray<Router | RequestHandler>;
  /** Per-check timeout for /readyz (default 2000 ms). */
  readyTimeoutMs?: number;
  /** Express "trust proxy" setting, for req.ip and req.protocol behind an ingress (default false). */
  trustProxy?: boolean | number | string;
  /** Check JSON answers of API operations against their declared schemas (API_RESPONSE_CHECK; default off). */
  responseCheck?: ResponseCheck;
}

export interface HttpServer {
  readonly app: Express;
  /** Mount routers/handlers; they run before the 404 and error handlers whenever they are added. */
  mount(...handlers: Array<Router | RequestHandler>): void;
  addChecks(...checks: HealthCheck[]): void;
  /** Run every registered check now (what /readyz reports). */
  readiness(): Promise<ReadinessReport>;
}

export function createHttpServer(options: HttpServerOptions): HttpServer {
  const logger = childLogger(options.logger, 'http');
  const checks: HealthCheck[] = [];
  const readyTimeoutMs = options.readyTimeoutMs ?? 2000;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy ?? false);
  app.locals[RESPONSE_CHECK_LOCAL] = options.responseCheck ?? 'off';

  const addChecks = (...more: HealthCheck[]): void => {
    for (const c of more) {
      if (!c || typeof c.name !== 'string' || typeof c.check !== 'function') {
        throw new TypeError('addChecks: a HealthCheck needs a name and a check() function');
      }
      if (checks.some((existing) => existing.name === c.name)) {
        throw new TypeError(
          `addChecks: a health check named ${JSON.stringify(c.name)} is already registered`,
        );
      }
      checks.push(c);
    }
  };
  addChecks(...(options.checks ?? []));

  app.use(requestContext(logger));
  app.use(createHealthRoutes({ checks, timeoutMs: readyTimeoutMs, isDraining: () => isDraining(app) }));

  // Modules' routes live in this router, which sits before the terminal handlers, so mount() works
  // at any time (Express runs middleware in registration order).
  const routes = Router();
  app.use(routes);
  const mount = (...handlers: Array<Router | RequestHandler>): void => {
    for (const h of handlers) routes.use(h);
  };
  mount(...(options.routers ?? []));

  app.use(notFoundHandler());
  app.use(errorHandler());

  return { app, mount, addChecks, readiness: () => checkReadiness(checks, readyTimeoutMs) };
}
