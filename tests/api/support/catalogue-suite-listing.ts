// Catalogue API suite (catalogue-suite.ts), listing and export: sorting, paging, filters, their error
// texts, and CSV/JSON exports with their quoting.
import { describe, expect, it } from 'vitest';
import { parseCsv } from './catalogue-suite-state.ts';
import type { CatalogueSuite, Doc, ErrorBody } from './catalogue-suite-state.ts';

export function listingTests(s: CatalogueSuite): void {
  const { api, get } = s;

  describe('listing', () => {
    it('sorts case-insensitively, asc by default for a chosen column, missing year as 0', async () => {
      const titles = async (q: string) =>
        (await get<Doc[]>(s.alice, `/api/documents?${q}`)).body.map((d) => d.title);
      expect(await titles('sort=title')).toEqual(['alpha', 'Beta', 'gamma']);
      expect(await titles('sort=title&order=desc')).toEqual(['gamma', 'Beta', 'alpha']);
      expect(await titles('sort=publication_year')).toEqual(['Beta', 'gamma', 'alpha']);
      // Beta keeps the author the AI found (or none): Ana Ruiz still sorts before Zed Author
      const byAuthor = await titles('sort=author');
      expect(byAuthor.at(-1)).toBe('alpha');
      expect(byAuthor.indexOf('gamma')).toBeLessThan(byAuthor.indexOf('alpha'));
      // created_at is when the catalogue stored each one (processing order), so check the order itself
      const created = (await get<Doc[]>(s.alice, '/api/documents?sort=created_at&order=asc')).body;
      const stamps = created.map((d) => Date.parse((d as Doc & { created_at: string }).created_at));
      expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
      const newest = (await get<Doc[]>(s.alice, '/api/documents')).body.map((d) => d.id);
      expect(newest).toEqual(created.map((d) => d.id).reverse());
    });

    it('pages within bounds and says what is wrong with bad numbers', async () => {
      const p2 = await get<Doc[]>(s.alice, '/api/documents?sort=title&limit=2&page=2');
      expect(p2.body.map((d) => d.title)).toEqual(['gamma']);
      expect(p2.headers.get('x-total-count')).toBe('3');
      const far = await get<Doc[]>(s.alice, '/api/documents?page=99');
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
        const res = await get<ErrorBody>(s.alice, `/api/documents?${q}`);
        expect({ q, status: res.status, message: res.body.message }).toEqual({ q, status: 400, message });
      }
      expect((await get<Doc[]>(s.alice, '/api/documents?limit=100')).body).toHaveLength(3);
    });

    it('filters by exact category and by hashtag, and counts categories', async () => {
      const crafts = await get<Doc[]>(s.alice, '/api/documents?category=Crafts&sort=title');
      expect(crafts.body.map((d) => d.title)).toEqual(['alpha', 'Beta']);
      expect(crafts.headers.get('x-total-count')).toBe('2');
      expect((await get<Doc[]>(s.alice, '/api/documents?category=crafts')).body).toEqual([]);
      const tagged = await get<Doc[]>(s.alice, '/api/documents?hashtag=%23Glass-Beads');
      expect(tagged.body.map((d) => d.title)).toEqual(['alpha']);
      const cats = await get<{ categories: { name: string; count: number }[] }>(
        s.alice,
        '/api/documents/categories',
      );
      expect(cats.body.categories).toEqual([
        { name: 'Crafts', count: 2 },
        { name: 'Textiles', count: 1 },
      ]);
    });

    it('keyword search: case-insensitive substring of any field, trimmed, with limits', async () => {
      const hit = await get<Doc[]>(
        s.alice,
        `/api/documents/search?query=${encodeURIComponent('  ZED auth ')}`,
      );
      expect(hit.status).toBe(200);
      expect(hit.body.map((d) => d.title)).toEqual(['alpha']);
      expect(hit.headers.get('x-total-count')).toBe('1');
      expect(
        (await get<Doc[]>(s.alice, '/api/documents/search?query=glass-beads')).body.map((d) => d.title),
      ).toEqual(['alpha']);
      expect(
        (await get<Doc[]>(s.alice, '/api/documents/search?query=CRAFTS&sort=title')).body.map((d) => d.title),
      ).toEqual(['alpha', 'Beta']);
      expect((await get<Doc[]>(s.alice, '/api/documents/search?query=zed&category=Textiles')).body).toEqual(
        [],
      );
      // SQL and LIKE metacharacters are text, not syntax
      for (const q of ["%' OR 1=1 --", '_', '%', '\\']) {
        const res = await get<Doc[]>(s.alice, `/api/documents/search?query=${encodeURIComponent(q)}`);
        expect({ q, status: res.status, n: res.body.length }).toEqual({ q, status: 200, n: 0 });
      }
      const missing = await get<ErrorBody>(s.alice, '/api/documents/search?query=%20%20');
      expect([missing.status, missing.body.message]).toEqual([400, 'Search query is required']);
      const long = await get<ErrorBody>(s.alice, `/api/documents/search?query=${'a'.repeat(501)}`);
      expect([long.status, long.body.message]).toEqual([
        400,
        'Search query is too long (max 500 characters)',
      ]);
    });
  });

  describe('export', () => {
    const tricky = '=HYPERLINK("http://evil"), a "quoted" word\nand a second line';

    it('streams CSV with RFC 4180 quoting, the formula guard and a dated file name', async () => {
      await api.request('PATCH', `/api/documents/${s.docs[2]}`, s.alice, {
        title: tricky,
        summary: '-1+2',
        thesis: '@SUM(A1)',
      });
      const res = await get(s.alice, '/api/documents/export?format=csv&sort=publication_year');
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
      expect(rows.slice(1).map((r) => r[0])).toEqual([s.docs[1], s.docs[2], s.docs[0]]);
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
      const bom = await get(s.alice, '/api/documents/export?format=csv&bom=1&category=Textiles');
      expect([...bom.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(parseCsv(bom.text.slice(1))).toHaveLength(2);
      const json = await get<Doc[]>(
        s.alice,
        `/api/documents/export?format=json&query=${encodeURIComponent('zed author')}`,
      );
      expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(json.headers.get('content-disposition')).toMatch(
        /^attachment; filename=kaboodle-documents-\d{4}-\d{2}-\d{2}\.json$/,
      );
      expect(JSON.parse(json.text).map((d: Doc) => d.title)).toEqual(['alpha']);
      const none = await get(s.alice, '/api/documents/export?format=json&category=Nothing');
      expect(JSON.parse(none.text)).toEqual([]);
      const badFormat = await get<ErrorBody>(s.alice, '/api/documents/export?format=xlsx');
      expect([badFormat.status, badFormat.body.message]).toEqual([400, 'format must be csv or json']);
      const badBom = await get<ErrorBody>(s.alice, '/api/documents/export?bom=yes');
      expect([badBom.status, badBom.body.message]).toEqual([400, 'bom must be 1 or 0']);
    });
  });
}
