// The shared state of the SearchIndex contract suite (search-index-contract.ts): synthetic topic
// vectors (so "meaning" is known exactly), graded-ranking metrics, and the helpers every theme file
// uses to build entities and queries for its own fresh owners.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { IndexedEntity, SearchHit, SearchIndex, SearchMode, SearchQuery } from '@kaboodle/search';

/** Topic axes for the suite's synthetic embeddings: a vector is a weighted mix of these. */
export const AXES = [
  'car',
  'repair',
  'engine',
  'bicycle',
  'cooking',
  'bread',
  'fermentation',
  'pastry',
  'music',
  'guitar',
  'piano',
  'finance',
  'tax',
  'garden',
  'flower',
  'cleaning',
] as const;
export type Axis = (typeof AXES)[number];

export function topicVector(dimensions: number, mix: Partial<Record<Axis, number>>): Float32Array {
  const v = new Float32Array(dimensions);
  for (const [axis, w] of Object.entries(mix)) v[AXES.indexOf(axis as Axis)] = w!;
  // A faint shared component keeps every vector valid (never all zeros) without changing the order.
  for (let i = AXES.length; i < dimensions; i++) v[i] = 0.01;
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  return v.map((x) => x / n);
}

/** nDCG@10 of a ranked id list against graded relevance. */
export function ndcgAt10(ranked: string[], grades: Record<string, number>): number {
  const dcg = (gains: number[]) =>
    gains.slice(0, 10).reduce((s, g, i) => s + (2 ** g - 1) / Math.log2(i + 2), 0);
  const ideal = dcg(Object.values(grades).sort((a, b) => b - a));
  return ideal === 0 ? 0 : dcg(ranked.map((id) => grades[id] ?? 0)) / ideal;
}

export interface ContractSuite {
  adapterName: string;
  dims: number;
  /** The index under test, opened by the suite's beforeAll. */
  index(): SearchIndex;
  /** A fresh owner id: every test keeps to its own owners, so one index serves the whole file. */
  owner(): string;
  vec(mix: Partial<Record<Axis, number>>): Float32Array;
  entity(ownerId: string, over?: Partial<IndexedEntity>): IndexedEntity;
  q(ownerId: string, mode: SearchMode, text: string, over?: Partial<SearchQuery>): SearchQuery;
  ids(hits: SearchHit[]): string[];
  /**
   * A document whose three passages are on unrelated topics (gardening, a tax deadline, guitar
   * strings), for the excerpt cases: `passages[i].text` is what an excerpt for that topic must be.
   */
  almanac(ownerId: string): { doc: IndexedEntity; passages: IndexedEntity['passages'] };
  /** Scores in [0, 1], best first. */
  expectWellFormed(hits: SearchHit[]): void;
}

export function createContractSuite(
  adapterName: string,
  dims: number,
  index: () => SearchIndex,
): ContractSuite {
  const vec = (mix: Partial<Record<Axis, number>>) => topicVector(dims, mix);
  let seq = 0;
  function entity(ownerId: string, over: Partial<IndexedEntity> = {}): IndexedEntity {
    seq += 1;
    const entityType = over.entityType ?? 'document';
    return {
      entityType,
      id: over.id ?? `e-${seq}-${randomUUID().slice(0, 8)}`,
      ownerId,
      version: 1,
      title: `Untitled ${seq}`,
      description: '',
      content: '',
      category: 'General',
      hashtags: [],
      keywords: [],
      url: entityType === 'document' ? `/api/documents/${over.id ?? seq}/file` : '',
      imageUrl: entityType === 'inventory_item' ? `/api/inventory/${over.id ?? seq}/image` : '',
      createdAt: new Date('2026-01-01T00:00:00Z'),
      updatedAt: new Date('2026-01-02T00:00:00Z'),
      vector: vec({ cleaning: 1 }),
      passages: [],
      ...over,
    };
  }
  function q(ownerId: string, mode: SearchMode, text: string, over: Partial<SearchQuery> = {}): SearchQuery {
    return { ownerId, mode, text, limit: 20, ...over };
  }
  const ids = (hits: SearchHit[]) => hits.map((h) => h.id);
  function almanac(ownerId: string) {
    const texts: Array<[string, Partial<Record<Axis, number>>]> = [
      ['Chapter one talks about gardening and tulips.', { garden: 1, flower: 1 }],
      ['Chapter two explains the tax return deadline.', { finance: 1, tax: 1 }],
      ['Chapter three covers guitar strings.', { music: 1, guitar: 1 }],
    ];
    let offset = 0;
    const passages = texts.map(([text, mix]) => {
      const start = offset;
      offset += text.length + 1;
      return { text, vector: vec(mix), start, end: start + text.length };
    });
    const doc = entity(ownerId, {
      title: 'Almanac of everything',
      content: passages.map((p) => p.text).join(' '),
      vector: vec({ garden: 0.5, tax: 0.5, guitar: 0.5 }),
      passages,
    });
    return { doc, passages };
  }
  const expectWellFormed = (hits: SearchHit[]) => {
    for (const h of hits) {
      expect(h.score).toBeGreaterThanOrEqual(0);
      expect(h.score).toBeLessThanOrEqual(1);
    }
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
  };

  return {
    adapterName,
    dims,
    index,
    owner: () => `owner-${randomUUID()}`,
    vec,
    entity,
    q,
    ids,
    almanac,
    expectWellFormed,
  };
}
