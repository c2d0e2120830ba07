// The `web` target: serves the built shell and its federated remotes from one origin, so the
// browser never needs CORS. Shell at /, each remote at /mf/<name>/<version>/ (versioned, immutable)
// and /mf/<name>/ (this build, revalidated). /runtime-config.json tells the shell where each remote's
// manifest is: this build's versioned one, or a remote its team deployed on its own
// (REMOTE_<NAME>_URL), so a remote ships without rebuilding the shell and a manifest never meets
// chunks of another version.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express, { type Router } from 'express';
import type { HealthCheck, ServiceModule } from '@kaboodle/platform';

export const REMOTES = ['dashboard', 'vault', 'inventory', 'observatory'] as const;

/**
 * Paths the single-page app must never swallow: APIs, probes and remotes. GET /process and GET /upload
 * are screens (the Processing Hub); only their POSTs and /process/status|cancel/... are the API.
 */
const NOT_SPA =
  /^\/(api|mf)(\/|$)|^\/(healthz|readyz|metrics|runtime-config\.json)$|^\/process\/(status|cancel)(\/|$)/;

export interface WebModuleDeps {
  /** Folder holding frontends/<app>/dist. */
  frontendsDir: string;
  /** Manifest URLs of remotes deployed on their own (REMOTE_<NAME>_URL); the rest are served here. */
  remoteUrls?: Partial<Record<(typeof REMOTES)[number], string>>;
}

/** The version a remote's build declares in its manifest (its package version), or undefined. */
function builtVersion(frontendsDir: string, remote: string): string | undefined {
  try {
    const manifest = JSON.parse(
      readFileSync(path.join(frontendsDir, remote, 'dist', 'mf-manifest.json'), 'utf8'),
    ) as {
      metaData?: { buildInfo?: { buildVersion?: string } };
    };
    const version = manifest.metaData?.buildInfo?.buildVersion;
    return version && /^[0-9A-Za-z.+-]+$/.test(version) ? version : undefined;
  } catch {
    return undefined;
  }
}

const SHELL_CSP = [
  "default-src 'self'",
  "script-src 'self' https://accounts.google.com/gsi/client",
  "style-src 'self' 'unsafe-inline' https://accounts.google.com/gsi/style",
  "img-src 'self' data: blob:",
  "connect-src 'self' https://accounts.google.com/gsi/",
  'frame-src https://accounts.google.com/gsi/',
  "frame-ancestors 'none'",
  "base-uri 'self'",
].join('; ');

/** Sends the shell's index.html (no-cache, the shell's CSP): the entry of every client-side route. */
export function shellEntry(frontendsDir: string): express.RequestHandler {
  const index = path.join(frontendsDir, 'shell', 'dist', 'index.html');
  return (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Content-Security-Policy', SHELL_CSP);
    res.sendFile(index, (err) => {
      if (err) next(err);
    });
  };
}

/**
 * Screens whose path is also an API path of another target: GET /process and GET /upload are the
 * Processing Hub, POST /process and POST /upload are ingestion's API. An Ingress cannot route by
 * method, so in a cluster those paths reach ingestion, which answers a browser's GET with the shell
 * (same image, same build) instead of a 404; its assets then load from the web target.
 */
export const SCREENS_ON_API_PATHS = ['/process', '/upload'] as const;

export function createScreenEntryRouter(frontendsDir: string): Router {
  const router: Router = express.Router();
  const send = shellEntry(frontendsDir);
  const screens = new Set<string>(SCREENS_ON_API_PATHS);
  // Named middleware, not routes: pages, not API operations (the route-coverage test lists it).
  router.use(function screenEntry(req, res, next) {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !screens.has(req.path)) return next();
    send(req, res, next);
  });
  return router;
}

export function createWebModule({ frontendsDir, remoteUrls = {} }: WebModuleDeps): ServiceModule {
  const shellDist = path.join(frontendsDir, 'shell', 'dist');
  const router: Router = express.Router();

  const staticOptions = {
    index: false,
    fallthrough: true,
    setHeaders(res: express.Response, file: string) {
      // Content-hashed assets never change; entry points and manifests must be revalidated.
      const name = path.basename(file);
      const immutable = /\.[0-9a-f]{8,}\./.test(name);
      res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      res.setHeader('X-Content-Type-Options', 'nosniff');
    },
  };

  const versions = Object.fromEntries(REMOTES.map((r) => [r, builtVersion(frontendsDir, r)]));
  const immutable = {
    ...staticOptions,
    // Everything under a version folder is that version's forever, manifest included.
    setHeaders(res: express.Response) {
      res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      res.setHeader('X-Content-Type-Options', 'nosniff');
    },
  };
  for (const remote of REMOTES) {
    const dist = path.join(frontendsDir, remote, 'dist');
    const version = versions[remote];
    // Only this build's version: asked for another, answer 404 rather than the wrong chunks.
    if (version) router.use(`/mf/${remote}/${version}`, express.static(dist, immutable));
    router.use(`/mf/${remote}`, express.static(dist, staticOptions));
  }

  // Where each remote's manifest lives (a file the shell reads at start, not an API operation: a
  // named middleware the route-coverage test lists).
  router.use('/runtime-config.json', function runtimeConfig(req, res, next) {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path !== '/') return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.json({
      remotes: Object.fromEntries(
        REMOTES.map((r) => [
          r,
          remoteUrls[r] ??
            (versions[r] ? `/mf/${r}/${versions[r]}/mf-manifest.json` : `/mf/${r}/mf-manifest.json`),
        ]),
      ),
    });
  });
  router.use(express.static(shellDist, staticOptions));

  // The shell's client-side routes get index.html (named: the route-coverage test lists it).
  const sendShell = shellEntry(frontendsDir);
  router.use(function spaFallback(req, res, next) {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || NOT_SPA.test(req.path)) return next();
    sendShell(req, res, next);
  });

  const checks: HealthCheck[] = [
    {
      name: 'web.assets',
      async check() {
        const missing = ['shell', ...REMOTES].filter(
          (app) => !existsSync(path.join(frontendsDir, app, 'dist')),
        );
        if (missing.length > 0) throw new Error(`not built: ${missing.join(', ')} (run make build)`);
      },
    },
  ];

  return { name: 'web', router, checks };
}
