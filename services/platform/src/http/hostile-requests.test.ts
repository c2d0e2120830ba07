// Requests the fuzzing campaign (tests/fuzz) found answered with a 500, a status no operation
// declares, or no message at all: malformed %-escapes in a path, bodies in an encoding or charset
// the parser does not take or that do not inflate, and what Node's HTTP parser itself refuses.
import net from 'node:net';
import zlib from 'node:zlib';
import express, { Router } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../log/logger.ts';
import { createHttpServer } from './http-server.ts';
import { listen } from './listen.ts';
import type { RunningServer } from './listen.ts';

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close(1000)));
});

async function start(): Promise<string> {
  const r = Router();
  r.get('/api/things/:id', (req, res) => void res.json({ id: req.params.id }));
  r.post('/api/things', express.json({ limit: 1024 }), (req, res) => void res.status(201).json(req.body));
  const kit = createHttpServer({
    logger: createLogger({ component: 'test', level: 'silent' }),
    routers: [r],
  });
  const server = await listen(kit.app, 0, '127.0.0.1');
  running.push(server);
  return server.url;
}

/** Raw bytes in, the raw answer out (once the server closes the connection). */
function raw(url: string, bytes: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let got = '';
    socket.on('data', (c: Buffer) => (got += c.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = got.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), body });
    });
    socket.end(bytes);
  });
}

const post = (url: string, headers: Record<string, string>, body: Buffer | string) =>
  fetch(`${url}/api/things`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });

describe('requests that cannot be read are refused with a 400 that says why', () => {
  it('a path whose %-escape does not decode', async () => {
    const url = await start();
    const res = await fetch(`${url}/api/things/%E0%A4%A`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: 'InputError',
      message: 'The address is not valid: it has a malformed %-escape',
    });
  });

  it('a body in a Content-Encoding the server does not take', async () => {
    const url = await start();
    const res = await post(url, { 'content-encoding': 'x-fuzz' }, '{"name":"lamp"}');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      message:
        'Content-Encoding "x-fuzz" is not supported: send the body uncompressed, or as gzip, deflate or br',
    });
  });

  it('a JSON body in a charset other than UTF-8', async () => {
    const url = await start();
    const res = await post(url, { 'content-type': 'application/json; charset=x-klingon' }, '{"name":"lamp"}');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      message: 'The charset "x-klingon" is not supported: send JSON as UTF-8',
    });
  });

  it('a gzip or br body that does not inflate', async () => {
    const url = await start();
    for (const encoding of ['gzip', 'br']) {
      const res = await post(url, { 'content-encoding': encoding }, Buffer.from('not compressed at all'));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        message: 'The request body could not be decompressed: check its Content-Encoding',
      });
    }
    const good = await post(url, { 'content-encoding': 'gzip' }, zlib.gzipSync('{"name":"lamp"}'));
    expect(good.status).toBe(201);
  });
});

describe("what Node's HTTP parser refuses gets the same JSON error body", () => {
  it('headers past the size limit: 431', async () => {
    const url = await start();
    const answer = await raw(
      url,
      `GET /api/things/1 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`,
    );
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toEqual({
      error: 'The request headers are too large',
      message: 'The request headers are too large',
      code: 'InputError',
    });
  });

  it('broken framing (Content-Length and Transfer-Encoding together, a bad chunk size): 400', async () => {
    const url = await start();
    for (const request of [
      'POST /api/things HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      'POST /api/things HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
      'POST /api/things HTTP/1.1\r\nHost: x\r\nContent-Length: lots\r\n\r\n',
      'not http at all\r\n\r\n',
    ]) {
      const answer = await raw(url, request);
      expect(answer.status, request).toBe(400);
      expect(JSON.parse(answer.body), request).toMatchObject({
        message: 'The request is not valid HTTP/1.1',
      });
    }
  });
});
