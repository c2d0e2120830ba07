// Search within a kaboodle over real HTTP, against `kaboodle --target=all` on embedded engines: the
// catalogue's kaboodle events reach the search index, POST /api/search keeps to a kaboodle's members
// (and a smart kaboodle's search), another user's kaboodle is a 404, and after the index folder is
// lost the rebuild on start brings memberships back with the entities.
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKaboodleProcess, tempDataDir } from '../support/kaboodle-process.ts';
import type { KaboodleProcess } from '../support/kaboodle-process.ts';
import { createCatalogueClient, solidPng } from './support/catalogue-client.ts';

interface Hit {
  type: string;
  id: string;
}
interface Kaboodle {
  id: string;
  smart: null | { query: string; kaboodle_id: string | null };
  members: { id: string }[];
}

describe('search within a kaboodle', () => {
  const data = tempDataDir('kaboodle-kaboodle-search-');
  const env = { KABOODLE_DATA_DIR: data.dir, DATABASE_URL: '', KAFKA_BROKERS: '', S3_ENDPOINT: '' };
  let app: KaboodleProcess;
  const api = createCatalogueClient(() => app.url);
  let alice: string;
  let bob: string;
  const word = `zk${randomUUID().slice(0, 6)}`; // only these texts contain it
  const docs: string[] = [];
  let item: string;
  let fair: string;

  async function uploadText(token: string, text: string, name: string): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([text], { type: 'text/plain' }), name);
    form.append('destination', 'document');
    const res = await fetch(new URL('/process', app.url), {
      method: 'POST',
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: `Bearer ${token}` },
      body: form,
    });
    expect(res.status).toBe(202);
    return ((await res.json()) as { id: string }).id;
  }

  const search = (token: string, body: Record<string, unknown>) =>
    api.request<{ results: Hit[]; message?: string }>('POST', '/api/search', token, {
      search_type: 'keyword',
      ...body,
    });
  const ids = (hits: Hit[]) => hits.map((h) => h.id).sort();

  /** The index follows the catalogue through events: wait for it to agree. */
  async function until(check: () => Promise<boolean>, what: string) {
    const end = Date.now() + 30_000;
    while (!(await check())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  beforeAll(async () => {
    app = await startKaboodleProcess({ target: 'all', env });
    [alice, bob] = await Promise.all([api.register('alice'), api.register('bob')]);
    for (const [i, text] of [
      `Walnut Cabinet Notes\n\nOiling a ${word} walnut cabinet, with photographs.`,
      `Walnut Harvest\n\nThe ${word} walnut harvest of the orchard, tree by tree.`,
      `Brass Fittings\n\nHinges and ${word} handles for a walnut chest.`,
    ].entries()) {
      docs.push(await uploadText(alice, text, `walnut-${i}.txt`));
    }
    item = await api.upload(
      alice,
      { bytes: solidPng(64, 64, [120, 80, 40]), name: 'walnut box.png', type: 'image/png' },
      'inventory',
    );
    for (const id of [...docs, item]) expect((await api.settled(alice, id)).status).toBe('completed');
    await until(
      async () => (await search(alice, { query: word })).body.results.length === 3,
      'the three documents to be searchable',
    );
  });
  afterAll(async () => {
    await app?.stop();
    data.remove();
  });

  it('keeps a search to the kaboodle’s members, in every search type, as soon as they are added', async () => {
    const created = await api.request<Kaboodle>('POST', '/api/kaboodles', alice, {
      name: 'Cabinet work',
      members: [
        { type: 'document', id: docs[0] },
        { type: 'inventory_item', id: item },
        { type: 'document', id: docs[2] },
      ],
    });
    expect(created.status).toBe(201);
    fair = created.body.id;
    await until(
      async () => (await search(alice, { query: word, kaboodle: fair })).status === 200,
      'the kaboodle',
    );
    for (const search_type of ['keyword', 'semantic', 'hybrid', 'vector']) {
      const res = await search(alice, { query: `${word} walnut`, kaboodle: fair, search_type });
      expect(res.status, search_type).toBe(200);
      expect(res.body.results.length, search_type).toBeGreaterThan(0);
      for (const hit of res.body.results) expect([docs[0], docs[2], item], search_type).toContain(hit.id);
      expect(ids(res.body.results), search_type).not.toContain(docs[1]);
    }
    const keyword = await search(alice, { query: word, kaboodle: fair });
    expect(ids(keyword.body.results)).toEqual([docs[0]!, docs[2]!].sort());

    // a member removed: the next search knows at once
    const removed = await api.request('POST', `/api/kaboodles/${fair}/members/remove`, alice, {
      members: [{ type: 'document', id: docs[2] }],
    });
    expect(removed.status).toBe(200);
    await until(
      async () => ids((await search(alice, { query: word, kaboodle: fair })).body.results).join() === docs[0],
      'the removal to reach search',
    );
  });

  it('answers another user’s kaboodle, a missing one and a deleted one with 404 "Kaboodle not found"', async () => {
    const theirs = await search(bob, { query: word, kaboodle: fair });
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toBe('Kaboodle not found');
    expect((await search(alice, { query: word, kaboodle: randomUUID() })).status).toBe(404);

    const brief = await api.request<Kaboodle>('POST', '/api/kaboodles', alice, { name: 'Brief' });
    await until(
      async () => (await search(alice, { query: word, kaboodle: brief.body.id })).status === 200,
      'it',
    );
    expect((await search(alice, { query: word, kaboodle: brief.body.id })).body.results).toEqual([]);
    expect((await api.request('DELETE', `/api/kaboodles/${brief.body.id}`, alice)).status).toBe(204);
    await until(
      async () => (await search(alice, { query: word, kaboodle: brief.body.id })).status === 404,
      'the deletion to reach search',
    );
  });

  it('a smart kaboodle can search within a kaboodle, and a search can keep to a smart kaboodle', async () => {
    const smart = await api.request<Kaboodle>('POST', '/api/kaboodles', alice, {
      name: 'Oiled things',
      smart: { query: `${word} oiling`, search_type: 'keyword', kaboodle_id: fair },
    });
    expect(smart.status).toBe(201);
    expect(smart.body.smart).toMatchObject({ kaboodle_id: fair });
    // of the documents about oiling, only the one in "Cabinet work"
    expect(smart.body.members.map((m) => m.id)).toEqual([docs[0]]);
    await until(
      async () => (await search(alice, { query: word, kaboodle: smart.body.id })).status === 200,
      'it',
    );
    expect(ids((await search(alice, { query: word, kaboodle: smart.body.id })).body.results)).toEqual([
      docs[0],
    ]);

    // only within a kaboodle of one's own, with its own members
    const withinSmart = await api.request<{ message: string }>('POST', '/api/kaboodles', alice, {
      name: 'Nested',
      smart: { query: word, kaboodle_id: smart.body.id },
    });
    expect(withinSmart.status).toBe(409);
    expect(withinSmart.body.message).toBe(
      'A smart kaboodle can only search within a kaboodle with its own members',
    );
    const withinTheirs = await api.request<{ message: string }>('POST', '/api/kaboodles', bob, {
      name: 'Sneaky',
      smart: { query: word, kaboodle_id: fair },
    });
    expect(withinTheirs.status).toBe(404);
    expect(withinTheirs.body.message).toBe('Kaboodle not found');
    const notAnId = await api.request<{ message: string }>('POST', '/api/kaboodles', alice, {
      name: 'Odd',
      smart: { query: word, kaboodle_id: 'fair' },
    });
    expect(notAnId.status).toBe(400);
    expect(notAnId.body.message).toBe('kaboodle_id must be a kaboodle id');
  });

  it('after the index folder is lost, the rebuild on start restores memberships with the entities', async () => {
    await app.stop();
    rmSync(path.join(data.dir, 'search'), { recursive: true, force: true });
    app = await startKaboodleProcess({ target: 'all', env });
    await until(
      async () => (await search(alice, { query: word, kaboodle: fair })).status === 200,
      'the rebuilt index to know the kaboodle',
    );
    await until(
      async () => ids((await search(alice, { query: word, kaboodle: fair })).body.results).join() === docs[0],
      'the rebuilt index to hold the members',
    );
    expect((await search(bob, { query: word, kaboodle: fair })).status).toBe(404);
  });
});
