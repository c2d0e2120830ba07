// SearchIndex on Elasticsearch (a cluster; the Helm chart's ECK). Reads and writes go through an
// alias; the physical index behind it is `<alias>-<dims>d-<timestamp>`, so a reindex or an
// embedding-model change builds a new index beside the old one and swaps the alias atomically. Any
// number of replicas share it: a reindex runs once (a lease) and every replica writes to both
// indices until the swap (elasticsearch-coordination.ts, elasticsearch-reindex.ts).
// This file holds the index's state and its writes; the parts: opening the alias
// (elasticsearch-open.ts), mappings, bulk, hybrid search (elasticsearch-search.ts), reads, reindex.
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
import { DEFAULT_BULK, bulkIndex } from './elasticsearch-bulk.ts';
import type { BulkOperation, BulkOptions } from './elasticsearch-bulk.ts';
import { nextAliasOf, readAliasTargets } from './elasticsearch-coordination.ts';
import { createElasticsearchKaboodleIndex } from './elasticsearch-kaboodle-index.ts';
import {
  DEFAULT_HNSW,
  approxDocumentBytes,
  ES_SCHEMA_VERSION,
  docId,
  entityDocument,
  tombstoneDocument,
} from './elasticsearch-mappings.ts';
import type { HnswOptions, IndexMeta, VectorEncoding } from './elasticsearch-mappings.ts';
import { createPhysicalIndex, openAlias, readMeta, sameMeta } from './elasticsearch-open.ts';
import type { EsIndexSetup } from './elasticsearch-open.ts';
import {
  indexStats,
  listLiveEntities,
  ownerEntityCount,
  relatedEntities,
  versionOfEntity,
} from './elasticsearch-reads.ts';
import type { EsReadContext } from './elasticsearch-reads.ts';
import { beginReindex } from './elasticsearch-reindex.ts';
import type { ElasticsearchReindex } from './elasticsearch-reindex.ts';
import { hitsOfEntities, searchEntities, searchEntityKeys } from './elasticsearch-search.ts';

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
  const setup: EsIndexSetup = {
    client,
    alias,
    dimensions,
    wanted,
    hnsw,
    shards: options.shards ?? 1,
    replicas: options.replicas,
    log,
  };
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

  const reads = (): EsReadContext => ({
    client,
    alias,
    where,
    dimensions,
    sourceVectors: sourceVectorsParam,
  });

  const metaOf = (index: string): Promise<IndexMeta> => {
    let meta = metaCache.get(index);
    if (!meta) {
      meta = readMeta(client, index);
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

  const index: ElasticsearchSearchIndex = {
    kind: 'elasticsearch',
    dimensions,
    alias,
    client,

    describe: () => ({ ...opened(), reindexing: pending?.index }),

    async open() {
      try {
        const opening = await openAlias(setup, refreshInterval);
        sourceVectorsParam = opening.sourceVectors;
        await kaboodles.open();
        state = {
          alias,
          index: opening.index,
          meta: opening.meta,
          reindexRequired: opening.reindexRequired,
          reindexing: undefined,
          serverVersion: opening.serverVersion,
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

    search(query: SearchQuery): Promise<SearchHit[]> {
      opened();
      return searchEntities({ client, alias, where, dimensions, vectorsLive }, query);
    },

    searchKeys(query) {
      opened();
      return searchEntityKeys({ client, alias, where, dimensions, vectorsLive }, query);
    },

    hitsOf(query) {
      opened();
      return hitsOfEntities({ client, alias, where, dimensions, vectorsLive }, query);
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

    entityCount(ownerId: string): Promise<number> {
      opened();
      return ownerEntityCount(reads(), ownerId);
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
        createIndex: () => createPhysicalIndex(setup, false, '-1'),
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
