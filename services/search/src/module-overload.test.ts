// Search under overload, over real HTTP (API_RESPONSE_CHECK=strict): past SEARCH_MAX_CONCURRENT
// running and SEARCH_MAX_QUEUED waiting, a search is answered 503 with Retry-After at once while the
// others finish; a waiting request whose client went away frees its place and its search never runs.
// The stand-in embedder is held shut to keep searches running.
import { afterEach, describe, expect, it } from 'vitest';
import { makeDocument } from './testing/fixtures.ts';
import { ALICE, startSearchHarness } from './testing/search-module-harness.ts';
import type { SearchHarness } from './testing/search-module-harness.ts';

let h: SearchHarness;
afterEach(async () => {
  await h?.stop();
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

async function started(): Promise<void> {
  h = await startSearchHarness({ env: { SEARCH_MAX_CONCURRENT: '1', SEARCH_MAX_QUEUED: '1' } });
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
});
