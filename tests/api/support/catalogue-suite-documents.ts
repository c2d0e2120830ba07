// Catalogue API suite (catalogue-suite.ts), documents: what processing stored, and edits with their
// checks, corrections and version conflicts.
import { describe, expect, it } from 'vitest';
import type { CatalogueSuite, Doc, ErrorBody } from './catalogue-suite-state.ts';

export function documentTests(s: CatalogueSuite): void {
  const { api, get, texts } = s;

  describe('after processing', () => {
    it('the file reports completed with a link to the document it became', async () => {
      const file = (await api.settled(s.alice, s.docs[0]!)) as {
        result?: { type: string; id: string; url: string };
      };
      expect(file.result).toEqual({ type: 'document', id: s.docs[0], url: `/documents?open=${s.docs[0]}` });
      const i = (await api.settled(s.alice, s.item)) as { result?: { type: string; id: string } };
      expect(i.result).toMatchObject({ type: 'inventory_item', id: s.item });
    });

    it('lists the owner documents with X-Total-Count, id = source file id, every spec field', async () => {
      const res = await get<Doc[]>(s.alice, '/api/documents');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total-count')).toBe('3');
      expect(res.body.map((d) => d.id).sort()).toEqual([...s.docs].sort());
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
      const res = await get<Doc>(s.alice, `/api/documents/${s.docs[1]}`);
      expect(res.status).toBe(200);
      expect(res.body.text).toContain('Mortise and tenon');
      expect(res.body.provenance).toBeTypeOf('object');
      expect(res.body.file_name).toBe('note-1.txt');
    });

    it('streams the original file as an attachment with a safe Content-Disposition', async () => {
      const res = await get(s.alice, `/api/documents/${s.docs[0]}/file`);
      expect(res.status).toBe(200);
      expect(res.text).toBe(texts[0]);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename=note-0.txt');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    });
  });

  describe('editing', () => {
    it('PATCH records corrections, bumps the version and answers the detail', async () => {
      const before = (await get<Doc>(s.alice, `/api/documents/${s.docs[0]}`)).body;
      const res = await api.request<Doc>('PATCH', `/api/documents/${s.docs[0]}`, s.alice, {
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
      await api.request('PATCH', `/api/documents/${s.docs[1]}`, s.alice, {
        title: 'Beta',
        category: 'Crafts',
        publication_year: null,
      });
      await api.request('PATCH', `/api/documents/${s.docs[2]}`, s.alice, {
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
        [{ publication_year: 1999.5 }, 400, 'publication_year must be a whole year from 0 to 9999, or null'],
        [{ hashtags: 'beads' }, 400, 'hashtags must be a list of tags or {tag, relevancy} objects'],
        [{ hashtags: [{ tag: 'ok', relevancy: 2 }] }, 400, 'A tag relevancy must be a number from 0 to 1'],
        [{ hashtags: ['!!!'] }, 400, '"!!!" is not a valid tag: it needs at least one letter or digit'],
        [{ influenced_by: 'Mauss' }, 400, 'influenced_by must be a list of up to 100 names'],
        [[1, 2], 400, 'Send the fields to change as a JSON object'],
        ['{"title":', 400, 'Invalid JSON in request body'],
      ];
      for (const [body, status, message] of cases) {
        const res = await api.request<ErrorBody>('PATCH', `/api/documents/${s.docs[0]}`, s.alice, body);
        expect({ body, status: res.status, message: res.body.message }).toEqual({ body, status, message });
      }
      expect((await get<Doc>(s.alice, `/api/documents/${s.docs[0]}`)).body.title).toBe('alpha');
    });

    it('takes control characters out of edits and filters (Postgres cannot store NUL): never a 500', async () => {
      const edited = await api.request<Doc>('PATCH', `/api/documents/${s.docs[2]}`, s.alice, {
        author: 'Ana\u0000 Ruiz\u0007',
        influenced_by: ['Mauss\u0000'],
      });
      expect([edited.status, edited.body.author, edited.body.influenced_by]).toEqual([
        200,
        'Ana Ruiz',
        ['Mauss'],
      ]);
      for (const q of ['category=%00', 'query=%00a', 'category=Textiles%00']) {
        const res = await get<Doc[]>(s.alice, `/api/documents?${q}`);
        expect({ q, status: res.status }).toEqual({ q, status: 200 });
      }
      const search = await get<Doc[]>(s.alice, '/api/documents/search?query=%00');
      expect([search.status, (search.body as unknown as ErrorBody).message]).toEqual([
        400,
        'Search query is required',
      ]);
    });
  });
}
