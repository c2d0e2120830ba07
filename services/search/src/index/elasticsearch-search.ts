// Elasticsearch hybrid search: kNN and BM25 (and, for excerpts, a nested passage kNN) in one
// `_msearch`, fused client-side by reciprocal rank (works on every licence) and scored with the same
// rules as the LanceDB adapter (search-scoring.ts).
import type { Client } from '@elastic/elasticsearch';
import { wrapError } from '@kaboodle/platform';
import type { HitsQuery, RankedRef, SearchHit, SearchQuery } from './search-index.port.ts';
import { docId } from './elasticsearch-mappings.ts';
import {
  assertQueryVector,
  bm25Body,
  chooseExcerpt,
  cosineFromScore,
  entityFilter,
  HIT_SOURCE,
  hitFromSource,
  knnBody,
  passageCandidates,
} from './elasticsearch-queries.ts';
import type { EsHit, EsQuery, PassageCandidate } from './elasticsearch-queries.ts';
import { bm25ToScores, clamp01, clampLimit, fusionDepth, reciprocalRankFusion } from './search-scoring.ts';

export interface EsSearchContext {
  client: Client;
  /** The alias searches go through. */
  alias: string;
  /** "elasticsearch alias <name>", for error messages. */
  where: string;
  dimensions: number;
  /** Whether the live index holds vectors of this model (not while a rebuild for a new one is pending). */
  vectorsLive(): boolean;
}

const isZero = (v: Float32Array): boolean => v.every((x) => x === 0);

async function msearch(ctx: EsSearchContext, bodies: EsQuery[]): Promise<EsHit[][]> {
  if (bodies.length === 0) return [];
  const r = await ctx.client.msearch({ index: ctx.alias, searches: bodies.flatMap((b) => [{}, b]) });
  return r.responses.map((resp, i) => {
    if ('error' in resp) {
      const e = resp.error as { type?: string; reason?: string };
      throw new Error(
        `${ctx.where}: search ${i + 1} of ${bodies.length} failed: ${e.type ?? ''} ${e.reason ?? ''}`,
      );
    }
    return (resp.hits.hits ?? []) as EsHit[];
  });
}

/** What `searchKeys` reads back: the entity's name, nothing to display. */
const KEY_SOURCE = ['entity_type', 'entity_id'];

/** A document's best passage from the inner hits of the BM25 and passage-kNN answers. */
function excerptOf(
  id: string,
  bm25ById: Map<string, EsHit>,
  passageHits: Map<string, EsHit>,
  text: string,
): string | undefined {
  const byOffset = new Map<number, PassageCandidate>();
  for (const c of [
    ...passageCandidates(bm25ById.get(id), false),
    ...passageCandidates(passageHits.get(id), true),
  ]) {
    const prev = byOffset.get(c.offset);
    byOffset.set(c.offset, {
      ...prev,
      ...c,
      ...(c.cosine === undefined && prev?.cosine !== undefined && { cosine: prev.cosine }),
    });
  }
  return chooseExcerpt(
    [...byOffset.values()].sort((a, b) => a.offset - b.offset),
    text,
  );
}

export async function searchEntities(ctx: EsSearchContext, query: SearchQuery): Promise<SearchHit[]> {
  return (await rankEntities(ctx, query, false)).map(({ hit, score, raw, excerpt }) => {
    const found = hitFromSource(hit, score, excerpt);
    return raw === undefined ? found : { ...found, raw };
  });
}

/** The ranking of `searchEntities`, with only each entity's name read back. */
export async function searchEntityKeys(ctx: EsSearchContext, query: SearchQuery): Promise<RankedRef[]> {
  return (await rankEntities(ctx, query, true)).map(({ hit, score, raw }) => {
    const { entityType, id } = hitFromSource(hit, score);
    return { entityType, id, score: clamp01(score), ...(raw !== undefined && { raw }) };
  });
}

interface Ranked {
  hit: EsHit;
  score: number;
  raw?: number;
  excerpt?: string;
}

async function rankEntities(ctx: EsSearchContext, query: SearchQuery, keysOnly: boolean): Promise<Ranked[]> {
  const limit = clampLimit(query.limit, 100);
  // Only a kaboodle's members: none means no result (and no request at all).
  if (query.only && query.only.length === 0) return [];
  const filter = entityFilter({
    ...query,
    onlyIds: query.only?.map((m) => docId({ ...m, ownerId: query.ownerId })),
  });
  const text = (query.text ?? '').trim();
  const wantsVector = query.mode !== 'keyword';
  if (wantsVector) assertQueryVector(query.vector, ctx.dimensions, query.mode);
  // A query vector the live index cannot compare (rebuild pending for a new model) or a zero
  // vector (nothing to embed) gives no vector list: keyword still answers in hybrid.
  const vector = wantsVector && ctx.vectorsLive() && !isZero(query.vector!) ? query.vector! : undefined;
  const depth = query.mode === 'hybrid' ? fusionDepth(limit) : limit;
  const excerpts = query.withExcerpts === true && !keysOnly;

  const bodies: EsQuery[] = [];
  const slot = { knn: -1, bm25: -1, passages: -1 };
  if (vector) {
    slot.knn = bodies.push(knnBody(vector, depth, filter)) - 1;
    if (excerpts) {
      slot.passages =
        bodies.push(knnBody(vector, depth, filter, { field: 'passages.vector', innerHits: true })) - 1;
    }
  }
  if (query.mode !== 'semantic' && text !== '') {
    slot.bm25 = bodies.push(bm25Body(text, depth, filter, { excerpts })) - 1;
  }

  let lists: EsHit[][];
  try {
    lists = await msearch(ctx, keysOnly ? bodies.map((b) => ({ ...b, _source: KEY_SOURCE })) : bodies);
  } catch (err) {
    throw wrapError(`searching ${ctx.where}`, err);
  }
  const knnHits = slot.knn >= 0 ? lists[slot.knn]! : [];
  const bm25Hits = slot.bm25 >= 0 ? lists[slot.bm25]! : [];
  const passageHits = new Map((slot.passages >= 0 ? lists[slot.passages]! : []).map((h) => [h._id, h]));
  const bm25ById = new Map(bm25Hits.map((h) => [h._id, h]));

  let ranked: Ranked[];
  if (query.mode === 'keyword') {
    const scores = bm25ToScores(bm25Hits.map((h) => h._score ?? 0));
    ranked = bm25Hits.map((hit, i) => ({ hit, score: scores[i]!, raw: hit._score ?? 0 }));
  } else if (query.mode === 'semantic') {
    ranked = knnHits.map((hit) => ({
      hit,
      score: clamp01(cosineFromScore(hit._score)),
      raw: cosineFromScore(hit._score),
    }));
  } else {
    const byId = new Map<string, EsHit>();
    for (const h of [...bm25Hits, ...knnHits]) byId.set(h._id, h);
    ranked = reciprocalRankFusion([
      knnHits.map((h) => ({ key: h._id })),
      bm25Hits.map((h) => ({ key: h._id })),
    ]).map((f) => ({ hit: byId.get(f.key)!, score: f.score }));
  }
  return ranked
    .slice(0, limit)
    .map((r) => (excerpts ? { ...r, excerpt: excerptOf(r.hit._id, bm25ById, passageHits, text) } : r));
}

/**
 * The display hits of `query.refs` in their order (one search by id), and with `excerptsFor` each
 * document's best passage for that query (the passage kNN and BM25 of `searchEntities`, on those
 * documents only). Refs to missing, deleted or another owner's entities are left out.
 */
export async function hitsOfEntities(ctx: EsSearchContext, query: HitsQuery): Promise<SearchHit[]> {
  if (query.refs.length === 0) return [];
  const idOf = (r: RankedRef) => docId({ entityType: r.entityType, id: r.id, ownerId: query.ownerId });
  const ids = query.refs.map(idOf);
  const bodies: EsQuery[] = [
    {
      size: ids.length,
      _source: HIT_SOURCE,
      track_total_hits: false,
      query: entityFilter({ ownerId: query.ownerId, onlyIds: ids }),
    },
  ];
  const slot = { bm25: -1, passages: -1 };
  const wanted = query.excerptsFor;
  const text = (wanted?.text ?? '').trim();
  const docs = query.refs.filter((r) => r.entityType === 'document').map(idOf);
  if (wanted && docs.length > 0) {
    const filter = entityFilter({ ownerId: query.ownerId, onlyIds: docs });
    const v = wanted.vector;
    if (v && v.length === ctx.dimensions && ctx.vectorsLive() && !isZero(v)) {
      const body = knnBody(v, docs.length, filter, { field: 'passages.vector', innerHits: true });
      slot.passages = bodies.push(body) - 1;
    }
    if (text !== '') slot.bm25 = bodies.push(bm25Body(text, docs.length, filter, { excerpts: true })) - 1;
  }
  let lists: EsHit[][];
  try {
    lists = await msearch(ctx, bodies);
  } catch (err) {
    throw wrapError(`reading hits from ${ctx.where}`, err);
  }
  const found = new Map(lists[0]!.map((h) => [h._id, h]));
  const bm25ById = new Map((slot.bm25 >= 0 ? lists[slot.bm25]! : []).map((h) => [h._id, h]));
  const passageHits = new Map((slot.passages >= 0 ? lists[slot.passages]! : []).map((h) => [h._id, h]));
  return query.refs.flatMap((r, i) => {
    const h = found.get(ids[i]!);
    if (!h) return [];
    const excerpt =
      wanted && r.entityType === 'document' ? excerptOf(h._id, bm25ById, passageHits, text) : undefined;
    const hit = hitFromSource(h, r.score, excerpt);
    return [r.raw === undefined ? hit : { ...hit, raw: r.raw }];
  });
}
