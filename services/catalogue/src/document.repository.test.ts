import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, DocumentAnalysisSchema } from '@kaboodle/proto';
import type { DocumentSort } from './document.repository.ts';
import type { Order } from './entity-query.ts';
import { createHarness, documentAnalysis } from './test-fixtures.ts';
import type { Harness } from './test-fixtures.ts';

describe('document repository', { timeout: 60_000 }, () => {
  let h: Harness;
  const owner = `owner-${randomUUID()}`;
  const other = `other-${randomUUID()}`;
  // ties on purpose (same category, same or missing year) so keyset paging must use the id too
  const specs = [
    { title: 'delta', category: 'Art', year: 2001 },
    { title: 'Alpha', category: 'Art', year: undefined },
    { title: 'charlie', category: 'Science', year: 1999 },
    { title: 'Bravo', category: 'Art', year: 2001 },
    { title: 'echo', category: 'science', year: undefined },
    { title: 'foxtrot', category: 'Art', year: 2010 },
    { title: 'golf', category: 'Art', year: 1999 },
  ];

  async function save(ownerId: string, s: (typeof specs)[number]) {
    const id = randomUUID();
    const analysis = create(DocumentAnalysisSchema, {
      ...documentAnalysis({ title: s.title, category: s.category }),
      publicationYear: s.year,
    });
    await h.documents.save(h.db, {
      id,
      ownerId,
      source: {
        fileId: id,
        fileName: `${s.title}.txt`,
        contentType: 'text/plain',
        size: 10,
        blobKey: `files/${ownerId}/${id}`,
        sha256: '',
      },
      attempt: 1,
      analysis,
      corrections: {},
      correctedFields: [],
    });
    return id;
  }

  beforeAll(async () => {
    h = await createHarness();
    for (const s of specs) await save(owner, s);
    await save(other, { title: 'Alpha', category: 'Art', year: 2001 });
  }, 60_000);
  afterAll(async () => h?.close(), 60_000);

  const titles = async (
    sort: DocumentSort,
    order: Order,
    extra: { category?: string; query?: string } = {},
  ) =>
    (await h.documents.list(owner, { sort, order, ...extra }, { page: 1, limit: 100 })).rows.map(
      (r) => r.title,
    );

  it('sorts text case-insensitively and years numerically with missing as 0', async () => {
    expect(await titles('title', 'asc')).toEqual([
      'Alpha',
      'Bravo',
      'charlie',
      'delta',
      'echo',
      'foxtrot',
      'golf',
    ]);
    const years = (
      await h.documents.list(owner, { sort: 'publication_year', order: 'asc' }, { page: 1, limit: 100 })
    ).rows.map((r) => r.publication_year ?? 0);
    expect(years).toEqual([0, 0, 1999, 1999, 2001, 2001, 2010]);
  });

  it('filters by exact category and by keyword over every field, never across owners', async () => {
    expect(await titles('title', 'asc', { category: 'science' })).toEqual(['echo']);
    expect(await titles('title', 'asc', { query: 'ALPH' })).toEqual(['Alpha']);
    expect(await titles('title', 'asc', { query: '1999' })).toEqual(['charlie', 'golf']);
    expect(await titles('title', 'asc', { query: 'delta.txt' })).toEqual(['delta']);
    const { total } = await h.documents.list(
      owner,
      { sort: 'title', order: 'asc', query: 'alpha' },
      { page: 1, limit: 1 },
    );
    expect(total).toBe(1);
  });

  it('iterates the whole filtered set in order across batch boundaries (keyset), for every sort and direction', async () => {
    for (const sort of ['title', 'category', 'publication_year', 'created_at'] as DocumentSort[]) {
      for (const order of ['asc', 'desc'] as Order[]) {
        const listed = (await h.documents.list(owner, { sort, order }, { page: 1, limit: 100 })).rows.map(
          (r) => r.id,
        );
        const streamed: string[] = [];
        for await (const r of h.documents.iterate(owner, { sort, order }, 2, 1000)) streamed.push(r.id);
        expect({ sort, order, streamed }).toEqual({ sort, order, streamed: listed });
      }
    }
    const capped: string[] = [];
    for await (const r of h.documents.iterate(owner, { sort: 'title', order: 'asc' }, 2, 5))
      capped.push(r.title);
    expect(capped).toEqual(['Alpha', 'Bravo', 'charlie', 'delta', 'echo']);
  });

  it('counts categories per owner, skipping empty ones', async () => {
    expect(await h.documents.categories(owner)).toEqual([
      { name: 'Art', count: 5 },
      { name: 'Science', count: 1 },
      { name: 'science', count: 1 },
    ]);
    expect(await h.documents.categories(other)).toEqual([{ name: 'Art', count: 1 }]);
  });
});
