// The catalogue API over real HTTP against `kaboodle --target=all`: upload → processing → file.processed
// → stored document / inventory item → every /api/documents*, /api/inventory*, /api/stats and
// /api/activity route, their error texts, sorting, paging, export quoting, edits, deletes, and that a
// second user with identical content never sees the first user's data through any of them.
// Shared by catalogue.api.test.ts (embedded engines) and catalogue-postgres.api.test.ts (DATABASE_URL).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKaboodleProcess, tempDataDir } from '../../support/kaboodle-process.ts';
import type { KaboodleProcess } from '../../support/kaboodle-process.ts';
import { createAuthClient } from './auth-client.ts';
import { createCatalogueClient, solidPng } from './catalogue-client.ts';

interface Doc {
  id: string;
  title: string;
  author: string;
  category: string;
  publication_year: number | null;
  hashtags: { tag: string; relevancy: number }[];
  influenced_by: string[];
  corrected_fields: string[];
  version: number;
  url: string;
  source_file_id: string;
  file_name: string;
  status: string;
  indexed: boolean;
  text?: string;
  provenance?: Record<string, { source: string; confidence: number }>;
}
interface Item {
  id: string;
  name: string;
  category: string;
  image_url: string;
  retail_price: number | null;
  corrected_fields: string[];
  version: number;
}
interface ErrorBody {
  message: string;
  code: string;
}

export function defineCatalogueSuite(mode: { name: string; env: Record<string, string> }): void {
  describe(`catalogue API (${mode.name})`, () => {
    const data = tempDataDir('kaboodle-catalogue-');
    let app: KaboodleProcess;
    const api = createCatalogueClient(() => app.url);
    let alice: string;
    let bob: string;
    const tag = randomUUID().slice(0, 8);
    /** alice's three documents, bob's twin of the first, alice's inventory item. */
    let docs: string[] = [];
    let bobDoc: string;
    let item: string;
    const texts = [
      `Ledger of the Bead Cooperative ${tag}\nby Ines Duarte\n\nA record of glass beads traded along the coast in 2024, with prices and routes.`,
      `Notes on Stool Joinery ${tag}\nby Kwame Mensah\n\nMortise and tenon joints for three-legged stools, tested for load over a year.`,
      `Fan Weaving Patterns ${tag}\nby Ana Ruiz\n\nPalm-leaf fans woven in twill and plain patterns; how the weave changes airflow.`,
    ];

    beforeAll(async () => {
      app = await startKaboodleProcess({ target: 'all', env: { KABOODLE_DATA_DIR: data.dir, ...mode.env } });
      [alice, bob] = await Promise.all([api.register('alice'), api.register('bob')]);
      docs = [];
      for (const [i, t] of texts.entries()) {
        docs.push(
          await api.upload(
            alice,
            { bytes: Buffer.from(t), name: `note-${i}.txt`, type: 'text/plain' },
            'document',
          ),
        );
      }
      bobDoc = await api.upload(
        bob,
        { bytes: Buffer.from(texts[0]!), name: 'note-0.txt', type: 'text/plain' },
        'document',
      );
      item = await api.upload(
        alice,
        { bytes: solidPng(96, 96, [20, 40, 200]), name: 'blue bowl.png', type: 'image/png' },
        'inventory',
      );
      for (const id of [...docs, item]) expect((await api.settled(alice, id)).status).toBe('completed');
      expect((await api.settled(bob, bobDoc)).status).toBe('completed');
    });
    afterAll(async () => {
      await app?.stop();
      data.remove();
    });

    const get = <T>(token: string, path: string) => api.request<T>('GET', path, token);

    describe('after processing', () => {
      it('the file reports completed with a link to the document it became', async () => {
        const s = (await api.settled(alice, docs[0]!)) as {
          result?: { type: string; id: string; url: string };
        };
        expect(s.result).toEqual({ type: 'document', id: docs[0], url: `/documents?open=${docs[0]}` });
        const i = (await api.settled(alice, item)) as { result?: { type: string; id: string } };
        expect(i.result).toMatchObject({ type: 'inventory_item', id: item });
      });

      it('lists the owner documents with X-Total-Count, id = source file id, every spec field', async () => {
        const res = await get<Doc[]>(alice, '/api/documents');
        expect(res.status).toBe(200);
        expect(res.headers.get('x-total-count')).toBe('3');
        expect(res.body.map((d) => d.id).sort()).toEqual([...docs].sort());
        for (const d of res.body) {
          expect(d.source_file_id).toBe(d.id);
          expect(d).toMatchObject({ status: 'processed', indexed: true, url: `/api/documents/${d.id}/file` });
          for (const k of [
            'title',
            'author',
            'category',
            'field',
            'publication_year',
            'summary',
            'thesis',
            'issue',
            'journal_publisher',
            'influenced_by',
            'hashtags',
          ]) {
            expect(d).toHaveProperty(k);
          }
          expect(d).not.toHaveProperty('text');
        }
      });

      it('GET /api/documents/:id gives the detail: extracted text and provenance', async () => {
        const res = await get<Doc>(alice, `/api/documents/${docs[1]}`);
        expect(res.status).toBe(200);
        expect(res.body.text).toContain('Mortise and tenon');
        expect(res.body.provenance).toBeTypeOf('object');
        expect(res.body.file_name).toBe('note-1.txt');
      });

      it('streams the original file as an attachment with a safe Content-Disposition', async () => {
        const res = await get(alice, `/api/documents/${docs[0]}/file`);
        expect(res.status).toBe(200);
        expect(res.text).toBe(texts[0]);
        expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
        expect(res.headers.get('content-disposition')).toBe('attachment; filename=note-0.txt');
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      });
    });

    describe('editing', () => {
      it('PATCH records corrections, bumps the version and answers the detail', async () => {
        const before = (await get<Doc>(alice, `/api/documents/${docs[0]}`)).body;
        const res = await api.request<Doc>('PATCH', `/api/documents/${docs[0]}`, alice, {
          title: 'alpha',
          author: 'Zed Author',
          category: 'Crafts',
          publication_year: 2001,
          hashtags: ['#Glass Beads', { tag: 'trade', relevancy: 0.4 }],
          influenced_by: ['Braudel', ' Braudel ', 'Mauss'],
        });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({
          title: 'alpha',
          category: 'Crafts',
          publication_year: 2001,
          hashtags: [
            { tag: 'glass-beads', relevancy: 1 },
            { tag: 'trade', relevancy: 0.4 },
          ],
          influenced_by: ['Braudel', 'Mauss'],
        });
        expect(res.body.corrected_fields.sort()).toEqual([
          'author',
          'category',
          'hashtags',
          'influenced_by',
          'publication_year',
          'title',
        ]);
        expect(res.body.version).toBeGreaterThan(before.version);
        expect(res.body.provenance!.title!.source).toBe('user');
        await api.request('PATCH', `/api/documents/${docs[1]}`, alice, {
          title: 'Beta',
          category: 'Crafts',
          publication_year: null,
        });
        await api.request('PATCH', `/api/documents/${docs[2]}`, alice, {
          title: 'gamma',
          author: 'Ana Ruiz',
          category: 'Textiles',
          publication_year: 1999,
        });
      });

      it('refuses bad edits with clear messages', async () => {
        const cases: [unknown, number, string][] = [
          [
            {},
            400,
            'Nothing to update: send at least one of title, author, category, field, publication_year, summary, thesis, issue, journal_publisher, influenced_by, hashtags',
          ],
          [
            { owner_id: 'x' },
            400,
            '"owner_id" cannot be edited; editable fields: title, author, category, field, publication_year, summary, thesis, issue, journal_publisher, influenced_by, hashtags',
          ],
          [{ title: '   ' }, 400, 'title must not be empty'],
          [{ title: 42 }, 400, 'title must be text'],
          [{ title: 'x'.repeat(501) }, 400, 'title is too long (max 500 characters)'],
          [{ publication_year: 'abc' }, 400, 'publication_year must be a whole year from 0 to 9999, or null'],
          [
            { publication_year: 1999.5 },
            400,
            'publication_year must be a whole year from 0 to 9999, or null',
          ],
          [{ hashtags: 'beads' }, 400, 'hashtags must be a list of tags or {tag, relevancy} objects'],
          [{ hashtags: [{ tag: 'ok', relevancy: 2 }] }, 400, 'A tag relevancy must be a number from 0 to 1'],
          [{ hashtags: ['!!!'] }, 400, '"!!!" is not a valid tag: it needs at least one letter or digit'],
          [{ influenced_by: 'Mauss' }, 400, 'influenced_by must be a list of up to 100 names'],
          [[1, 2], 400, 'Send the fields to change as a JSON object'],
          ['{"title":', 400, 'Invalid JSON in request body'],
        ];
        for (const [body, status, message] of cases) {
          const res = await api.request<ErrorBody>('PATCH', `/api/documents/${docs[0]}`, alice, body);
          expect({ body, status: res.status, message: res.body.message }).toEqual({ body, status, message });
        }
        expect((await get<Doc>(alice, `/api/documents/${docs[0]}`)).body.title).toBe('alpha');
      });

      it('takes control characters out of edits and filters (Postgres cannot store NUL): never a 500', async () => {
        const edited = await api.request<Doc>('PATCH', `/api/documents/${docs[2]}`, alice, {
          author: 'Ana\u0000 Ruiz\u0007',
          influenced_by: ['Mauss\u0000'],
        });
        expect([edited.status, edited.body.author, edited.body.influenced_by]).toEqual([
          200,
          'Ana Ruiz',
          ['Mauss'],
        ]);
        for (const q of ['category=%00', 'query=%00a', 'category=Textiles%00']) {
          const res = await get<Doc[]>(alice, `/api/documents?${q}`);
          expect({ q, status: res.status }).toEqual({ q, status: 200 });
        }
        const search = await get<Doc[]>(alice, '/api/documents/search?query=%00');
        expect([search.status, (search.body as unknown as ErrorBody).message]).toEqual([
          400,
          'Search query is required',
        ]);
      });
    });

    describe('listing', () => {
      it('sorts case-insensitively, asc by default for a chosen column, missing year as 0', async () => {
        const titles = async (q: string) =>
          (await get<Doc[]>(alice, `/api/documents?${q}`)).body.map((d) => d.title);
        expect(await titles('sort=title')).toEqual(['alpha', 'Beta', 'gamma']);
        expect(await titles('sort=title&order=desc')).toEqual(['gamma', 'Beta', 'alpha']);
        expect(await titles('sort=publication_year')).toEqual(['Beta', 'gamma', 'alpha']);
        // Beta keeps the author the AI found (or none): Ana Ruiz still sorts before Zed Author
        const byAuthor = await titles('sort=author');
        expect(byAuthor.at(-1)).toBe('alpha');
        expect(byAuthor.indexOf('gamma')).toBeLessThan(byAuthor.indexOf('alpha'));
        // created_at is when the catalogue stored each one (processing order), so check the order itself
        const created = (await get<Doc[]>(alice, '/api/documents?sort=created_at&order=asc')).body;
        const stamps = created.map((d) => Date.parse((d as Doc & { created_at: string }).created_at));
        expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
        const newest = (await get<Doc[]>(alice, '/api/documents')).body.map((d) => d.id);
        expect(newest).toEqual(created.map((d) => d.id).reverse());
      });

      it('pages within bounds and says what is wrong with bad numbers', async () => {
        const p2 = await get<Doc[]>(alice, '/api/documents?sort=title&limit=2&page=2');
        expect(p2.body.map((d) => d.title)).toEqual(['gamma']);
        expect(p2.headers.get('x-total-count')).toBe('3');
        const far = await get<Doc[]>(alice, '/api/documents?page=99');
        expect(far.status).toBe(200);
        expect(far.body).toEqual([]);
        expect(far.headers.get('x-total-count')).toBe('3');
        const bad: [string, string][] = [
          ['page=0', 'page must be a whole number of 1 or more'],
          ['page=-1', 'page must be a whole number of 1 or more'],
          ['page=1.5', 'page must be a whole number of 1 or more'],
          ['limit=0', 'limit must be a whole number from 1 to 100'],
          ['limit=101', 'limit must be a whole number from 1 to 100'],
          ['limit=abc', 'limit must be a whole number from 1 to 100'],
          ['limit=99999999999999999999', 'limit must be a whole number from 1 to 100'],
          ['page=1&page=2', 'page must be given once'],
          [
            'sort=summary',
            'sort must be one of title, author, category, field, publication_year, journal_publisher, created_at, updated_at',
          ],
          ['order=sideways', 'order must be asc or desc'],
          ['hashtag=%21%21', 'hashtag needs at least one letter or digit'],
        ];
        for (const [q, message] of bad) {
          const res = await get<ErrorBody>(alice, `/api/documents?${q}`);
          expect({ q, status: res.status, message: res.body.message }).toEqual({ q, status: 400, message });
        }
        expect((await get<Doc[]>(alice, '/api/documents?limit=100')).body).toHaveLength(3);
      });

      it('filters by exact category and by hashtag, and counts categories', async () => {
        const crafts = await get<Doc[]>(alice, '/api/documents?category=Crafts&sort=title');
        expect(crafts.body.map((d) => d.title)).toEqual(['alpha', 'Beta']);
        expect(crafts.headers.get('x-total-count')).toBe('2');
        expect((await get<Doc[]>(alice, '/api/documents?category=crafts')).body).toEqual([]);
        const tagged = await get<Doc[]>(alice, '/api/documents?hashtag=%23Glass-Beads');
        expect(tagged.body.map((d) => d.title)).toEqual(['alpha']);
        const cats = await get<{ categories: { name: string; count: number }[] }>(
          alice,
          '/api/documents/categories',
        );
        expect(cats.body.categories).toEqual([
          { name: 'Crafts', count: 2 },
          { name: 'Textiles', count: 1 },
        ]);
      });

      it('keyword search: case-insensitive substring of any field, trimmed, with limits', async () => {
        const hit = await get<Doc[]>(
          alice,
          `/api/documents/search?query=${encodeURIComponent('  ZED auth ')}`,
        );
        expect(hit.status).toBe(200);
        expect(hit.body.map((d) => d.title)).toEqual(['alpha']);
        expect(hit.headers.get('x-total-count')).toBe('1');
        expect(
          (await get<Doc[]>(alice, '/api/documents/search?query=glass-beads')).body.map((d) => d.title),
        ).toEqual(['alpha']);
        expect(
          (await get<Doc[]>(alice, '/api/documents/search?query=CRAFTS&sort=title')).body.map((d) => d.title),
        ).toEqual(['alpha', 'Beta']);
        expect((await get<Doc[]>(alice, '/api/documents/search?query=zed&category=Textiles')).body).toEqual(
          [],
        );
        // SQL and LIKE metacharacters are text, not syntax
        for (const q of ["%' OR 1=1 --", '_', '%', '\\']) {
          const res = await get<Doc[]>(alice, `/api/documents/search?query=${encodeURIComponent(q)}`);
          expect({ q, status: res.status, n: res.body.length }).toEqual({ q, status: 200, n: 0 });
        }
        const missing = await get<ErrorBody>(alice, '/api/documents/search?query=%20%20');
        expect([missing.status, missing.body.message]).toEqual([400, 'Search query is required']);
        const long = await get<ErrorBody>(alice, `/api/documents/search?query=${'a'.repeat(501)}`);
        expect([long.status, long.body.message]).toEqual([
          400,
          'Search query is too long (max 500 characters)',
        ]);
      });
    });

    describe('export', () => {
      const tricky = '=HYPERLINK("http://evil"), a "quoted" word\nand a second line';

      it('streams CSV with RFC 4180 quoting, the formula guard and a dated file name', async () => {
        await api.request('PATCH', `/api/documents/${docs[2]}`, alice, {
          title: tricky,
          summary: '-1+2',
          thesis: '@SUM(A1)',
        });
        const res = await get(alice, '/api/documents/export?format=csv&sort=publication_year');
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
        const date = new Date().toISOString().slice(0, 10);
        expect(res.headers.get('content-disposition')).toBe(
          `attachment; filename=kaboodle-documents-${date}.csv`,
        );
        expect(res.text.charCodeAt(0)).not.toBe(0xfeff);
        const lines = res.text.split('\r\n');
        expect(lines[0]).toBe(
          'id,title,author,category,field,publication_year,summary,thesis,issue,journal_publisher,influenced_by,hashtags,file_name,created_at,updated_at',
        );
        expect(res.text.endsWith('\r\n')).toBe(true);
        // missing year first (0), then 1999 (the tricky one), then 2001
        const rows = parseCsv(res.text);
        expect(rows).toHaveLength(4);
        expect(rows.slice(1).map((r) => r[0])).toEqual([docs[1], docs[2], docs[0]]);
        const t = rows[2]!;
        expect(t[1]).toBe(`'${tricky}`);
        expect(t[6]).toBe("'-1+2");
        expect(t[7]).toBe("'@SUM(A1)");
        expect(t[5]).toBe('1999');
        expect(res.text).toContain(`"'=HYPERLINK(""http://evil""), a ""quoted"" word\nand a second line"`);
        expect(rows[3]![10]).toBe('Braudel; Mauss');
        expect(rows[3]![11]).toBe('glass-beads; trade');
      });

      it('adds the UTF-8 BOM on request, exports JSON, applies the filters, and refuses bad options', async () => {
        const bom = await get(alice, '/api/documents/export?format=csv&bom=1&category=Textiles');
        expect([...bom.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
        expect(parseCsv(bom.text.slice(1))).toHaveLength(2);
        const json = await get<Doc[]>(
          alice,
          `/api/documents/export?format=json&query=${encodeURIComponent('zed author')}`,
        );
        expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
        expect(json.headers.get('content-disposition')).toMatch(
          /^attachment; filename=kaboodle-documents-\d{4}-\d{2}-\d{2}\.json$/,
        );
        expect(JSON.parse(json.text).map((d: Doc) => d.title)).toEqual(['alpha']);
        const none = await get(alice, '/api/documents/export?format=json&category=Nothing');
        expect(JSON.parse(none.text)).toEqual([]);
        const badFormat = await get<ErrorBody>(alice, '/api/documents/export?format=xlsx');
        expect([badFormat.status, badFormat.body.message]).toEqual([400, 'format must be csv or json']);
        const badBom = await get<ErrorBody>(alice, '/api/documents/export?bom=yes');
        expect([badBom.status, badBom.body.message]).toEqual([400, 'bom must be 1 or 0']);
      });
    });

    describe('inventory', () => {
      it('lists, searches, reads and corrects the item made from a photo, and serves the photo inline', async () => {
        const list = await get<Item[]>(alice, '/api/inventory');
        expect(list.headers.get('x-total-count')).toBe('1');
        expect(list.body[0]).toMatchObject({ id: item, image_url: `/api/inventory/${item}/image` });
        const patched = await api.request<Item>('PATCH', `/api/inventory/${item}`, alice, {
          name: 'Cobalt Bowl',
          category: 'Bowls',
          material: 'stoneware',
          retail_price: 24.5,
        });
        expect(patched.status).toBe(200);
        expect(patched.body).toMatchObject({ name: 'Cobalt Bowl', retail_price: 24.5 });
        expect(patched.body.corrected_fields.sort()).toEqual([
          'category',
          'material',
          'name',
          'retail_price',
        ]);
        expect(
          (await get<Item[]>(alice, '/api/inventory/search?query=STONEWARE')).body.map((i) => i.id),
        ).toEqual([item]);
        expect(
          (await get<Item[]>(alice, '/api/inventory/search?category=Bowls')).body.map((i) => i.id),
        ).toEqual([item]);
        expect(
          (await get<Item[]>(alice, '/api/inventory/search?query=stoneware&category=Fans')).body,
        ).toEqual([]);
        const bad = await api.request<ErrorBody>('PATCH', `/api/inventory/${item}`, alice, {
          retail_price: -3,
        });
        expect([bad.status, bad.body.message]).toEqual([
          400,
          'retail_price must be an amount from 0 to 1000000000, or null',
        ]);
        const detail = await get<Item>(alice, `/api/inventory/${item}`);
        expect(detail.body.name).toBe('Cobalt Bowl');
        const img = await get(alice, `/api/inventory/${item}/image`);
        expect(img.status).toBe(200);
        expect(img.headers.get('content-type')).toBe('image/png');
        expect(img.headers.get('content-disposition')).toMatch(/^inline; filename="blue bowl.png"$/);
        expect(img.headers.get('x-content-type-options')).toBe('nosniff');
        expect(img.bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
      });
    });

    describe('stats and activity', () => {
      it('counts the user files, documents, items and stored bytes', async () => {
        const res = await get<Record<string, number | null>>(alice, '/api/stats');
        expect(res.body).toMatchObject({
          documents_processed: 3,
          inventory_items: 1,
          files_completed: 4,
          files_failed: 0,
          files_total: 4,
          processing_efficiency: 1,
        });
        expect(res.body.storage_bytes).toBe(
          texts.reduce((n, t) => n + Buffer.byteLength(t), 0) + solidPng(96, 96, [20, 40, 200]).length,
        );
      });

      it('lists recent activity newest first, limited', async () => {
        const res = await get<{
          activity: { type: string; message: string; file_name: string; at: string }[];
        }>(alice, '/api/activity?limit=50');
        const types = res.body.activity.map((a) => a.type);
        expect(types.filter((t) => t === 'uploaded')).toHaveLength(4);
        expect(types.filter((t) => t === 'processed')).toHaveLength(4);
        expect(types).toContain('edited');
        const at = res.body.activity.map((a) => Date.parse(a.at));
        expect([...at].sort((a, b) => b - a)).toEqual(at);
        expect(
          (await get<{ activity: unknown[] }>(alice, '/api/activity?limit=2')).body.activity,
        ).toHaveLength(2);
        const bad = await get<ErrorBody>(alice, '/api/activity?limit=500');
        expect([bad.status, bad.body.message]).toEqual([400, 'limit must be a whole number from 1 to 100']);
      });
    });

    describe('isolation: bob, with identical content, never sees alice', () => {
      it('bob has his own document from the same bytes, and only his', async () => {
        const list = await get<Doc[]>(bob, '/api/documents');
        expect(list.body.map((d) => d.id)).toEqual([bobDoc]);
        expect(list.headers.get('x-total-count')).toBe('1');
        expect(bobDoc).not.toBe(docs[0]);
      });

      it('answers 404 for every route on alice ids, and changes nothing', async () => {
        const notFound: [string, string, unknown?][] = [];
        for (const id of docs) {
          notFound.push(
            ['GET', `/api/documents/${id}`],
            ['PATCH', `/api/documents/${id}`, { title: 'mine now' }],
            ['PATCH', `/api/documents/${id}`, { bogus: 1 }],
            ['DELETE', `/api/documents/${id}`],
            ['GET', `/api/documents/${id}/file`],
          );
        }
        notFound.push(
          ['GET', `/api/inventory/${item}`],
          ['PATCH', `/api/inventory/${item}`, { name: 'mine' }],
          ['GET', `/api/inventory/${item}/image`],
        );
        for (const [method, path, body] of notFound) {
          const res = await api.request<ErrorBody>(method, path, bob, body);
          expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
          expect(res.body.message).toMatch(/^(Document|Inventory item) not found$/);
        }
        const after = await get<Doc[]>(alice, '/api/documents');
        expect(after.body).toHaveLength(3);
        expect(after.body.map((d) => d.title)).not.toContain('mine now');
      });

      it('gives bob nothing of alice in lists, search, categories, export, stats and activity', async () => {
        expect((await get<Doc[]>(bob, '/api/documents/search?query=zed%20author')).body).toEqual([]);
        expect((await get<Doc[]>(bob, '/api/documents?category=Crafts')).body).toEqual([]);
        expect((await get<Doc[]>(bob, '/api/documents?hashtag=glass-beads')).body).toEqual([]);
        const cats = (await get<{ categories: { name: string }[] }>(bob, '/api/documents/categories')).body
          .categories;
        expect(cats.map((c) => c.name)).not.toContain('Crafts');
        const csv = await get(bob, '/api/documents/export?format=csv');
        expect(
          parseCsv(csv.text)
            .slice(1)
            .map((r) => r[0]),
        ).toEqual([bobDoc]);
        const json = await get(bob, `/api/documents/export?format=json&query=${tag}`);
        expect(JSON.parse(json.text).map((d: Doc) => d.id)).toEqual([bobDoc]);
        expect((await get<Item[]>(bob, '/api/inventory')).body).toEqual([]);
        expect((await get<Item[]>(bob, '/api/inventory/search?query=cobalt')).body).toEqual([]);
        expect((await get<Record<string, unknown>>(bob, '/api/stats')).body).toMatchObject({
          documents_processed: 1,
          inventory_items: 0,
          files_total: 1,
        });
        const activity = (await get<{ activity: { file_id: string }[] }>(bob, '/api/activity')).body.activity;
        expect(activity.every((a) => a.file_id === bobDoc)).toBe(true);
      });

      it('requires a signed-in user on every route', async () => {
        for (const path of [
          '/api/documents',
          '/api/documents/search?query=a',
          '/api/documents/categories',
          '/api/documents/export',
          `/api/documents/${docs[0]}`,
          `/api/documents/${docs[0]}/file`,
          '/api/inventory',
          `/api/inventory/${item}/image`,
          '/api/stats',
          '/api/activity',
        ]) {
          const res = await api.request<ErrorBody>('GET', path, undefined);
          expect({ path, status: res.status }).toEqual({ path, status: 401 });
        }
      });

      it('serves a browser session (cookie) and refuses its edits without the CSRF token', async () => {
        const browser = createAuthClient(app.url);
        const email = `browser-${randomUUID()}@example.com`;
        const reg = await browser.request('POST', '/api/auth/register', {
          body: { email, password: 'a long enough passphrase', name: 'Browser' },
        });
        expect(reg.status).toBe(201);
        const list = await browser.request<unknown[]>('GET', '/api/documents');
        expect([list.status, list.body]).toEqual([200, []]);
        const forged = await browser.request<ErrorBody>('PATCH', `/api/documents/${docs[0]}`, {
          body: { title: 'x' },
          csrf: false,
        });
        expect(forged.status).toBe(403);
        // with the token, another user's document is still just missing
        const withToken = await browser.request<ErrorBody>('PATCH', `/api/documents/${docs[0]}`, {
          body: { title: 'x' },
        });
        expect(withToken.status).toBe(404);
      });

      it('treats malformed ids as missing', async () => {
        for (const id of ['not-a-uuid', "1' OR '1'='1", '00000000-0000-0000-0000-000000000000']) {
          const res = await get<ErrorBody>(alice, `/api/documents/${encodeURIComponent(id)}`);
          expect([res.status, res.body.message]).toEqual([404, 'Document not found']);
        }
      });
    });

    describe('reprocess and delete', () => {
      it('a reprocessed file replaces its document in place and keeps the user corrections', async () => {
        const before = (await get<Doc>(alice, `/api/documents/${docs[0]}`)).body;
        const re = await api.request<{ status: string }>(
          'POST',
          `/process/files/${docs[0]}/reprocess`,
          alice,
          {},
        );
        expect(re.status).toBe(202);
        await expect
          .poll(async () => (await get<Doc>(alice, `/api/documents/${docs[0]}`)).body.version, {
            timeout: 90_000,
            interval: 300,
          })
          .toBeGreaterThan(before.version);
        const after = (await get<Doc>(alice, `/api/documents/${docs[0]}`)).body;
        expect(after).toMatchObject({
          id: docs[0],
          title: 'alpha',
          author: 'Zed Author',
          publication_year: 2001,
        });
        expect((await get<Doc[]>(alice, '/api/documents')).headers.get('x-total-count')).toBe('3');
      });

      it('DELETE /api/documents/:id removes the document only (204), then 404', async () => {
        const del = await api.request('DELETE', `/api/documents/${docs[1]}`, alice);
        expect(del.status).toBe(204);
        expect((await get(alice, `/api/documents/${docs[1]}`)).status).toBe(404);
        expect((await api.request('DELETE', `/api/documents/${docs[1]}`, alice)).status).toBe(404);
        expect((await get(alice, `/process/status/${docs[1]}`)).status).toBe(200);
        const last = (
          await get<{ activity: { type: string; message: string }[] }>(alice, '/api/activity?limit=1')
        ).body.activity[0];
        expect(last).toMatchObject({ type: 'deleted', message: 'Deleted the document "Beta"' });
      });

      it('deleting the uploaded file deletes the document made from it and its storage from the stats', async () => {
        const before = (await get<{ storage_bytes: number; files_total: number }>(alice, '/api/stats')).body;
        const del = await api.request('DELETE', `/process/files/${docs[2]}`, alice);
        expect(del.status).toBe(200);
        await expect
          .poll(async () => (await get(alice, `/api/documents/${docs[2]}`)).status, { timeout: 30_000 })
          .toBe(404);
        await expect
          .poll(async () => (await get<{ files_total: number }>(alice, '/api/stats')).body.files_total, {
            timeout: 30_000,
          })
          .toBe(before.files_total - 1);
        const stats = (await get<{ storage_bytes: number }>(alice, '/api/stats')).body;
        expect(stats.storage_bytes).toBe(before.storage_bytes - Buffer.byteLength(texts[2]!));
      });
    });
  });
}

/** RFC 4180 reader for the checks (quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell !== '' || row.length) rows.push([...row, cell]);
  return rows;
}
