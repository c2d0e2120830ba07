// The inventory over real HTTP against `kaboodle --target=all`: photos uploaded → items listed,
// sorted, paged and filtered; the detail with objects, colours and the photo's vector model;
// thumbnails at gallery size with caching headers; corrections kept across a reprocess; find by
// photo and image neighbours; bulk actions and deletes — and a second user who never reaches any
// of it, plus bad input answered with the field and the rule.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rephotographedItems } from '../../services/processing/src/vision/test-fixtures/rephotographed-items.ts';
import type { EvalItem } from '../../services/processing/src/vision/test-fixtures/rephotographed-items.ts';
import { startKaboodleProcess, tempDataDir } from '../support/kaboodle-process.ts';
import type { KaboodleProcess } from '../support/kaboodle-process.ts';
import { createCatalogueClient } from './support/catalogue-client.ts';

interface Item {
  id: string;
  name: string;
  category: string;
  material: string;
  retail_price: number | null;
  image_url: string | null;
  thumbnail_url: string | null;
  corrected_fields: string[];
  objects: { label: string; score: number; box?: { width: number } }[];
  colors: { name: string; hex: string }[];
  source_file_id: string | null;
}
interface Detail extends Item {
  image_width: number;
  image_height: number;
  image_model: string;
  provenance: Record<string, { source: string; confidence: number }>;
}
interface Hit {
  id: string;
  type: string;
  name: string;
  score: number;
  image_url: string;
}
interface ErrorBody {
  message: string;
}

describe('inventory API', () => {
  const data = tempDataDir('kaboodle-inventory-');
  let app: KaboodleProcess;
  const api = createCatalogueClient(() => app.url);
  let alice: string;
  let bob: string;
  let photos: EvalItem[];
  /** alice's items from photos[0] and photos[1]; bob's from photos[2]. */
  let first: string;
  let second: string;
  let bobs: string;

  beforeAll(async () => {
    // embedded engines, stated: the api tier runs files side by side, and two products on CI's
    // shared Kafka and Postgres would take each other's events (the topology tier covers those)
    app = await startKaboodleProcess({
      target: 'all',
      env: { KABOODLE_DATA_DIR: data.dir, DATABASE_URL: '', KAFKA_BROKERS: '', S3_ENDPOINT: '' },
    });
    [alice, bob] = await Promise.all([api.register('alice'), api.register('bob')]);
    photos = await rephotographedItems(3, 1, 5);
    const up = (token: string, p: EvalItem, name: string) =>
      api.upload(token, { bytes: p.catalogue, name, type: 'image/jpeg' }, 'inventory');
    first = await up(alice, photos[0]!, 'first.jpg');
    second = await up(alice, photos[1]!, 'second.jpg');
    bobs = await up(bob, photos[2]!, 'bobs.jpg');
    for (const [token, id] of [
      [alice, first],
      [alice, second],
      [bob, bobs],
    ] as const)
      expect((await api.settled(token, id)).status).toBe('completed');
  }, 240_000);
  afterAll(async () => {
    await app?.stop();
    data.remove();
  });

  const get = <T>(token: string | undefined, path: string) => api.request<T>('GET', path, token);
  const patch = <T>(token: string, id: string, body: unknown) =>
    api.request<T>('PATCH', `/api/inventory/${id}`, token, body);

  async function findByPhoto(token: string | undefined, bytes: Buffer, type = 'image/jpeg') {
    const res = await fetch(new URL('/api/search/by-photo?limit=5', app.url), {
      method: 'POST',
      headers: {
        'x-requested-with': 'XMLHttpRequest',
        'content-type': type,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: new Uint8Array(bytes),
    });
    return {
      status: res.status,
      body: (await res.json()) as { results: Hit[]; model: string; message?: string },
    };
  }

  it('sorts by any column (prices as numbers), pages by the limit and counts in X-Total-Count', async () => {
    await patch(alice, first, { name: 'anchor bowl', retail_price: 9.5 });
    await patch(alice, second, { name: 'Zebra stool', retail_price: 120 });
    const byName = await get<Item[]>(alice, '/api/inventory?sort=name');
    expect(byName.headers.get('x-total-count')).toBe('2');
    expect(byName.body.map((i) => i.name)).toEqual(['anchor bowl', 'Zebra stool']);
    const desc = await get<Item[]>(alice, '/api/inventory?sort=name&order=desc');
    expect(desc.body.map((i) => i.name)).toEqual(['Zebra stool', 'anchor bowl']);
    const price = await get<Item[]>(alice, '/api/inventory?sort=retail_price&order=desc');
    expect(price.body.map((i) => i.retail_price)).toEqual([120, 9.5]);
    const page2 = await get<Item[]>(alice, '/api/inventory?sort=name&limit=1&page=2');
    expect(page2.body.map((i) => i.name)).toEqual(['Zebra stool']);
    expect(page2.headers.get('x-total-count')).toBe('2');
  });

  it('filters by text over name, description, material and origin, by category, and both', async () => {
    await patch(alice, first, { material: 'Stoneware', category: 'Bowls', origin_source: 'Kenya' });
    await patch(alice, second, { category: 'Stools' });
    const ids = async (q: string) =>
      (await get<Item[]>(alice, `/api/inventory/search?${q}`)).body.map((i) => i.id);
    expect(await ids('query=STONEWARE')).toEqual([first]);
    expect(await ids('query=kenya')).toEqual([first]);
    expect(await ids('category=Stools')).toEqual([second]);
    expect(await ids('query=stoneware&category=Stools')).toEqual([]);
    expect((await ids('query=')).sort()).toEqual([first, second].sort());
  });

  it('answers bad list input with the field and the rule', async () => {
    for (const [q, message] of [
      ['sort=bogus', /^sort must be one of name, description, category/],
      ['order=up', /^order must be asc or desc$/],
      ['limit=0', /^limit must be a whole number between 1 and 100$/],
      ['page=abc', /^page must be a whole number between 1 and 1000000$/],
      [`query=${'x'.repeat(501)}`, /^Search query is too long \(max 500 characters\)$/],
      ['query=a%00b', /^query must not contain NUL characters$/],
      ['category=%00', /^category must not contain NUL characters$/],
    ] as const) {
      const res = await get<ErrorBody>(alice, `/api/inventory?${q}`);
      expect({ q, status: res.status }).toEqual({ q, status: 400 });
      expect(res.body.message).toMatch(message);
    }
  });

  it('gives the detail: objects with scores, colours, the photo size and its vector model', async () => {
    const res = await get<Detail>(alice, `/api/inventory/${first}`);
    expect(res.status).toBe(200);
    expect(res.body.image_width).toBe(640);
    expect(res.body.image_height).toBe(640);
    expect(res.body.image_model).toBe('mobilenetv3-centernet-se8-hsv72-v1');
    expect(res.body.colors.length).toBeGreaterThan(0);
    expect(res.body.colors[0]!.hex).toMatch(/^#[0-9a-f]{6}$/i);
    expect(res.body.provenance.material).toMatchObject({ source: 'user', confidence: 1 });
    expect(res.body.source_file_id).toBe(first);
    for (const o of res.body.objects) expect(o.score).toBeGreaterThan(0);
  });

  it('serves the photo at gallery width, cached for a year, and answers 304 to a known ETag', async () => {
    const item = (await get<Item>(alice, `/api/inventory/${first}`)).body;
    expect(item.thumbnail_url).toMatch(new RegExp(`^/api/inventory/${first}/image\\?w=320&v=[0-9a-f]{16}$`));
    const thumb = await get(alice, item.thumbnail_url!);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    expect(thumb.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect((await sharp(thumb.bytes).metadata()).width).toBe(320);
    expect(thumb.bytes.length).toBeLessThan(photos[0]!.catalogue.length);
    const etag = thumb.headers.get('etag')!;
    const again = await fetch(new URL(item.thumbnail_url!, app.url), {
      headers: { authorization: `Bearer ${alice}`, 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    const stale = await get(alice, `/api/inventory/${first}/image?w=320&v=0000`);
    expect(stale.headers.get('cache-control')).toBe('private, no-cache');
    const bad = await get<ErrorBody>(alice, `/api/inventory/${first}/image?w=999`);
    expect([bad.status, bad.body.message]).toEqual([400, 'w must be one of 160, 320, 640, 1280']);
    const original = await get(alice, item.image_url!);
    expect(original.bytes.equals(photos[0]!.catalogue)).toBe(true);
  });

  it('refuses bad corrections with the product messages', async () => {
    for (const [body, message] of [
      [{ retail_price: -3 }, 'retail_price must be an amount from 0 to 1000000000, or null'],
      [{ bogus: 1 }, /^"bogus" cannot be edited; editable fields: name, description/],
      [{}, /^Nothing to update: send at least one of name/],
      [{ name: '   ' }, 'name must not be empty'],
      [{ currency: 'dollars' }, 'currency must be a three-letter code such as USD'],
      [[1, 2], 'Send the fields to change as a JSON object'],
    ] as const) {
      const res = await patch<ErrorBody>(alice, first, body);
      expect(res.status).toBe(400);
      if (typeof message === 'string') expect(res.body.message).toBe(message);
      else expect(res.body.message).toMatch(message);
    }
  });

  it('keeps corrections when the photo is processed again', async () => {
    await patch(alice, second, { name: 'Zebra stool', hashtags: ['#Striped Things', 'zebra'] });
    const re = await api.request('POST', `/process/files/${second}/reprocess`, alice, {});
    expect(re.status).toBe(202);
    expect((await api.settled(alice, second)).status).toBe('completed');
    const after = (await get<Item & { hashtags: { tag: string }[] }>(alice, `/api/inventory/${second}`)).body;
    expect(after.name).toBe('Zebra stool');
    expect(after.category).toBe('Stools');
    expect(after.hashtags.map((h) => h.tag)).toEqual(['striped-things', 'zebra']);
    expect(after.corrected_fields).toEqual(expect.arrayContaining(['name', 'category', 'hashtags']));
  });

  it('finds an item by a new photo of it, among the owner items only', async () => {
    const again = await findByPhoto(alice, photos[0]!.rephotos[0]!);
    expect(again.status).toBe(200);
    expect(again.body.model).toBe('mobilenetv3-centernet-se8-hsv72-v1');
    expect(again.body.results[0]).toMatchObject({ id: first, type: 'inventory_item', name: 'anchor bowl' });
    expect(again.body.results.map((h) => h.id).sort()).toEqual([first, second].sort());
    expect(again.body.results[0]!.score).toBeGreaterThan(again.body.results[1]!.score);
    // the way a browser sends it: the `photo` file of a form
    const form = new FormData();
    form.append(
      'photo',
      new Blob([new Uint8Array(photos[0]!.rephotos[0]!)], { type: 'image/jpeg' }),
      'q.jpg',
    );
    const viaForm = await fetch(new URL('/api/search/by-photo', app.url), {
      method: 'POST',
      headers: { 'x-requested-with': 'XMLHttpRequest', authorization: `Bearer ${alice}` },
      body: form,
    });
    expect(viaForm.status).toBe(200);
    expect(((await viaForm.json()) as { results: Hit[] }).results[0]!.id).toBe(first);
    // bob's photo of alice's item finds only bob's own item
    const bobSees = await findByPhoto(bob, photos[0]!.rephotos[0]!);
    expect(bobSees.body.results.map((h) => h.id)).toEqual([bobs]);
  });

  it('refuses what is not a usable photo', async () => {
    const text = await findByPhoto(alice, Buffer.from('not a picture at all'));
    expect(text.status).toBe(400);
    expect(text.body.message).toMatch(/not a JPEG or PNG picture/);
    const type = await findByPhoto(alice, photos[0]!.catalogue, 'application/pdf');
    expect([type.status, type.body.message]).toEqual([400, 'Unsupported file type: application/pdf']);
    const big = await findByPhoto(alice, Buffer.alloc(21 * 1024 * 1024, 1));
    expect([big.status, big.body.message]).toEqual([413, 'File size exceeds 20MB limit (21.00MB)']);
    expect((await findByPhoto(undefined, photos[0]!.catalogue)).status).toBe(401);
    // a form cut short inside a file that is not a photo: refused, and the server keeps answering
    const boundary = 'cut-short-form';
    const cut = await fetch(new URL('/api/search/by-photo', app.url), {
      method: 'POST',
      headers: {
        'x-requested-with': 'XMLHttpRequest',
        authorization: `Bearer ${alice}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body: `--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\nhello, this form never ends`,
    });
    expect(cut.status).toBe(400);
    expect((await findByPhoto(alice, photos[0]!.catalogue)).status).toBe(200);
  });

  it('lists the items whose photos look like one item, never itself, never to another user', async () => {
    const near = await get<{ results: Hit[] }>(alice, `/api/search/image-neighbours?id=${first}`);
    expect(near.status).toBe(200);
    expect(near.body.results.map((h) => h.id)).toEqual([second]);
    const foreign = await get<{ results: Hit[] }>(bob, `/api/search/image-neighbours?id=${first}`);
    expect(foreign.body.results).toEqual([]);
  });

  it('re-categorises a selection, and refuses one holding another user item without changing anything', async () => {
    const refused = await api.request<ErrorBody>('POST', '/api/inventory/bulk', alice, {
      action: 'categorise',
      ids: [first, bobs],
      category: 'Fans',
    });
    expect([refused.status, refused.body.message]).toEqual([404, 'Inventory item not found']);
    expect((await get<Item>(alice, `/api/inventory/${first}`)).body.category).toBe('Bowls');
    const done = await api.request<{ count: number }>('POST', '/api/inventory/bulk', alice, {
      action: 'categorise',
      ids: [first, second],
      category: 'Home Decor',
    });
    expect(done.status).toBe(200);
    expect(done.body.count).toBe(2);
    const listed = await get<Item[]>(alice, '/api/inventory/search?category=Home%20Decor');
    expect(listed.body).toHaveLength(2);
    for (const [body, message] of [
      [{ action: 'paint', ids: [first] }, 'action must be delete or categorise'],
      [{ action: 'delete', ids: [] }, 'Select at least one item'],
      [{ action: 'categorise', ids: [first], category: '' }, 'Choose a category'],
    ] as const) {
      const res = await api.request<ErrorBody>('POST', '/api/inventory/bulk', alice, body);
      expect([res.status, res.body.message]).toEqual([400, message]);
    }
  });

  it('answers 404 to another user for every item route, and 401 to nobody', async () => {
    for (const [method, path, body] of [
      ['GET', `/api/inventory/${first}`],
      ['PATCH', `/api/inventory/${first}`, { name: 'mine' }],
      ['DELETE', `/api/inventory/${first}`],
      ['GET', `/api/inventory/${first}/image`],
      ['GET', `/api/inventory/${first}/image?w=320`],
      ['POST', '/api/inventory/bulk', { action: 'delete', ids: [first] }],
      ['GET', '/api/inventory/00000000-0000-4000-8000-000000000000'],
      ['GET', '/api/inventory/not-a-uuid'],
    ] as const) {
      const res = await api.request<ErrorBody>(method, path, bob, body);
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
      expect(res.body.message).toBe('Inventory item not found');
    }
    expect((await get<Item[]>(bob, '/api/inventory')).body.map((i) => i.id)).toEqual([bobs]);
    for (const path of ['/api/inventory', '/api/inventory/export', `/api/inventory/${first}`]) {
      expect((await get(undefined, path)).status).toBe(401);
    }
    expect((await get<Item>(alice, `/api/inventory/${first}`)).body.name).toBe('anchor bowl');
  });

  it('deletes a selection and one item; the photos stay in the Media Hub, kaboodles lose them', async () => {
    const made = await api.request<{ id: string; members: { id: string }[] }>(
      'POST',
      '/api/kaboodles',
      alice,
      {
        name: 'Market stall',
        members: [
          { type: 'inventory_item', id: first },
          { type: 'inventory_item', id: second },
        ],
      },
    );
    expect(made.status).toBe(201);
    expect(made.body.members.map((m) => m.id).sort()).toEqual([first, second].sort());
    const del = await api.request('DELETE', `/api/inventory/${first}`, alice);
    expect(del.status).toBe(204);
    expect((await get(alice, `/api/inventory/${first}`)).status).toBe(404);
    expect((await get(alice, `/process/files/${first}/content`)).status).toBe(200);
    const bulk = await api.request<{ ids: string[] }>('POST', '/api/inventory/bulk', alice, {
      action: 'delete',
      ids: [second],
    });
    expect(bulk.body.ids).toEqual([second]);
    expect((await get<Item[]>(alice, '/api/inventory')).headers.get('x-total-count')).toBe('0');
    const kaboodle = await get<{ members: unknown[]; member_count: number; item_count: number }>(
      alice,
      `/api/kaboodles/${made.body.id}`,
    );
    expect(kaboodle.body).toMatchObject({ members: [], member_count: 0, item_count: 0 });
    // deleted items leave the photo search too
    await expect
      .poll(async () => (await findByPhoto(alice, photos[1]!.catalogue)).body.results.length, {
        timeout: 10_000,
      })
      .toBe(0);
  });
});
