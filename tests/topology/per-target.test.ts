// What each target loads and answers on its own, as a pod of the chart runs it: the web target never
// loads the AI models (its pod has a 256 Mi limit), and ingestion answers a browser's deep link to the
// Processing Hub (GET /process, /upload: an Ingress cannot route by method) with the shell.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaMockMissing, startKafkaMock } from '../chaos/support/private-engines.ts';
import type { PrivateBroker } from '../chaos/support/private-engines.ts';
import { startKaboodleProcess, tempDataDir } from '../support/kaboodle-process.ts';
import type { KaboodleProcess } from '../support/kaboodle-process.ts';

/** Native libraries of the AI stack: none may be mapped into the web target. */
const ML_LIBRARIES = /onnxruntime|lancedb|tesseract|sharp|tfjs/;

function mappedLibraries(pid: number): string[] {
  const maps = readFileSync(`/proc/${pid}/maps`, 'utf8');
  return [...new Set(maps.split('\n').map((l) => l.split(/\s+/)[5] ?? ''))].filter((p) =>
    p.endsWith('.node'),
  );
}

const VERSION: string = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
).version;

const rssMiB = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

describe('the web target alone', () => {
  const data = tempDataDir();
  let web: KaboodleProcess;
  beforeAll(async () => {
    web = await startKaboodleProcess({
      target: 'web',
      env: {
        KABOODLE_DATA_DIR: data.dir,
        NODE_ENV: 'production',
        KAFKA_BROKERS: '',
        DATABASE_URL: '',
        // The vault team deployed its remote on its own: the shell is told where.
        REMOTE_VAULT_URL: '/mf/vault/9.9.9/mf-manifest.json',
      },
    });
  });
  afterAll(async () => {
    await web?.stop();
    data.remove();
  });

  it('loads no AI model library and stays well under its 256 Mi memory limit', async () => {
    // A page request, so the static server and the SPA fallback have run too.
    const page = await fetch(new URL('/documents', web.url));
    expect(page.status).toBe(200);
    await page.text();
    const pid = web.child.pid!;
    const native = mappedLibraries(pid);
    expect(native.filter((p) => ML_LIBRARIES.test(p))).toEqual([]);
    const rss = rssMiB(pid);
    console.log(`[per-target] web target RSS ${rss.toFixed(1)} MiB, native addons: ${native.length}`);
    expect(rss).toBeLessThan(240); // the pod limit is 256 Mi; with the AI stack it was 278 MiB
  });

  it('remotes deployable alone: names each remote’s versioned manifest, a separately deployed one included', async () => {
    const res = await fetch(new URL('/runtime-config.json', web.url));
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const { remotes } = (await res.json()) as { remotes: Record<string, string> };
    expect(remotes).toEqual({
      dashboard: `/mf/dashboard/${VERSION}/mf-manifest.json`,
      vault: '/mf/vault/9.9.9/mf-manifest.json',
      inventory: `/mf/inventory/${VERSION}/mf-manifest.json`,
      observatory: `/mf/observatory/${VERSION}/mf-manifest.json`,
    });
  });

  it('remotes deployable alone: serves its own version immutably, and no other version at all', async () => {
    const own = await fetch(new URL(`/mf/dashboard/${VERSION}/mf-manifest.json`, web.url));
    expect(own.status).toBe(200);
    expect(own.headers.get('cache-control')).toContain('immutable');
    // Chunks resolve next to the manifest, so a manifest never names another version's chunks.
    expect(((await own.json()) as { metaData: { publicPath: string } }).metaData.publicPath).toBe('auto');
    expect((await fetch(new URL('/mf/dashboard/0.0.1/mf-manifest.json', web.url))).status).toBe(404);
  });
});

const noKafka = kafkaMockMissing();
if (noKafka) console.log(`[per-target] ingestion deep links skipped: ${noKafka}`);

describe.skipIf(noKafka)('deep links to the Processing Hub that reach ingestion', () => {
  const data = tempDataDir();
  let broker: PrivateBroker;
  let ingestion: KaboodleProcess;
  beforeAll(async () => {
    broker = await startKafkaMock();
    ingestion = await startKaboodleProcess({
      target: 'ingestion',
      env: {
        KABOODLE_DATA_DIR: data.dir,
        KAFKA_BROKERS: broker.brokers,
        // Never contacted here: no token is verified.
        AUTH_URL: 'http://127.0.0.1:1',
        DATABASE_URL: '',
      },
    });
  });
  afterAll(async () => {
    await ingestion?.stop();
    broker?.stop();
    data.remove();
  });

  it.each(['/process', '/upload'])('GET %s answers the shell, so the screen opens', async (screen) => {
    const res = await fetch(new URL(`${screen}?from=bookmark`, ingestion.url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await res.text()).toContain('<div id="root">');
  });

  it('still routes POST /process and GET /process/status/:id to the API', async () => {
    const post = await fetch(new URL('/process', ingestion.url), {
      method: 'POST',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(post.status).toBe(401);
    const status = await fetch(new URL('/process/status/abc', ingestion.url));
    expect(status.status).toBe(401);
    expect(status.headers.get('content-type')).toMatch(/application\/json/);
  });
});
