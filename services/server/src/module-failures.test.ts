// A module failing after start turns readiness to 503 (naming the module, not the internal reason)
// and resolves `failed` once, so `serve` stops and exits 1.
import pino from 'pino';
import { createHttpServer, listen } from '@kaboodle/platform';
import { describe, expect, it } from 'vitest';
import { createModuleFailures } from './module-failures.ts';

const logger = pino({ level: 'silent' });

describe('createModuleFailures', () => {
  it('turns /readyz to 503 with a module.<id> check and resolves failed with the cause', async () => {
    const http = createHttpServer({ logger });
    http.addChecks({ name: 'database', check: async () => undefined });
    const server = await listen(http.app, 0, '127.0.0.1');
    try {
      const failures = createModuleFailures({ logger, http: () => http });
      expect((await fetch(new URL('/readyz', server.url))).status).toBe(200);

      failures.report('search', new Error('index writer crashed: disk full at /var/lib/x'));

      const res = await fetch(new URL('/readyz', server.url));
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({
        status: 'not ready',
        failed: ['module.search: failed after start (see the logs)'],
      });
      const err = await failures.failed;
      expect(err.message).toBe(
        'module search failed after start: index writer crashed: disk full at /var/lib/x',
      );
    } finally {
      await server.close();
    }
  });

  it('keeps failed pending while no module has failed', async () => {
    const failures = createModuleFailures({ logger, http: () => undefined });
    const outcome = await Promise.race([
      failures.failed,
      new Promise((r) => setTimeout(() => r('pending'), 20)),
    ]);
    expect(outcome).toBe('pending');
  });
});
