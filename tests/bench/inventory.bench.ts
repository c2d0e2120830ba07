// The inventory at size on `kaboodle --target=all` (embedded engines): 10,000 items imported through
// POST /api/inventory/import (one CSV), then the table's filter latency (GET /api/inventory/search:
// text, category, both, sorted by price) as the browser asks for it, and the gallery's first paint in
// Chromium for an account of 1,000 items (980 imported, 20 photographed and processed), with what
// the pictures cost on the wire (gallery thumbnails against the originals).
// Run: node tests/bench/inventory.bench.ts
import { existsSync } from 'node:fs';
import os from 'node:os';
import { chromium } from 'playwright-core';
import { rephotographedItems } from '../../services/processing/src/vision/test-fixtures/rephotographed-items.ts';
import { createCatalogueClient } from '../api/support/catalogue-client.ts';
import { CHROMIUM_ARGS } from '../e2e/support/browser.ts';
import { startKaboodleProcess, tempDataDir } from '../support/kaboodle-process.ts';

const WORDS = ['stoneware', 'raffia', 'glass', 'teak', 'cotton', 'brass', 'clay', 'wool', 'jute', 'bamboo'];
const PLACES = ['Kenya', 'Ghana', 'Peru', 'India', 'Vietnam', 'Morocco', 'Mexico', 'Nepal'];
const CATEGORIES = ['Beads', 'Stools', 'Bowls', 'Fans', 'Totebags', 'Home Decor'];
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function csvOf(n: number, seed: number): string {
  const rows = ['Name,Description,Category,Material,Origin,Retail Price,Import Cost'];
  for (let i = 0; i < n; i++) {
    const w = WORDS[(i * 7 + seed) % WORDS.length]!;
    const c = CATEGORIES[(i + seed) % CATEGORIES.length]!;
    const p = PLACES[(i * 5 + seed) % PLACES.length]!;
    rows.push(
      `Item ${seed}-${i} ${w},"Handmade ${w} piece number ${i}, ${c.toLowerCase()}",${c},${w},${p},${(5 + ((i * 37) % 500)).toFixed(2)},${(2 + ((i * 13) % 200)).toFixed(2)}`,
    );
  }
  return rows.join('\n');
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

const data = tempDataDir('kaboodle-inventory-bench-');
const app = await startKaboodleProcess({
  target: 'all',
  env: {
    KABOODLE_DATA_DIR: data.dir,
    DATABASE_URL: '',
    KAFKA_BROKERS: '',
    S3_ENDPOINT: '',
    ELASTICSEARCH_URL: '',
    API_RESPONSE_CHECK: 'off',
  },
});
const api = createCatalogueClient(() => app.url);
try {
  console.log(`load average ${os.loadavg()[0]!.toFixed(1)} on ${os.availableParallelism()} cores`);
  // ---- 10,000 items: import, then filter latency ---------------------------------------------
  const big = await api.register('bench-big');
  let t = performance.now();
  const imported = await api.request<{ imported: number }>('POST', '/api/inventory/import', big, {
    csv: csvOf(10_000, 1),
  });
  const importMs = performance.now() - t;
  if (imported.status !== 201)
    throw new Error(`import answered ${imported.status}: ${imported.text.slice(0, 200)}`);
  console.log(`import of 10,000 CSV rows (one request, all or none): ${(importMs / 1000).toFixed(1)} s`);

  const cases: [string, (i: number) => string][] = [
    ['list, page 1 (no filter)', () => '/api/inventory?page=1&limit=20'],
    [
      'text filter (a word in ~10%)',
      (i) => `/api/inventory/search?query=${WORDS[i % WORDS.length]}&page=1&limit=20`,
    ],
    [
      'text filter, rare (one item)',
      (i) => `/api/inventory/search?query=Item%201-${(i * 997) % 10_000}%20&page=1&limit=20`,
    ],
    [
      'category filter',
      (i) =>
        `/api/inventory/search?category=${encodeURIComponent(CATEGORIES[i % CATEGORIES.length]!)}&page=1&limit=20`,
    ],
    [
      'text + category, sorted by price',
      // the word and category of item i of the generated set, so the pair always has rows
      (i) =>
        `/api/inventory/search?query=${WORDS[(i * 7 + 1) % WORDS.length]}&category=${encodeURIComponent(CATEGORIES[(i + 1) % CATEGORIES.length]!)}&sort=retail_price&order=desc&page=1&limit=20`,
    ],
    [
      'text filter, page 40',
      (i) => `/api/inventory/search?query=${WORDS[i % WORDS.length]}&page=40&limit=20`,
    ],
  ];
  console.log(
    '\nTable filter latency on 10,000 items (GET, one at a time, 40 requests each after 5 warm-up):',
  );
  console.log('case                                   p50 ms   p95 ms   rows');
  for (const [name, path] of cases) {
    for (let i = 0; i < 5; i++) await api.request('GET', path(i), big);
    const ms: number[] = [];
    let rows = 0;
    for (let i = 0; i < 40; i++) {
      t = performance.now();
      const res = await api.request<unknown[]>('GET', path(i), big);
      ms.push(performance.now() - t);
      rows = Number(res.headers.get('x-total-count'));
    }
    console.log(
      `${name.padEnd(38)} ${pct(ms, 0.5).toFixed(1).padStart(6)} ${pct(ms, 0.95).toFixed(1).padStart(8)} ${String(rows).padStart(6)}`,
    );
  }

  // ---- 1,000 items, gallery first paint ---------------------------------------------------------
  if (!existsSync(CHROMIUM)) {
    console.log(`\n(gallery first paint skipped: ${CHROMIUM} is not installed)`);
  } else {
    const email = `gallery-${Date.now()}@example.com`;
    const password = 'a long enough passphrase';
    const reg = await api.request<{ token: string }>('POST', '/api/auth/register', undefined, {
      email,
      password,
      name: 'Gallery',
    });
    const token = reg.body.token;
    await api.request('POST', '/api/inventory/import', token, { csv: csvOf(980, 2) });
    const photos = await rephotographedItems(20, 0, 3);
    t = performance.now();
    const ids: string[] = [];
    for (const [i, p] of photos.entries())
      ids.push(
        await api.upload(
          token,
          { bytes: p.catalogue, name: `photo-${i}.jpg`, type: 'image/jpeg' },
          'inventory',
        ),
      );
    for (const id of ids) await api.settled(token, id, 600_000);
    console.log(`\n20 photos uploaded and processed: ${((performance.now() - t) / 1000).toFixed(1)} s`);

    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const runs: { fcp: number; cards: number; five: number; bytes: number }[] = [];
    for (let run = 0; run < 4; run++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.goto(app.url);
      await page.evaluate(
        async (c) =>
          fetch('/api/auth/login', {
            method: 'POST',
            credentials: 'include',
            headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
            body: JSON.stringify(c),
          }),
        { email, password },
      );
      let imageBytes = 0;
      page.on('response', (r) => {
        if (/\/api\/inventory\/[^/]+\/image/.test(r.url()))
          void r
            .body()
            .then((b) => (imageBytes += b.length))
            .catch(() => undefined);
      });
      const started = Date.now();
      await page.goto(`${app.url}/inventory?view=images`);
      await page.locator('.kb-inv-card').first().waitFor({ timeout: 60_000 });
      const cards = Date.now() - started;
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll<HTMLImageElement>('.kb-inv-card img')].filter(
            (i) => i.complete && i.naturalWidth > 0,
          ).length >= 5,
        undefined,
        { timeout: 60_000 },
      );
      const five = Date.now() - started;
      const fcp = await page.evaluate(
        () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
      );
      await page.waitForTimeout(1500);
      if (run > 0) runs.push({ fcp, cards, five, bytes: imageBytes }); // run 0 warms the server's thumbnails
      await context.close();
    }
    await browser.close();
    const originals = photos.reduce((n, p) => n + p.catalogue.length, 0);
    const mid = (k: 'fcp' | 'cards' | 'five' | 'bytes') =>
      pct(
        runs.map((r) => r[k]),
        0.5,
      );
    console.log(
      'Gallery first paint, 1,000 items (980 imported, 20 with photos), 1440×900, median of 3 warm loads:',
    );
    console.log(`  first contentful paint:            ${mid('fcp').toFixed(0)} ms`);
    console.log(`  first gallery card on screen:      ${mid('cards').toFixed(0)} ms after navigation`);
    console.log(`  first batch (5) of pictures shown: ${mid('five').toFixed(0)} ms after navigation`);
    console.log(
      `  picture bytes on the wire:         ${(mid('bytes') / 1024).toFixed(0)} KiB (originals of the same 20: ${(originals / 1024).toFixed(0)} KiB)`,
    );
  }
} finally {
  await app.stop();
  data.remove();
}
