// Search under overload, over real HTTP (API_RESPONSE_CHECK=strict): past SEARCH_MAX_CONCURRENT
// running and SEARCH_MAX_QUEUED waiting, a search is answered 503 with Retry-After at once while the
// others finish; a waiting request whose client went away frees its place and its search never runs.
// The stand-in embedder is held shut to keep searches running.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeDocument } from './testing/fixtures.ts';
import { ALICE, startSearchHarness } from './testing/search-module-harness.ts';
import type { SearchHarness } from './testing/search-module-harness.ts';

let h: SearchHarness;
let dir: string | undefined;
afterEach(async () => {
  await h?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
};
const hybrid = (query: string, signal?: AbortSignal) =>
  h.call<{ results: Array<{ id: string }> }>(
    'POST',
    '/api/search',
    ALICE,
    {
      query,
      search_type: 'hybrid',
    },
    undefined,
    signal,
  );

async function started(options: Parameters<typeof startSearchHarness>[0] = {}): Promise<void> {
  h = await startSearchHarness({ env: { SEARCH_MAX_CONCURRENT: '1', SEARCH_MAX_QUEUED: '1' }, ...options });
  const doc = makeDocument({ ownerId: 'alice', title: 'Workshop lease and boiler service' });
  await h.publish({ op: 'upsert', entity: doc });
  await expect.poll(async () => (await h.find(ALICE, 'lease')).body.results.length).toBe(1);
}

describe('search under overload', () => {
  it('answers 503 with Retry-After at once past the limit, while the admitted searches finish', async () => {
    await started();
    const g = gate();
    h.embedGate = g.opened;
    const running = hybrid('workshop lease');
    await expect.poll(() => h.search.admission.stats().running).toBe(1);
    const waiting = hybrid('boiler service');
    await expect.poll(() => h.search.admission.stats().waiting).toBe(1);

    const t = performance.now();
    const refused = await hybrid('anything else');
    expect(performance.now() - t).toBeLessThan(1000);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body).toMatchObject({
      message: 'Too many searches are running; try again shortly.',
      code: 'SearchBusyError',
    });

    g.open();
    const [a, b] = await Promise.all([running, waiting]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.results).toHaveLength(1);
    expect(h.search.admission.stats()).toMatchObject({ running: 0, waiting: 0, refused: 1 });
    // and the next search is admitted again
    expect((await hybrid('lease again')).status).toBe(200);
  });

  it('frees the place of a waiting request whose client went away, without running its search', async () => {
    await started();
    const g = gate();
    h.embedGate = g.opened;
    const running = hybrid('workshop lease');
    await expect.poll(() => h.search.admission.stats().running).toBe(1);
    const client = new AbortController();
    const gone = hybrid('a question nobody waits for', client.signal).catch((err: unknown) => err);
    await expect.poll(() => h.search.admission.stats().waiting).toBe(1);
    client.abort();
    expect(await gone).toBeInstanceOf(Error);
    await expect.poll(() => h.search.admission.stats()).toMatchObject({ waiting: 0, abandoned: 1 });

    const next = hybrid('boiler service');
    await expect.poll(() => h.search.admission.stats().waiting).toBe(1);
    g.open();
    expect((await running).status).toBe(200);
    expect((await next).status).toBe(200);
    expect(h.embedded).toContain('boiler service');
    expect(h.embedded).not.toContain('a question nobody waits for');
  });

  it('holds searches by photo to the same bound as text searches', async () => {
    dir = await mkdtemp(join(tmpdir(), 'kaboodle-overload-'));
    await started({
      dataDir: dir,
      imageModel: 'photo-model-a',
      env: { SEARCH_MAX_CONCURRENT: '1', SEARCH_MAX_QUEUED: '0' },
    });
    const byPhoto = async () => {
      const res = await fetch(`${h.base}/api/search/by-photo`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${ALICE}`,
          'content-type': 'image/png',
          'x-requested-with': 'XMLHttpRequest',
        },
        body: Buffer.from('the bytes of a photo'),
      });
      return {
        status: res.status,
        body: (await res.json()) as Record<string, unknown>,
        headers: res.headers,
      };
    };
    // the photo index opens in the background: searches by photo answer once it has
    await expect.poll(async () => (await byPhoto()).status, { timeout: 10_000 }).toBe(200);

    const g = gate();
    h.embedGate = g.opened;
    const running = hybrid('workshop lease');
    await expect.poll(() => h.search.admission.stats().running).toBe(1);

    const photo = await byPhoto();
    expect(photo.status).toBe(503);
    expect(photo.headers.get('retry-after')).toBe('1');
    expect(photo.body).toMatchObject({ message: 'Too many searches are running; try again shortly.' });
    const neighbours = await h.call('GET', '/api/search/image-neighbours?id=item-1', ALICE);
    expect(neighbours.status).toBe(503);
    expect(neighbours.body).toMatchObject({ code: 'SearchBusyError' });
    expect(h.search.admission.stats().refused).toBe(2);

    g.open();
    expect((await running).status).toBe(200);
    expect((await byPhoto()).status).toBe(200);
  });
});
