// SearchIndex on Elasticsearch (a cluster; the Helm chart's ECK). Reads and writes go through an
// alias; the physical index behind it is `<alias>-<dims>d-<timestamp>`, so a reindex or an
// embedding-model change builds a new index beside the old one and swaps the alias atomically. Any
// number of replicas share it: a reindex runs once (a lease) and every replica writes to both
// indices until the swap (elasticsearch-coordination.ts, elasticsearch-reindex.ts).
// Hybrid search is kNN + BM25 in one `_msearch`, fused client-side by RRF (works on every licence),
// scored with the same rules as the LanceDB adapter (search-scoring.ts).
import { readFileSync } from 'node:fs';
import { Client } from '@elastic/elasticsearch';
import { ConflictError, InputError, isDomainError, wrapError } from '@kaboodle/platform';
import type { Logger } from '@kaboodle/platform';
import type {
  EntityRef,
  IndexStats,
  RelatedQuery,
  SearchHit,
  SearchIndex,
  SearchQuery,
  UpsertOutcome,
} from './search-index.port.ts';
import { DEFAULT_BULK, bulkIndex, esStatus } from './elasticsearch-bulk.ts';
import { createElasticsearchKaboodleIndex } from './elasticsearch-kaboodle-index.ts';
import { nextAliasOf, readAliasTargets } from './elasticsearch-coordination.ts';
import { indexStats, listLiveEntities, relatedEntities, versionOfEntity } from './elasticsearch-reads.ts';
import type { EsReadContext } from './elasticsearch-reads.ts';
import { beginReindex } from './elasticsearch-reindex.ts';
import type { ElasticsearchReindex } from './elasticsearch-reindex.ts';
import type { BulkOperation, BulkOptions } from './elasticsearch-bulk.ts';
import {
  DEFAULT_HNSW,
  approxDocumentBytes,
  ES_SCHEMA_VERSION,
  createIndexBody,
  docId,
  entityDocument,
  indexTemplateBody,
  physicalIndexName,
  tombstoneDocument,
} from './elasticsearch-mappings.ts';
import type { HnswOptions, IndexMeta, VectorEncoding } from './elasticsearch-mappings.ts';
import {
  assertQueryVector,
  bm25Body,
  chooseExcerpt,
  cosineFromScore,
  entityFilter,
  hitFromSource,
  knnBody,
  passageCandidates,
} from './elasticsearch-queries.ts';
import type { EsHit, EsQuery, PassageCandidate } from './elasticsearch-queries.ts';
import { bm25ToScores, clamp01, clampLimit, fusionDepth, reciprocalRankFusion } from './search-scoring.ts';

export interface ElasticsearchSearchIndexOptions {
  /** Cluster URL(s); ignored when `client` is given. */
  node?: string | string[];
  apiKey?: string;
  /** CA (PEM file) to verify the cluster's HTTPS certificate against. */
  caFile?: string;
  username?: string;
  password?: string;
  /** The alias every read and write goes through (SEARCH_INDEX_NAME). */
  indexName: string;
  /** Vector size of the embedding model. */
  dimensions: number;
  /** Embedding model id, recorded in the index's `_meta`: a different model means a reindex. */
  model?: string;
  /** A ready client (tests pass one wired to @elastic/elasticsearch-mock). */
  client?: Client;
  shards?: number;
  /** Unset: the cluster's default (1). A one-node cluster stays yellow with 1. */
  replicas?: number;
  hnsw?: Partial<HnswOptions>;
  bulk?: Partial<BulkOptions>;
  /**
   * How vectors travel in bulk bodies (default 'json'). 'base64' halves the bytes and the client CPU
   * but needs a cluster with base64 dense vectors (recent 9.x); the contract suite says whether yours does.
   */
  vectorEncoding?: VectorEncoding;
  /** Index refresh interval outside reindexing (default 1s). */
  refreshInterval?: string;
  requestTimeoutMs?: number;
  /** Keep the previous physical index after a swap (default: delete it). */
  keepOldIndices?: boolean;
  /** How long the reindex lease lasts unless renewed (default 2 min; renewed every third of it). */
  reindexLeaseMs?: number;
  /**
   * Write each change to the index a reindex is filling too (default true). Off only to show, in the
   * reindex-with-writes test, what is lost without it.
   */
  dualWrite?: boolean;
  logger?: Logger;
}

/** Where the alias points, and whether that index fits the configured model. */
export interface ElasticsearchIndexState {
  alias: string;
  /** The physical index the alias points at. */
  index: string;
  meta: IndexMeta;
  /** The alias's index was built for other vectors (dims, model or schema differ): rebuild it. */
  reindexRequired: boolean;
  /** The index a reindex is filling, if one is under way in this process. */
  reindexing: string | undefined;
  serverVersion: string;
}

export type { ElasticsearchReindex } from './elasticsearch-reindex.ts';

export interface ElasticsearchSearchIndex extends SearchIndex {
  readonly kind: 'elasticsearch';
  readonly alias: string;
  describe(): ElasticsearchIndexState;
  beginReindex(): Promise<ElasticsearchReindex>;
  /**
   * beginReindex(), `fill` feeds the new index (e.g. from the catalogue's ListForIndex), then
   * commit(); any failure aborts (drops the new index) and rethrows, the alias untouched.
   */
  reindex(fill: (target: ElasticsearchReindex) => Promise<void>): Promise<void>;
  /** The client (bench and tests: cluster stats). */
  readonly client: Client;
}

/**
 * Nested kNN with top-level pre-filters came in 8.11; several inner hits per nested kNN hit in 8.13;
 * 8.14 fixed nested kNN filters that could match nested documents.
 */
const MIN_VERSION: [number, number] = [8, 14];

export function createElasticsearchSearchIndex(
  options: ElasticsearchSearchIndexOptions,
): ElasticsearchSearchIndex {
  const alias = options.indexName;
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(alias)) {
    throw new InputError(`index name ${JSON.stringify(alias)}: lowercase letters, digits, - and _ only`);
  }
  const dimensions = options.dimensions;
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 4096) {
    throw new InputError(`dimensions must be an integer in 1..4096, got ${dimensions}`);
  }
  const model = options.model ?? '';
  const hnsw: HnswOptions = { ...DEFAULT_HNSW, ...options.hnsw };
  const bulk: BulkOptions = { ...DEFAULT_BULK, ...options.bulk };
  const refreshInterval = options.refreshInterval ?? '1s';
  const vectorEncoding = options.vectorEncoding ?? 'json';
  const dualWrite = options.dualWrite ?? true;
  const log = options.logger;
  const ownClient = options.client === undefined;
  const client =
    options.client ??
    new Client({
      node: options.node ?? 'http://localhost:9200',
      ...(options.apiKey
        ? { auth: { apiKey: options.apiKey } }
        : options.username
          ? { auth: { username: options.username, password: options.password ?? '' } }
          : {}),
      requestTimeout: options.requestTimeoutMs ?? 30_000,
      maxRetries: 3,
      ...(options.caFile && { tls: { ca: readFileSync(options.caFile, 'utf8') } }),
    });
  const wanted: IndexMeta = { kaboodle_schema: ES_SCHEMA_VERSION, dimensions, model };
  // Memberships live in their own index beside the alias (elasticsearch-kaboodle-index.ts).
  const kaboodles = createElasticsearchKaboodleIndex({ client, alias, bulk, replicas: options.replicas });

  let state: ElasticsearchIndexState | undefined;
  /** The reindex this process runs, if any (others' show only as the `-next` alias). */
  let pending: { index: string } | undefined;
  const nextAlias = nextAliasOf(alias);
  /** `_meta` of physical indices seen (immutable per index). */
  const metaCache = new Map<string, Promise<IndexMeta>>();
  /** Vectors in `_source` are hidden by default from 9.2 on; asking for them needs this flag there. */
  let sourceVectorsParam: { _source_exclude_vectors?: false } = {};

  const where = `elasticsearch alias ${alias}`;
  const opened = (): ElasticsearchIndexState => {
    if (!state) throw new Error(`${where}: open() first`);
    return state;
  };
  /** Vectors can be written to and searched in the live index only if it was built for them. */
  const vectorsLive = (): boolean => {
    const s = opened();
    return s.meta.dimensions === dimensions;
  };

  const isStatus = (err: unknown, status: number): boolean => esStatus(err) === status;
  const reads = (): EsReadContext => ({
    client,
    alias,
    where,
    dimensions,
    sourceVectors: sourceVectorsParam,
  });

  const sameMeta = (a: IndexMeta, b: IndexMeta): boolean =>
    a.kaboodle_schema === b.kaboodle_schema && a.dimensions === b.dimensions && a.model === b.model;

  async function aliasIndices(): Promise<string[]> {
    try {
      const r = await client.indices.getAlias({ name: alias });
      return Object.keys(r).sort();
    } catch (err) {
      if (isStatus(err, 404)) return [];
      throw err;
    }
  }

  async function readMeta(index: string): Promise<IndexMeta> {
    const r = await client.indices.getMapping({ index });
    const m = (r[index]?.mappings?._meta ?? {}) as Partial<IndexMeta>;
    return {
      kaboodle_schema: Number(m.kaboodle_schema ?? 0),
      dimensions: Number(m.dimensions ?? 0),
      model: typeof m.model === 'string' ? m.model : '',
    };
  }

  async function createPhysicalIndex(withAlias: boolean, interval: string): Promise<string> {
    const index = physicalIndexName(alias, dimensions);
    await client.indices.create({
      index,
      ...createIndexBody(wanted, hnsw, {
        refreshInterval: interval,
        ...(withAlias && { aliases: { [alias]: {} } }),
      }),
    });
    return index;
  }

  const metaOf = (index: string): Promise<IndexMeta> => {
    let meta = metaCache.get(index);
    if (!meta) {
      meta = readMeta(index);
      meta.catch(() => metaCache.delete(index));
      metaCache.set(index, meta);
    }
    return meta;
  };

  /** Follow the live alias when another process swapped it (a reindex elsewhere committed). */
  async function followLive(live: string | undefined): Promise<void> {
    if (!state || !live || live === state.index) return;
    const meta = await metaOf(live);
    state = { ...state, index: live, meta, reindexRequired: !sameMeta(meta, wanted) };
    log?.info({ alias, index: live }, 'elasticsearch: the alias moved to a new index; following it');
  }

  /**
   * Where a write goes, asked now: after the changes it carries were received, hence after their
   * catalogue commits. A reindex that started later reads them from the catalogue itself.
   */
  async function writeTargets(): Promise<{ next?: { meta: IndexMeta } }> {
    if (!dualWrite) return {};
    const targets = await readAliasTargets(client, alias);
    await followLive(targets.live);
    return targets.next ? { next: { meta: await metaOf(targets.next) } } : {};
  }

  async function write(ops: (withVectors: boolean) => BulkOperation[]): Promise<UpsertOutcome> {
    const { next } = await writeTargets();
    if (next) {
      // The index being filled first: if the swap happens between the two writes, the live alias
      // already names it and the second write lands there too; never the other way round.
      const fits = next.meta.dimensions === dimensions && next.meta.model === model;
      await bulkIndex(client, nextAlias, ops(fits), { ...bulk, refresh: false, requireAlias: true });
    }
    const live = vectorsLive();
    const primary = await bulkIndex(client, alias, ops(live), bulk);
    if (primary.retries > 0) log?.info({ retries: primary.retries }, 'elasticsearch bulk: retried after 429');
    return { applied: primary.applied, stale: primary.stale };
  }

  const entityOps =
    (entities: Parameters<SearchIndex['upsert']>[0]) =>
    (withVectors: boolean): BulkOperation[] =>
      entities.map((e) => {
        const document = entityDocument(e, dimensions, { withVectors, vectorEncoding });
        return {
          id: docId(e),
          version: e.version,
          document,
          bytes: approxDocumentBytes(document, dimensions),
        };
      });

  const tombstoneOps = (refs: EntityRef[]) => (): BulkOperation[] =>
    refs.map((r) => ({ id: docId(r), version: r.version, document: tombstoneDocument(r) }));

  async function msearch(bodies: EsQuery[]): Promise<EsHit[][]> {
    if (bodies.length === 0) return [];
    const r = await client.msearch({ index: alias, searches: bodies.flatMap((b) => [{}, b]) });
    return r.responses.map((resp, i) => {
      if ('error' in resp) {
        const e = resp.error as { type?: string; reason?: string };
        throw new Error(
          `${where}: search ${i + 1} of ${bodies.length} failed: ${e.type ?? ''} ${e.reason ?? ''}`,
        );
      }
      return (resp.hits.hits ?? []) as EsHit[];
    });
  }

  const isZero = (v: Float32Array): boolean => v.every((x) => x === 0);

  const index: ElasticsearchSearchIndex = {
    kind: 'elasticsearch',
    dimensions,
    alias,
    client,

    describe: () => ({ ...opened(), reindexing: pending?.index }),

    async open() {
      try {
        const info = await client.info();
        const version = info.version.number;
        const [major = 0, minor = 0] = version.split('.').map(Number);
        const serverless = info.version.build_flavor === 'serverless';
        if (!serverless && (major < MIN_VERSION[0] || (major === MIN_VERSION[0] && minor < MIN_VERSION[1]))) {
          throw new Error(
            `Elasticsearch ${version} is too old: this index needs ${MIN_VERSION.join('.')} or later`,
          );
        }
        sourceVectorsParam =
          serverless || major > 9 || (major === 9 && minor >= 2) ? { _source_exclude_vectors: false } : {};

        await client.indices.putIndexTemplate({
          name: alias,
          ...indexTemplateBody(alias, {
            shards: options.shards ?? 1,
            ...(options.replicas !== undefined && { replicas: options.replicas }),
          }),
        });

        let indices = await aliasIndices();
        if (indices.length === 0) {
          if (await client.indices.exists({ index: alias })) {
            throw new Error(`an index named ${alias} exists; the search index needs that name for its alias`);
          }
          const mine = await createPhysicalIndex(true, refreshInterval);
          indices = await aliasIndices();
          // Two replicas starting at once may each create an index under the alias: the oldest
          // name wins and the others remove their own, so the alias ends on exactly one index.
          if (indices.length > 1 && indices[0] !== mine) {
            await client.indices.delete({ index: mine });
            indices = await aliasIndices();
          }
          log?.info({ alias, index: mine }, 'elasticsearch: created the search index');
        }
        if (indices.length > 1) {
          log?.warn(
            { alias, indices },
            'elasticsearch: the alias points at several indices; using the oldest',
          );
        }
        const current = indices[0]!;
        const meta = await readMeta(current);
        const reindexRequired = !sameMeta(meta, wanted);
        if (reindexRequired) {
          log?.warn(
            { alias, index: current, has: meta, wants: wanted },
            'elasticsearch: the search index was built for other vectors; rebuild it (reads stay on it until then)',
          );
        }
        await kaboodles.open();
        state = {
          alias,
          index: current,
          meta,
          reindexRequired,
          reindexing: undefined,
          serverVersion: version,
        };
      } catch (err) {
        throw wrapError(`opening ${where}`, err);
      }
    },

    async upsert(entities) {
      opened();
      if (entities.length === 0) return { applied: 0, stale: 0 };
      try {
        return await write(entityOps(entities));
      } catch (err) {
        if (isDomainError(err)) throw err;
        throw wrapError(`indexing ${entities.length} entities into ${where}`, err);
      }
    },

    async delete(refs) {
      opened();
      if (refs.length === 0) return { applied: 0, stale: 0 };
      try {
        return await write(tombstoneOps(refs));
      } catch (err) {
        if (isDomainError(err)) throw err;
        throw wrapError(`deleting ${refs.length} entities from ${where}`, err);
      }
    },

    async deleteOwner(ownerId) {
      opened();
      if (typeof ownerId !== 'string' || ownerId === '') throw new InputError('ownerId is required');
      const { next } = await writeTargets();
      const targets = [...(next ? [nextAlias] : []), alias];
      try {
        for (const target of targets) {
          await client.deleteByQuery({
            index: target,
            query: { term: { owner_id: ownerId } },
            conflicts: 'proceed',
            refresh: true,
            wait_for_completion: true,
          });
        }
      } catch (err) {
        throw wrapError(`deleting owner ${ownerId}'s entities from ${where}`, err);
      }
      await kaboodles.deleteOwner(ownerId);
    },

    async search(query: SearchQuery): Promise<SearchHit[]> {
      opened();
      const limit = clampLimit(query.limit, 100);
      // Only a kaboodle's members: none means no result (and no request at all).
      if (query.only && query.only.length === 0) return [];
      const filter = entityFilter({
        ...query,
        onlyIds: query.only?.map((m) => docId({ ...m, ownerId: query.ownerId })),
      });
      const text = (query.text ?? '').trim();
      const wantsVector = query.mode !== 'keyword';
      if (wantsVector) assertQueryVector(query.vector, dimensions, query.mode);
      // A query vector the live index cannot compare (rebuild pending for a new model) or a zero
      // vector (nothing to embed) gives no vector list: keyword still answers in hybrid.
      const vector = wantsVector && vectorsLive() && !isZero(query.vector!) ? query.vector! : undefined;
      const depth = query.mode === 'hybrid' ? fusionDepth(limit) : limit;
      const excerpts = query.withExcerpts === true;

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
        lists = await msearch(bodies);
      } catch (err) {
        throw wrapError(`searching ${where}`, err);
      }
      const knnHits = slot.knn >= 0 ? lists[slot.knn]! : [];
      const bm25Hits = slot.bm25 >= 0 ? lists[slot.bm25]! : [];
      const passageHits = new Map((slot.passages >= 0 ? lists[slot.passages]! : []).map((h) => [h._id, h]));
      const bm25ById = new Map(bm25Hits.map((h) => [h._id, h]));

      let ranked: Array<{ hit: EsHit; score: number; raw?: number }>;
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
      return ranked.slice(0, limit).map(({ hit, score, raw }) => {
        let excerpt: string | undefined;
        if (excerpts) {
          const byOffset = new Map<number, PassageCandidate>();
          for (const c of [
            ...passageCandidates(bm25ById.get(hit._id), false),
            ...passageCandidates(passageHits.get(hit._id), true),
          ]) {
            const prev = byOffset.get(c.offset);
            byOffset.set(c.offset, {
              ...prev,
              ...c,
              ...(c.cosine === undefined && prev?.cosine !== undefined && { cosine: prev.cosine }),
            });
          }
          excerpt = chooseExcerpt(
            [...byOffset.values()].sort((a, b) => a.offset - b.offset),
            text,
          );
        }
        const found = hitFromSource(hit, score, excerpt);
        return raw === undefined ? found : { ...found, raw };
      });
    },

    related(query: RelatedQuery): Promise<SearchHit[]> {
      opened();
      return relatedEntities(reads(), query);
    },

    listLive(options) {
      opened();
      return listLiveEntities(reads(), options);
    },

    versionOf(ref) {
      opened();
      return versionOfEntity(reads(), ref);
    },

    stats(ownerId?: string): Promise<IndexStats> {
      opened();
      return indexStats(reads(), ownerId);
    },

    kaboodles: {
      upsert(k) {
        opened();
        return kaboodles.upsert(k);
      },
      delete(r) {
        opened();
        return kaboodles.delete(r);
      },
      get(ownerId, id) {
        opened();
        return kaboodles.get(ownerId, id);
      },
      listLive(o) {
        opened();
        return kaboodles.listLive(o);
      },
    },

    async ping() {
      try {
        const { live } = await readAliasTargets(client, alias);
        if (!live) throw new Error(`the alias ${alias} points at no index`);
        await followLive(live);
      } catch (err) {
        throw wrapError(`checking ${where}`, err);
      }
    },

    async close() {
      if (ownClient) await client.close();
    },

    async reindex(fill) {
      const target = await index.beginReindex();
      try {
        await fill(target);
        await target.commit();
      } catch (err) {
        await target.abort().catch((abortErr: unknown) => {
          log?.warn(
            { err: abortErr, index: target.index },
            'elasticsearch: could not drop the aborted index',
          );
        });
        throw err;
      }
    },

    async beginReindex(): Promise<ElasticsearchReindex> {
      opened();
      if (pending)
        throw new ConflictError(`a reindex of ${alias} into ${pending.index} is already under way`);
      const session = await beginReindex({
        client,
        alias,
        createIndex: () => createPhysicalIndex(false, '-1'),
        entityOps: (entities) => entityOps(entities)(true),
        tombstoneOps: (refs) => tombstoneOps(refs)(),
        bulk,
        refreshInterval,
        keepOldIndices: options.keepOldIndices ?? false,
        leaseTtlMs: options.reindexLeaseMs ?? 120_000,
        log,
        onCommitted: (target) => {
          pending = undefined;
          state = { ...opened(), index: target, meta: wanted, reindexRequired: false };
        },
      });
      pending = { index: session.index };
      const abort = session.abort.bind(session);
      return {
        ...session,
        index: session.index,
        abort: async () => {
          pending = undefined;
          await abort();
        },
      };
    },
  };
  return index;
}
