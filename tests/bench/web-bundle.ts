// The shell's first-load JavaScript, measured the way a visitor gets it: real Chromium opens "/"
// from the built frontends and every script it fetches until the landing is up is gzipped and
// summed. Goal: under 200 KB. Run alone with `node tests/bench/web-bundle.ts` (after make build).
import { existsSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../e2e/support/browser.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FRONTENDS = path.join(REPO_ROOT, 'frontends');
const REMOTES = ['dashboard', 'vault', 'inventory', 'observatory'];
export const FIRST_LOAD_GOAL_KB = 200;

export interface WebBundleFigures {
  /** Scripts named in index.html (the runtime, React, the router, federation). */
  entryJsGzipKb: number;
  /** Everything the landing page needed before it was usable (entry + bootstrap + landing chunks). */
  firstLoadJsGzipKb: number;
  firstLoadScripts: number;
  /** Largest script of the first load. */
  largest: { file: string; gzipKb: number };
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.html': 'text/html',
};

/** Maps a URL path to a built file the way the server's web module does (shell at /, remotes at /mf/<name>/). */
function fileFor(urlPath: string): string | null {
  const m = /^\/mf\/([a-z]+)\/(.+)$/.exec(urlPath);
  const file = m
    ? REMOTES.includes(m[1]!)
      ? path.join(FRONTENDS, m[1]!, 'dist', m[2]!)
      : null
    : path.join(FRONTENDS, 'shell', 'dist', urlPath);
  if (!file || !file.startsWith(FRONTENDS) || !existsSync(file) || !statSync(file).isFile()) return null;
  return file;
}

function gzipKb(file: string): number {
  return gzipSync(readFileSync(file), { level: 9 }).length / 1024;
}

/** A static stand-in for the web module: the built files, the SPA fallback, and "signed out" for the API. */
function serveBuiltFrontends(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (urlPath.startsWith('/api/')) {
      res.writeHead(urlPath === '/api/auth/config' ? 200 : 401, { 'content-type': 'application/json' });
      res.end(
        urlPath === '/api/auth/config'
          ? '{"google":{"enabled":false,"clientId":null}}'
          : '{"message":"Not signed in"}',
      );
      return;
    }
    const file =
      (urlPath !== '/' && fileFor(urlPath)) || (urlPath.startsWith('/mf/') ? null : fileFor('/index.html'));
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    ),
  );
}

export async function measureWebBundle(): Promise<WebBundleFigures> {
  const index = path.join(FRONTENDS, 'shell', 'dist', 'index.html');
  if (!existsSync(index)) throw new Error('frontends/shell/dist is missing: run make build first');
  const entryScripts = [...readFileSync(index, 'utf8').matchAll(/<script[^>]*src="([^"]+)"/g)].map(
    (m) => m[1]!,
  );
  const entryJsGzipKb = entryScripts.reduce((sum, src) => sum + gzipKb(fileFor(src)!), 0);

  const site = await serveBuiltFrontends();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1366, height: 860 } });
    const scripts = new Set<string>();
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (request.resourceType() === 'script' && url.origin === site.url) scripts.add(url.pathname);
    });
    await page.goto(`${site.url}/`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Launch', exact: true }).waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    const sizes = [...scripts].map((p) => ({ file: p, gzipKb: gzipKb(fileFor(p)!) }));
    sizes.sort((a, b) => b.gzipKb - a.gzipKb);
    return {
      entryJsGzipKb: round(entryJsGzipKb),
      firstLoadJsGzipKb: round(sizes.reduce((sum, s) => sum + s.gzipKb, 0)),
      firstLoadScripts: sizes.length,
      largest: sizes[0] ? { file: sizes[0].file, gzipKb: round(sizes[0].gzipKb) } : { file: '-', gzipKb: 0 },
    };
  } finally {
    await browser.close();
    await site.close();
  }
}

function round(kb: number): number {
  return Math.round(kb * 10) / 10;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const f = await measureWebBundle();
  const verdict = f.firstLoadJsGzipKb < FIRST_LOAD_GOAL_KB ? 'within' : 'OVER';
  console.log(
    `web.shell first-load JS (gzip, landing "/"): ${f.firstLoadJsGzipKb} KB in ${f.firstLoadScripts} scripts — ${verdict} the ${FIRST_LOAD_GOAL_KB} KB goal`,
  );
  console.log(`web.shell entry scripts from index.html (gzip): ${f.entryJsGzipKb} KB`);
  console.log(`web.shell largest first-load script: ${f.largest.file} ${f.largest.gzipKb} KB`);
  if (verdict === 'OVER') process.exitCode = 1;
}
