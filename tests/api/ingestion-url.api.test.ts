// POST /process with {url}: fetched server-side by a real `kaboodle --target=all` from a local HTTP
// server that only the operator allow-list (URL_FETCH_ALLOW_HOSTS=127.0.0.2) lets it reach; every
// other internal address, redirects into them, redirect loops, oversized, slow and unsupported
// answers are refused with clear texts and leave nothing behind.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKaboodleProcess, tempDataDir } from '../support/kaboodle-process.ts';
import type { KaboodleProcess } from '../support/kaboodle-process.ts';
import { ingestionClient, processed } from '../support/ingestion-client.ts';
import type { IngestionClient } from '../support/ingestion-client.ts';

const data = tempDataDir();
let app: KaboodleProcess;
let api: IngestionClient;
let site: Server;
let port: number;
let token: string;
const at = (path: string, host = '127.0.0.2') => `http://${host}:${port}${path}`;

const ARTICLE_TOKEN = `quasar-${randomUUID().slice(0, 8)}`;
const ARTICLE = `<!doctype html><html lang="en"><head><title>Bead trade routes</title>
<meta name="author" content="Ines Duarte"></head><body>
<nav><a href="/">Home</a> · <a href="/shop">Shop</a> · <a href="/about">About</a></nav>
<article><h1>Bead trade routes of the Sahel</h1>
${Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i + 1}: glass beads moved along caravan routes for centuries, traded for salt, gold and cloth; the ${ARTICLE_TOKEN} ledger records each exchange in detail, with weights, prices and the names of the traders involved.</p>`).join('\n')}
</article><footer>© Bead Cooperative · Privacy · Terms</footer></body></html>`;

function startSite(): Promise<Server> {
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const p = u.pathname;
    if (p === '/article') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
    } else if (p === '/notes.txt') {
      res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(`Field notes ${u.searchParams.get('v') ?? ''}`);
    } else if (p === '/download') {
      res
        .writeHead(200, {
          'content-type': 'application/octet-stream',
          'content-disposition': `attachment; filename="fallback.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt`,
        })
        .end(`Résumé ${randomUUID()}`);
    } else if (p === '/redirect-ok') {
      res.writeHead(302, { location: `/notes.txt?v=${randomUUID()}` }).end();
    } else if (p === '/redirect-private') {
      res.writeHead(302, { location: at('/notes.txt', '127.0.0.1') }).end();
    } else if (p === '/redirect-metadata') {
      res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    } else if (p.startsWith('/loop/')) {
      const n = Number(p.split('/')[2]);
      res.writeHead(301, { location: `/loop/${n + 1}` }).end();
    } else if (p === '/big') {
      // declares its size: refused before reading
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(21 * 1024 * 1024) });
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      let sent = 0;
      const pump = () => {
        while (sent < 21 && res.write(chunk)) sent++;
        if (sent < 21) res.once('drain', pump);
        else res.end();
      };
      pump();
    } else if (p === '/big-chunked') {
      // no size up front: reading stops at the limit
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(1024 * 1024, 0x62);
      let sent = 0;
      const pump = () => {
        while (sent < 200 && !res.destroyed && res.write(chunk)) sent++;
        if (sent < 200 && !res.destroyed) res.once('drain', pump);
        else res.end();
      };
      res.on('close', () => (sent = 200));
      pump();
    } else if (p === '/slow') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('starting…');
      const t = setTimeout(() => res.end('done'), 10_000);
      res.on('close', () => clearTimeout(t));
    } else if (p === '/archive.zip') {
      res.writeHead(200, { 'content-type': 'application/zip' }).end('PK\x03\x04');
    } else if (p === '/empty.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end();
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.2', () => resolve(server)));
}

beforeAll(async () => {
  site = await startSite();
  port = (site.address() as AddressInfo).port;
  app = await startKaboodleProcess({
    target: 'all',
    env: {
      KABOODLE_DATA_DIR: data.dir,
      DATABASE_URL: '',
      KAFKA_BROKERS: '',
      S3_ENDPOINT: '',
      URL_FETCH_ALLOW_HOSTS: '127.0.0.2',
      URL_FETCH_TIMEOUT: '2s',
      URL_FETCH_MAX_REDIRECTS: '3',
    },
  });
  api = ingestionClient(app.url);
  token = await api.register('paster');
});
afterAll(async () => {
  if (process.env.DEBUG_KABOODLE) console.log(app?.output());
  await app?.stop();
  site?.closeAllConnections();
  site?.close();
  data.remove();
});

describe('POST /process with a pasted URL', () => {
  it('fetches a web page, stores it as text/html and processing keeps the article text', async () => {
    const res = await api.fetchUrl(token, {
      url: at('/article'),
      instructions: 'tags: beads',
      destination: 'document',
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      name: 'article.html',
      content_type: 'text/html',
      status: 'queued',
      source_url: at('/article'),
      destination: 'document',
      instructions: 'tags: beads',
      attempt: 1,
      duplicate: false,
    });
    const done = await api.waitFor(token, res.body.id, processed);
    expect(done.status, done.error ?? '').not.toBe('failed');
    const content = await fetch(new URL(`/process/files/${res.body.id}/content`, app.url), {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(content.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(await content.text()).toContain(ARTICLE_TOKEN);
  });

  it('follows a redirect on an allowed host and names the file from the final URL', async () => {
    const res = await api.fetchUrl(token, { url: at('/redirect-ok') });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ name: 'notes.txt', content_type: 'text/plain' });
  });

  it('names the file from Content-Disposition (RFC 5987) and recognises a second fetch as a duplicate', async () => {
    const res = await api.fetchUrl(token, { url: at('/download') });
    expect(res.status).toBe(202);
    expect(res.body.name).toBe('résumé.txt');
    const first = await api.fetchUrl(token, { url: at('/notes.txt?v=same') });
    expect(first.status).toBe(202);
    const again = await api.fetchUrl(token, { url: at('/notes.txt?v=same') });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ duplicate: true, id: first.body.id });
  });

  it.each([
    ['loopback 127.0.0.1', () => at('/notes.txt', '127.0.0.1')],
    ['a private 10.x address', () => 'http://10.1.2.3/file.pdf'],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['IPv6 loopback', () => `http://[::1]:${port}/notes.txt`],
    ['an IPv4-mapped IPv6 loopback', () => `http://[::ffff:127.0.0.1]:${port}/notes.txt`],
    ['a host name that resolves to loopback', () => at('/notes.txt', 'localhost')],
    ['a redirect to a private address', () => at('/redirect-private')],
    ['a redirect to the metadata address', () => at('/redirect-metadata')],
  ])('refuses %s: a private or local network address, said of the link', async (_label, target) => {
    const res = await api.fetchUrl(token, { url: target() });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'This link points to a private or local network address, which Kaboodle does not fetch',
    );
  });

  it('refuses more redirects than URL_FETCH_MAX_REDIRECTS', async () => {
    const res = await api.fetchUrl(token, { url: at('/loop/0') });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Could not fetch the URL: too many redirects');
  });

  it('refuses a file over 20 MB by its Content-Length, and stops reading one that does not say', async () => {
    const declared = await api.fetchUrl(token, { url: at('/big') });
    expect(declared.status).toBe(413);
    expect(declared.body.message).toBe('File size exceeds 20MB limit (21.00MB)');
    const started = Date.now();
    const chunked = await api.fetchUrl(token, { url: at('/big-chunked') });
    expect(chunked.status).toBe(413);
    expect(chunked.body.message).toMatch(/^File size exceeds 20MB limit \(20\.\d\dMB\)$/);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('gives up on a server slower than URL_FETCH_TIMEOUT', async () => {
    const started = Date.now();
    const res = await api.fetchUrl(token, { url: at('/slow') });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Could not fetch the URL: it took longer than 2 seconds');
    expect(Date.now() - started).toBeLessThan(8_000);
  });

  it('refuses unsupported types, error answers, empty bodies and addresses that are not http(s)', async () => {
    const zip = await api.fetchUrl(token, { url: at('/archive.zip') });
    expect(zip.status).toBe(400);
    expect(zip.body.message).toBe('Unsupported file type: application/zip');
    const missing = await api.fetchUrl(token, { url: at('/missing') });
    expect(missing.body.message).toBe('Could not fetch the URL: the server answered 404');
    const empty = await api.fetchUrl(token, { url: at('/empty.txt') });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Could not fetch the URL: the server sent an empty file');
    for (const url of ['ftp://127.0.0.2/x', 'file:///etc/passwd', 'not a url', '', 42]) {
      const res = await api.fetchUrl(token, { url });
      expect(res.status, String(url)).toBe(400);
      expect(res.body.message).toBe('Enter a valid web address starting with http:// or https://');
    }
    const badDestination = await api.fetchUrl(token, { url: at('/notes.txt'), destination: 'moon' });
    expect(badDestination.status).toBe(400);
    expect(badDestination.body.message).toMatch(/Unknown destination "moon"/);
  });

  it('leaves no file record behind for any refusal', async () => {
    const list = await api.call<{ files: { source_url: string | null }[]; total: number }>(
      'GET',
      '/process/files?limit=100',
      token,
    );
    expect(list.status).toBe(200);
    const sources = list.body.files.map((f) => f.source_url);
    expect(
      sources.every(
        (s) => s === null || /\/(article|notes\.txt\?v=|download)/.test(s) || s.endsWith('/redirect-ok'),
      ),
    ).toBe(true);
    expect(list.body.total).toBe(4);
    // and no stored bytes either: one blob per record
    const blobs = readdirSync(path.join(data.dir, 'blobs'), { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.blob'),
    );
    expect(blobs).toHaveLength(4);
  });
});
