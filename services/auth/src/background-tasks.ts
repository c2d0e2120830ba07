// Work an answer does not wait for (mailing a link after the response went out), tracked so the
// module's stop() lets it finish before the database closes. Failures are logged, never thrown.
import type { Logger } from '@kaboodle/platform';

export interface BackgroundTasks {
  run(what: string, work: () => Promise<unknown>, context?: Record<string, unknown>): void;
  /** Resolves once everything started so far has settled. */
  drain(): Promise<void>;
}

export function createBackgroundTasks(logger: Pick<Logger, 'error'>): BackgroundTasks {
  const pending = new Set<Promise<unknown>>();
  return {
    run(what, work, context = {}) {
      const task = work()
        .catch((err: unknown) => logger.error({ err, ...context }, `${what} failed`))
        .finally(() => pending.delete(task));
      pending.add(task);
    },
    async drain() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
