// listen(): binding (a free port, an address in use, an invalid port) and graceful close (readiness
// 503 while draining, in-flight requests finished, idle keep-alive closed, the deadline enforced).
import http from 'node:http';
import { Router } from 'express';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../log/logger.ts';
import { createHttpServer } from './http-server.ts';
import { useHttpTestKit } from './http-test-kit.ts';
import { listen } from './listen.ts';

const { start } = useHttpTestKit();

describe('listen and graceful close', () => {
  it('binds a free port when asked for 0 and reports its URL', async () => {
    const { server } = await start();
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.server.keepAliveTimeout).toBe(65_000);
    expect(server.server.headersTimeout).toBeGreaterThan(65_000);
  });

  it('says which address is in use', async () => {
    const { server } = await start();
    const { app } = createHttpServer({ logger: createLogger({ component: 't', level: 'silent' }) });
    await expect(listen(app, server.port, '127.0.0.1')).rejects.toThrow(
      `listening on 127.0.0.1:${server.port}: address already in use`,
    );
  });

  it('rejects an invalid port', async () => {
    const { app } = createHttpServer({ logger: createLogger({ component: 't', level: 'silent' }) });
    await expect(listen(app, 70000)).rejects.toThrow(/port must be an integer between 0 and 65535/);
  });

  it('answers /readyz 503 while draining, before it stops accepting', async () => {
    const logger = createLogger({ component: 't', level: 'silent' });
    const { app } = createHttpServer({ logger });
    const server = await listen(app, 0, '127.0.0.1', { drainDelayMs: 300 });
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const closing = server.close();
    const res = await fetch(`${server.url}/readyz`, { headers: { connection: 'close' } });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'shutting down' });
    expect((await fetch(`${server.url}/healthz`, { headers: { connection: 'close' } })).status).toBe(200);
    await closing;
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });

  it('finishes in-flight requests, then refuses new connections', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const slow = Router().get('/api/slow', async (_req, res) => {
      entered();
      await gate;
      res.json({ done: true });
    });
    const { url, server } = await start({ routers: [slow] });
    const agent = new http.Agent({ keepAlive: true });
    try {
      const inflight = fetch(`${url}/api/slow`);
      await inside;
      const closing = server.close(5000);
      let closed = false;
      void closing.then(() => (closed = true));

      await new Promise((r) => setTimeout(r, 50));
      expect(closed).toBe(false);
      release();
      const res = await inflight;
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ done: true });
      await closing;
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    } finally {
      agent.destroy();
    }
  });

  it('closes idle keep-alive connections instead of waiting for their timeout', async () => {
    const { url, server } = await start();
    const agent = new http.Agent({ keepAlive: true });
    try {
      await new Promise<void>((resolve, reject) => {
        http.get(`${url}/healthz`, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject);
      });
      const started = performance.now();
      await server.close(10_000);
      // Node's keep-alive timeout is 5 s; a graceful close must not wait for it.
      expect(performance.now() - started).toBeLessThan(1000);
    } finally {
      agent.destroy();
    }
  });

  it('cuts requests still running at the deadline', async () => {
    const never = Router().get('/api/never', () => new Promise<void>(() => undefined));
    const { url, server } = await start({ routers: [never] });
    const request = fetch(`${url}/api/never`).catch((err: unknown) => err);
    await new Promise((r) => setTimeout(r, 50));
    const started = performance.now();
    await server.close(100);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(90);
    expect(elapsed).toBeLessThan(2000);
    expect(await request).toBeInstanceOf(Error);
  });
});
