// Opening the Elasticsearch search index: the cluster must be new enough, the index template is
// installed, and the alias gets its physical index `<alias>-<dims>d-<timestamp>` (created when
// missing; when replicas race, the oldest wins). Says whether that index fits the configured model.
import type { Client } from '@elastic/elasticsearch';
import type { Logger } from '@kaboodle/platform';
import { esStatus } from './elasticsearch-bulk.ts';
import { createIndexBody, indexTemplateBody, physicalIndexName } from './elasticsearch-mappings.ts';
import type { HnswOptions, IndexMeta } from './elasticsearch-mappings.ts';

/**
 * Nested kNN with top-level pre-filters came in 8.11; several inner hits per nested kNN hit in 8.13;
 * 8.14 fixed nested kNN filters that could match nested documents.
 */
const MIN_VERSION: [number, number] = [8, 14];

/** What creating and checking the alias's physical indices needs. */
export interface EsIndexSetup {
  client: Client;
  alias: string;
  dimensions: number;
  /** The `_meta` an index built for this configuration carries. */
  wanted: IndexMeta;
  hnsw: HnswOptions;
  shards: number;
  /** Unset: the cluster's default. */
  replicas: number | undefined;
  log: Logger | undefined;
}

export interface OpenedAlias {
  /** The physical index the alias points at. */
  index: string;
  meta: IndexMeta;
  /** The index was built for other vectors (dims, model or schema differ): rebuild it. */
  reindexRequired: boolean;
  serverVersion: string;
  /** `_source_exclude_vectors: false` where vectors are hidden from `_source` by default (9.2+). */
  sourceVectors: { _source_exclude_vectors?: false };
}

export const sameMeta = (a: IndexMeta, b: IndexMeta): boolean =>
  a.kaboodle_schema === b.kaboodle_schema && a.dimensions === b.dimensions && a.model === b.model;

/** The physical indices behind the alias, oldest name first. */
export async function aliasIndices(client: Client, alias: string): Promise<string[]> {
  try {
    const r = await client.indices.getAlias({ name: alias });
    return Object.keys(r).sort();
  } catch (err) {
    if (esStatus(err) === 404) return [];
    throw err;
  }
}

export async function readMeta(client: Client, index: string): Promise<IndexMeta> {
  const r = await client.indices.getMapping({ index });
  const m = (r[index]?.mappings?._meta ?? {}) as Partial<IndexMeta>;
  return {
    kaboodle_schema: Number(m.kaboodle_schema ?? 0),
    dimensions: Number(m.dimensions ?? 0),
    model: typeof m.model === 'string' ? m.model : '',
  };
}

/** A new physical index for this configuration, under the alias or (for a reindex) beside it. */
export async function createPhysicalIndex(
  setup: EsIndexSetup,
  withAlias: boolean,
  refreshInterval: string,
): Promise<string> {
  const index = physicalIndexName(setup.alias, setup.dimensions);
  await setup.client.indices.create({
    index,
    ...createIndexBody(setup.wanted, setup.hnsw, {
      refreshInterval,
      ...(withAlias && { aliases: { [setup.alias]: {} } }),
    }),
  });
  return index;
}

export async function openAlias(setup: EsIndexSetup, refreshInterval: string): Promise<OpenedAlias> {
  const { client, alias, log, wanted } = setup;
  const info = await client.info();
  const version = info.version.number;
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const serverless = info.version.build_flavor === 'serverless';
  if (!serverless && (major < MIN_VERSION[0] || (major === MIN_VERSION[0] && minor < MIN_VERSION[1]))) {
    throw new Error(
      `Elasticsearch ${version} is too old: this index needs ${MIN_VERSION.join('.')} or later`,
    );
  }
  const sourceVectors: OpenedAlias['sourceVectors'] =
    serverless || major > 9 || (major === 9 && minor >= 2) ? { _source_exclude_vectors: false } : {};

  await client.indices.putIndexTemplate({
    name: alias,
    ...indexTemplateBody(alias, {
      shards: setup.shards,
      ...(setup.replicas !== undefined && { replicas: setup.replicas }),
    }),
  });

  let indices = await aliasIndices(client, alias);
  if (indices.length === 0) {
    if (await client.indices.exists({ index: alias })) {
      throw new Error(`an index named ${alias} exists; the search index needs that name for its alias`);
    }
    const mine = await createPhysicalIndex(setup, true, refreshInterval);
    indices = await aliasIndices(client, alias);
    // Two replicas starting at once may each create an index under the alias: the oldest
    // name wins and the others remove their own, so the alias ends on exactly one index.
    if (indices.length > 1 && indices[0] !== mine) {
      await client.indices.delete({ index: mine });
      indices = await aliasIndices(client, alias);
    }
    log?.info({ alias, index: mine }, 'elasticsearch: created the search index');
  }
  if (indices.length > 1) {
    log?.warn({ alias, indices }, 'elasticsearch: the alias points at several indices; using the oldest');
  }
  const current = indices[0]!;
  const meta = await readMeta(client, current);
  const reindexRequired = !sameMeta(meta, wanted);
  if (reindexRequired) {
    log?.warn(
      { alias, index: current, has: meta, wants: wanted },
      'elasticsearch: the search index was built for other vectors; rebuild it (reads stay on it until then)',
    );
  }
  return { index: current, meta, reindexRequired, serverVersion: version, sourceVectors };
}
