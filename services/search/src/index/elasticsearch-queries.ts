// The Elasticsearch request bodies for searching (owner filter always inside the kNN filter, so it
// pre-filters the HNSW walk rather than trimming its results) and the mapping of answers back to
// SearchHits with the shared scoring rules (search-scoring.ts), so scores match the LanceDB adapter.
import { InputError } from '@kaboodle/platform';
import type { IndexedEntityType, SearchHit, SearchQuery } from './search-index.port.ts';
import { contentWords } from './keyword-index.ts';
import { ENTITY_TYPES, PAIR_BOOST, clamp01, normaliseTag, queryTerms } from './search-scoring.ts';

/** What a search reads back from `_source` (never vectors, passages or the full content). */
export const HIT_SOURCE = [
  'entity_type',
  'entity_id',
  'title',
  'description',
  'content_preview',
  'url',
  'image_url',
  'category',
  'hashtags',
];

/** Fields BM25 searches, with their boosts: the title counts most. */
export const BM25_FIELDS = [
  'title^3',
  'description^2',
  'hashtags.text^2',
  'keywords^1.5',
  'category.text',
  'content',
];

/**
 * A user's query may be up to 1000 characters; each distinct word becomes one clause per field, so
 * very long queries are cut to their first words to stay far below the cluster's clause limit.
 */
export const BM25_MAX_TERMS = 64;
/** A query's first this many word pairs are phrase clauses (each is a positions lookup). */
const MAX_PAIR_PHRASES = 16;

/** Elasticsearch refuses num_candidates above this. */
export const MAX_NUM_CANDIDATES = 10_000;

export interface FilterSpec {
  ownerId: string;
  entityTypes?: IndexedEntityType[] | undefined;
  category?: string | undefined;
  hashtags?: string[] | undefined;
  /** Document ids (`_id`) to leave out: related() never returns the entity itself. */
  excludeIds?: string[];
  /** Only these document ids (`_id`): a kaboodle's members. The caller answers an empty list itself. */
  onlyIds?: string[] | undefined;
}

export type EsQuery = Record<string, unknown>;

/**
 * The filter every search carries: one owner's live (non-tombstone) entities, optionally of some
 * types, one category, and every one of some tags. Values go in as term values, never as query
 * syntax, so nothing a user types can widen it.
 */
export function entityFilter(f: FilterSpec): { bool: { filter: EsQuery[]; must_not: EsQuery[] } } {
  if (typeof f.ownerId !== 'string' || f.ownerId === '') throw new InputError('ownerId is required');
  const filter: EsQuery[] = [{ term: { owner_id: f.ownerId } }];
  if (f.entityTypes && f.entityTypes.length > 0) {
    for (const t of f.entityTypes) {
      if (!ENTITY_TYPES.includes(t)) throw new InputError(`Unknown entity type: ${String(t)}`);
    }
    const types = [...new Set(f.entityTypes)];
    if (types.length < ENTITY_TYPES.length) filter.push({ terms: { entity_type: types } });
  }
  if (f.category !== undefined && f.category !== '') filter.push({ term: { category: f.category } });
  const tags = [...new Set((f.hashtags ?? []).map(normaliseTag).filter((t) => t !== ''))];
  for (const tag of tags) filter.push({ term: { hashtags_norm: tag } });
  if (f.onlyIds) {
    if (f.onlyIds.length === 0) throw new InputError('onlyIds must name at least one document');
    filter.push({ ids: { values: f.onlyIds } });
  }
  const mustNot: EsQuery[] = [{ term: { deleted: true } }];
  if (f.excludeIds && f.excludeIds.length > 0) mustNot.push({ ids: { values: f.excludeIds } });
  return { bool: { filter, must_not: mustNot } };
}

export function numCandidates(k: number): number {
  return Math.min(MAX_NUM_CANDIDATES, Math.max(100, k * 10));
}

/** The words BM25 sees: the first BM25_MAX_TERMS distinct whitespace-separated tokens. */
export function bm25Text(text: string): string {
  const seen = new Set<string>();
  for (const word of text.split(/\s+/u)) {
    if (word === '') continue;
    seen.add(word);
    if (seen.size >= BM25_MAX_TERMS) break;
  }
  return [...seen].join(' ');
}

/** Up to three passages per hit (inner hits of size > 1 on nested kNN need 8.13). */
const passageInnerHits = () => ({
  size: 3,
  _source: false,
  fields: ['passages.text'],
});

export function knnBody(
  vector: Float32Array,
  k: number,
  filter: EsQuery,
  options: { field?: 'vector' | 'passages.vector'; innerHits?: boolean } = {},
): EsQuery {
  const field = options.field ?? 'vector';
  return {
    size: k,
    _source: HIT_SOURCE,
    knn: {
      field,
      query_vector: Array.from(vector),
      k,
      num_candidates: numCandidates(k),
      filter,
      ...(options.innerHits && { inner_hits: passageInnerHits() }),
    },
  };
}

/**
 * BM25 over the text fields. `multi_match` takes the user's words as plain text: no operators,
 * no Lucene syntax, so `"`, `*`, `AND`, `(`, `/`, `\` and the like can never make it throw. With
 * excerpts, a score-neutral nested clause brings back the best-matching passages as inner hits.
 */
export function bm25Body(
  text: string,
  size: number,
  filter: EsQuery,
  options: { excerpts?: boolean } = {},
): EsQuery {
  const words = bm25Text(text);
  const match = {
    multi_match: {
      query: words,
      fields: BM25_FIELDS,
      type: 'best_fields',
      tie_breaker: 0.3,
      operator: 'or',
      lenient: true,
    },
  };
  // Proximity evidence, as the embedded index's word pairs (PAIR_BOOST): each adjacent pair of the
  // query's words as a phrase in the content, a skipped stop word's gap allowed.
  const content = contentWords(words);
  const pairs = content.slice(1, MAX_PAIR_PHRASES + 1).map((w, i) => ({
    match_phrase: { content: { query: `${content[i]} ${w}`, slop: 2, boost: PAIR_BOOST } },
  }));
  const bool: Record<string, unknown> = { must: [match], filter: [filter] };
  if (pairs.length > 0) bool.should = pairs;
  if (options.excerpts) {
    bool.should = [
      ...pairs,
      {
        nested: {
          path: 'passages',
          score_mode: 'none',
          query: { match: { 'passages.text': { query: words, operator: 'or' } } },
          inner_hits: passageInnerHits(),
        },
      },
    ];
  }
  return { size, _source: HIT_SOURCE, track_total_hits: false, query: { bool } };
}

// ---- answers ------------------------------------------------------------------------------------

export interface EsHit {
  _id: string;
  _score?: number | null;
  _source?: Record<string, unknown>;
  inner_hits?: Record<string, { hits?: { hits?: EsInnerHit[] } }>;
}

export interface EsInnerHit {
  _score?: number | null;
  _nested?: { offset?: number };
  fields?: Record<string, unknown>;
  _source?: Record<string, unknown>;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export function hitFromSource(h: EsHit, score: number, excerpt?: string): SearchHit {
  const s = h._source ?? {};
  const type = str(s.entity_type);
  return {
    entityType: (type === 'inventory_item' ? 'inventory_item' : 'document') as IndexedEntityType,
    id: str(s.entity_id),
    title: str(s.title),
    description: str(s.description),
    content: str(s.content_preview),
    url: str(s.url),
    imageUrl: str(s.image_url),
    category: str(s.category),
    hashtags: Array.isArray(s.hashtags) ? s.hashtags.filter((t): t is string => typeof t === 'string') : [],
    score: clamp01(score),
    ...(excerpt !== undefined && { excerpt }),
  };
}

/** Elasticsearch's cosine `_score` is (1 + cos) / 2; the port's semantic score is cos clamped to [0, 1]. */
export function cosineFromScore(score: number | null | undefined): number {
  return typeof score === 'number' ? 2 * score - 1 : 0;
}

/** The text of an inner hit on `passages`, whether it came back as `fields` or `_source`. */
export function innerHitText(h: EsInnerHit): string | undefined {
  const f = h.fields ?? {};
  const grouped = f.passages;
  if (Array.isArray(grouped) && grouped.length > 0) {
    const t = (grouped[0] as Record<string, unknown>)?.text;
    if (Array.isArray(t) && typeof t[0] === 'string') return t[0];
    if (typeof t === 'string') return t;
  }
  const flat = f['passages.text'];
  if (Array.isArray(flat) && typeof flat[0] === 'string') return flat[0];
  if (typeof h._source?.text === 'string') return h._source.text;
  return undefined;
}

export interface PassageCandidate {
  text: string;
  offset: number;
  /** Cosine to the query vector, when the passage came back from the nested kNN. */
  cosine?: number;
}

/**
 * The passages Elasticsearch proposed for one hit (its inner hits on `passages`). From the nested
 * kNN list (`fromKnn`) their `_score` is the passage's cosine score; from BM25 it is not a similarity.
 */
export function passageCandidates(h: EsHit | undefined, fromKnn: boolean): PassageCandidate[] {
  if (!h?.inner_hits) return [];
  const byOffset = new Map<number, PassageCandidate>();
  for (const inner of Object.values(h.inner_hits)) {
    for (const ih of inner.hits?.hits ?? []) {
      const text = innerHitText(ih);
      if (text === undefined || text.trim() === '') continue;
      const offset = ih._nested?.offset ?? byOffset.size + 10_000;
      byOffset.set(offset, { text, offset, ...(fromKnn && { cosine: cosineFromScore(ih._score) }) });
    }
  }
  return [...byOffset.values()].sort((a, b) => a.offset - b.offset);
}

/**
 * The excerpt among the proposed passages, by the rule bestPassage() applies in the embedded index:
 * half the cosine to the query (when known) and half the share of query words the passage holds;
 * ties go to the earlier passage.
 */
export function chooseExcerpt(candidates: PassageCandidate[], text: string): string | undefined {
  const terms = queryTerms(text);
  let best: { text: string; score: number } | undefined;
  for (const c of candidates) {
    const parts: number[] = [];
    if (c.cosine !== undefined) parts.push(clamp01(c.cosine));
    if (terms.length > 0) {
      const words = new Set(queryTerms(c.text));
      parts.push(terms.filter((t) => words.has(t)).length / terms.length);
    }
    const score = parts.length ? parts.reduce((s, x) => s + x, 0) / parts.length : 0;
    if (!best || score > best.score) best = { text: c.text, score };
  }
  return best?.text;
}

/** Search bodies must never see a vector of the wrong size (Elasticsearch answers 400). */
export function assertQueryVector(
  vector: Float32Array | undefined,
  dimensions: number,
  mode: SearchQuery['mode'],
) {
  if (!vector) throw new InputError(`a ${mode} search needs a query vector`);
  if (vector.length !== dimensions) {
    throw new InputError(`the query vector has ${vector.length} dimensions; the index holds ${dimensions}`);
  }
}
