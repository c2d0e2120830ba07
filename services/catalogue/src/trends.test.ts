// Trends on a dated corpus: documents and items stored with known arrival dates, counted per week and
// per month by the real SQL (PGlite), then turned into rising / falling / steady series.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, DocumentAnalysisSchema, InventoryAnalysisSchema } from '@kaboodle/proto';
import { createHarness, documentAnalysis, inventoryAnalysis } from './test-fixtures.ts';
import type { Harness } from './test-fixtures.ts';
import { bucketStart, bucketWindow, buildTrends, recentChange } from './trends.ts';

const NOW = new Date('2026-03-18T12:00:00Z'); // a Wednesday
const weeksAgo = (n: number, day = 0) =>
  new Date(bucketStart(NOW, 'week').getTime() - n * 7 * 86_400_000 + day * 86_400_000 + 3_600_000);

describe('hashtag and category trends', { timeout: 60_000 }, () => {
  let h: Harness;
  const owner = `owner-${randomUUID()}`;
  const other = `other-${randomUUID()}`;

  async function doc(ownerId: string, at: Date, tags: string[], category: string) {
    const id = randomUUID();
    const analysis = create(DocumentAnalysisSchema, {
      ...documentAnalysis({ title: `Doc ${id.slice(0, 4)}`, category }),
      hashtags: tags.map((tag) => ({ tag, relevancy: 0.8 })),
    });
    await h.documents.save(h.db, {
      id,
      ownerId,
      source: { fileId: id, fileName: 'x.txt', contentType: 'text/plain', size: 1, blobKey: 'k', sha256: '' },
      attempt: 1,
      analysis,
      corrections: {},
      correctedFields: [],
    });
    await h.db.query('UPDATE documents SET created_at = $1 WHERE id = $2', [at, id]);
  }

  async function item(at: Date, tags: string[]) {
    const id = randomUUID();
    const analysis = create(InventoryAnalysisSchema, {
      ...inventoryAnalysis('Bowl'),
      hashtags: tags.map((tag) => ({ tag, relevancy: 0.8 })),
    });
    await h.inventory.save(h.db, {
      id,
      ownerId: owner,
      source: { fileId: id, fileName: 'b.png', contentType: 'image/png', size: 1, blobKey: 'k', sha256: '' },
      attempt: 1,
      analysis,
      corrections: {},
      correctedFields: [],
    });
    await h.db.query('UPDATE inventory_items SET created_at = $1 WHERE id = $2', [at, id]);
  }

  beforeAll(async () => {
    h = await createHarness();
    // #beads climbs: 1, 2, 3, 4 over the last four weeks; #trade falls: 4, 2, 1, 0; #Looms steady 1 each.
    const plan: [number, string[]][] = [
      [3, ['beads', 'trade', 'trade', 'trade', 'trade', 'Looms']],
      [2, ['beads', 'beads', 'trade', 'trade', 'Looms']],
      [1, ['beads', 'beads', 'beads', 'trade', 'Looms']],
      [0, ['beads', 'beads', 'beads', 'beads', '#looms']],
    ];
    for (const [ago, tags] of plan) {
      for (const [i, tag] of tags.entries())
        await doc(owner, weeksAgo(ago, i % 5), [tag], ago >= 2 ? 'History' : 'Craft');
    }
    await item(weeksAgo(0, 1), ['beads']); // an inventory item counts too
    await doc(owner, weeksAgo(20), ['ancient'], 'Old'); // outside a 12-week window
    await doc(other, weeksAgo(0), ['beads', 'secret'], 'History'); // another owner: never counted
  }, 60_000);
  afterAll(async () => h.close());

  async function trends(period: 'week' | 'month', periods: number) {
    const window = bucketWindow(NOW, period, periods);
    const [tags, cats] = await Promise.all([
      h.insights.hashtagCounts(owner, period, window[0]!),
      h.insights.categoryCounts(owner, period, window[0]!),
    ]);
    return buildTrends(period, window, tags, cats);
  }

  it('counts hashtags per week across documents and items, only the owner’s, in the window', async () => {
    const t = await trends('week', 12);
    expect(t.buckets).toHaveLength(12);
    expect(t.buckets.at(-1)).toBe('2026-03-16T00:00:00.000Z'); // the Monday of NOW's week
    const beads = t.hashtags.find((s) => s.key === 'beads')!;
    expect(beads.counts.slice(-4)).toEqual([1, 2, 3, 5]);
    expect(beads).toMatchObject({ total: 11, documents: 10, items: 1, direction: 'rising' });
    const trade = t.hashtags.find((s) => s.key === 'trade')!;
    expect(trade.counts.slice(-4)).toEqual([4, 2, 1, 0]);
    expect(trade.direction).toBe('falling');
    // "Looms" and "#looms" are one tag
    expect(t.hashtags.find((s) => s.key === 'looms')!.counts.slice(-4)).toEqual([1, 1, 1, 1]);
    expect(t.hashtags.map((s) => s.key)).not.toContain('secret');
    expect(t.hashtags.map((s) => s.key)).not.toContain('ancient');
    expect(t.rising).toEqual(expect.arrayContaining(['#beads', 'Craft']));
    expect(t.falling).toContain('#trade');
  });

  it('counts categories per week and rolls weeks up into months', async () => {
    const weekly = await trends('week', 12);
    const history = weekly.categories.find((s) => s.key === 'History')!;
    const craft = weekly.categories.find((s) => s.key === 'Craft')!;
    expect(history.counts.slice(-4)).toEqual([6, 5, 0, 0]);
    expect(craft.counts.slice(-4)).toEqual([0, 0, 5, 5]);
    expect(history.direction).toBe('falling');
    expect(craft.direction).toBe('rising');

    const monthly = await trends('month', 6);
    expect(monthly.buckets.at(-1)).toBe('2026-03-01T00:00:00.000Z');
    const total = (key: string) =>
      monthly.hashtags.find((s) => s.key === key)!.counts.reduce((a, b) => a + b, 0);
    expect(total('beads')).toBe(11);
    expect(total('trade')).toBe(7);
  });

  it('direction compares the recent buckets with the earlier ones since the tag first appeared', () => {
    expect(recentChange([0, 0, 0, 0])).toBe(0);
    expect(recentChange([0, 1, 1, 1, 1, 1, 1, 1])).toBe(0);
    expect(recentChange([0, 0, 2, 2, 4, 4])).toBeCloseTo(0.5);
    expect(recentChange([0, 0, 4, 4, 1, 1])).toBeCloseTo(-0.75);
    expect(recentChange([0, 0, 0, 0, 0, 3])).toBe(1); // new lately: rising
  });
});
