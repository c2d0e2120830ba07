// The catalogue API over real HTTP against `kaboodle --target=all`: upload → processing → file.processed
// → stored document / inventory item → every /api/documents*, /api/inventory*, /api/stats and
// /api/activity route, their error texts, sorting, paging, export quoting, edits, deletes, and that a
// second user with identical content never sees the first user's data through any of them.
// Shared by catalogue.api.test.ts (embedded engines) and catalogue-postgres.api.test.ts (DATABASE_URL).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { startKaboodleProcess, tempDataDir } from '../../support/kaboodle-process.ts';
import { createCatalogueClient, solidPng } from './catalogue-client.ts';
import { documentTests } from './catalogue-suite-documents.ts';
import { inventoryAndStatsTests } from './catalogue-suite-inventory.ts';
import { isolationTests } from './catalogue-suite-isolation.ts';
import { reprocessAndDeleteTests } from './catalogue-suite-lifecycle.ts';
import { listingTests } from './catalogue-suite-listing.ts';
import type { CatalogueSuite } from './catalogue-suite-state.ts';

export { parseCsv } from './catalogue-suite-state.ts';

export function defineCatalogueSuite(mode: { name: string; env: Record<string, string> }): void {
  describe(`catalogue API (${mode.name})`, () => {
    const data = tempDataDir('kaboodle-catalogue-');
    const tag = randomUUID().slice(0, 8);
    // Filled by beforeAll (app, users, uploads); the themes read it when their tests run.
    const s = { tag, docs: [] as string[] } as unknown as CatalogueSuite;
    s.api = createCatalogueClient(() => s.app.url);
    s.get = <T>(token: string, path: string) => s.api.request<T>('GET', path, token);
    const texts = [
      `Ledger of the Bead Cooperative ${tag}\nby Ines Duarte\n\nA record of glass beads traded along the coast in 2024, with prices and routes.`,
      `Notes on Stool Joinery ${tag}\nby Kwame Mensah\n\nMortise and tenon joints for three-legged stools, tested for load over a year.`,
      `Fan Weaving Patterns ${tag}\nby Ana Ruiz\n\nPalm-leaf fans woven in twill and plain patterns; how the weave changes airflow.`,
    ];
    s.texts = texts;
    const { api } = s;

    beforeAll(async () => {
      s.app = await startKaboodleProcess({
        target: 'all',
        env: { KABOODLE_DATA_DIR: data.dir, ...mode.env },
      });
      [s.alice, s.bob] = await Promise.all([api.register('alice'), api.register('bob')]);
      s.docs = [];
      for (const [i, t] of texts.entries()) {
        s.docs.push(
          await api.upload(
            s.alice,
            { bytes: Buffer.from(t), name: `note-${i}.txt`, type: 'text/plain' },
            'document',
          ),
        );
      }
      s.bobDoc = await api.upload(
        s.bob,
        { bytes: Buffer.from(texts[0]!), name: 'note-0.txt', type: 'text/plain' },
        'document',
      );
      s.item = await api.upload(
        s.alice,
        { bytes: solidPng(96, 96, [20, 40, 200]), name: 'blue bowl.png', type: 'image/png' },
        'inventory',
      );
      for (const id of [...s.docs, s.item]) expect((await api.settled(s.alice, id)).status).toBe('completed');
      expect((await api.settled(s.bob, s.bobDoc)).status).toBe('completed');
    });
    afterAll(async () => {
      await s.app?.stop();
      data.remove();
    });

    documentTests(s);
    listingTests(s);
    inventoryAndStatsTests(s);
    isolationTests(s);
    reprocessAndDeleteTests(s);
  });
}
