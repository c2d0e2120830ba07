// What happens when a module fails after start (its consumer, relay or timer loop died): the process
// must not go on serving half dead. Readiness fails at once (a `module.<id>` check, so no new traffic
// is routed here) and `failed` resolves, on which `serve` stops the rest gracefully and exits 1 for
// the supervisor (Kubernetes, systemd, Docker) to restart it: as Loki's dskit does when a service fails.
import type { HttpServer, Logger } from '@kaboodle/platform';

export interface ModuleFailures {
  /** The manager's onFailure hook. */
  report(id: string, err: Error): void;
  /** Resolves with the first failure (never rejects); pending while every module is well. */
  readonly failed: Promise<Error>;
}

export function createModuleFailures(options: {
  logger: Logger;
  /** The process's HTTP server, when it runs one (built during init, so asked at failure time). */
  http: () => HttpServer | undefined;
}): ModuleFailures {
  let resolve!: (err: Error) => void;
  const failed = new Promise<Error>((r) => (resolve = r));
  return {
    failed,
    report(id, err) {
      options.logger.error({ err, module: id }, 'module failed after start; stopping the process');
      const failure = new Error(`module ${id} failed after start: ${err.message}`, { cause: err });
      // The reason stays in the logs: /readyz is public and says only what failed.
      const down = new Error('failed after start (see the logs)');
      options.http()?.addChecks({ name: `module.${id}`, check: () => Promise.reject(down) });
      resolve(failure);
    },
  };
}
