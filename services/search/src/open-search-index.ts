// Picks the index adapter by configuration alone (architecture.md): ELASTICSEARCH_URL set →
// Elasticsearch (cluster), otherwise the embedded LanceDB index under KABOODLE_DATA_DIR/search.
import path from 'node:path';
import type { Logger } from '@kaboodle/platform';
import { createElasticsearchImageIndex } from './index/elasticsearch-image-index.ts';
import { createElasticsearchSearchIndex } from './index/elasticsearch-search-index.ts';
import type { ImageIndex } from './index/image-index.port.ts';
import { createLanceDbImageIndex } from './index/lancedb-image-index.ts';
import { createLanceDbSearchIndex } from './index/lancedb-search-index.ts';
import type { SearchIndex } from './index/search-index.port.ts';
import type { EmbeddingSpace } from './processing-client.ts';
import type { SearchConfig } from './search-config.ts';

export interface OpenSearchIndexOptions {
  config: SearchConfig & { KABOODLE_DATA_DIR: string };
  /** The embedder's space: the index is created for it and refuses vectors of another size. */
  space: EmbeddingSpace;
  logger: Logger;
}

export function openSearchIndex({ config, space, logger }: OpenSearchIndexOptions): SearchIndex {
  if (config.ELASTICSEARCH_URL) {
    return createElasticsearchSearchIndex({
      node: config.ELASTICSEARCH_URL,
      indexName: config.SEARCH_INDEX_NAME,
      dimensions: space.dimensions,
      ...(space.model ? { model: space.model } : {}),
      ...(config.ELASTICSEARCH_CA_FILE ? { caFile: config.ELASTICSEARCH_CA_FILE } : {}),
      ...(config.ELASTICSEARCH_API_KEY ? { apiKey: config.ELASTICSEARCH_API_KEY } : {}),
      ...(config.ELASTICSEARCH_USERNAME ? { username: config.ELASTICSEARCH_USERNAME } : {}),
      ...(config.ELASTICSEARCH_PASSWORD ? { password: config.ELASTICSEARCH_PASSWORD } : {}),
      logger,
    });
  }
  return createLanceDbSearchIndex({
    dir: path.join(config.KABOODLE_DATA_DIR, 'search'),
    dimensions: space.dimensions,
    ...(space.model ? { model: space.model } : {}),
    table: embeddedTableName(config.SEARCH_INDEX_NAME, space),
    memoryIndex: config.SEARCH_MEMORY_INDEX_MAX > 0 ? { maxVectors: config.SEARCH_MEMORY_INDEX_MAX } : false,
    logger,
  });
}

/**
 * One embedded table per embedding space: when the model or its dimensions change, a new, empty
 * table is opened (and filled from the catalogue on start) instead of the old one refusing to open.
 */
export function embeddedTableName(base: string, space: EmbeddingSpace): string {
  const model = (space.model ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 48);
  return `${base}_${space.dimensions}d${model ? `_${model}` : ''}`;
}

/** The image vector index beside the text index: the same engine, one index per image model. */
export function openImageIndex({ config, space }: Omit<OpenSearchIndexOptions, 'logger'>): ImageIndex {
  if (config.ELASTICSEARCH_URL) {
    return createElasticsearchImageIndex({
      node: config.ELASTICSEARCH_URL,
      indexName: config.SEARCH_INDEX_NAME,
      dimensions: space.dimensions,
      model: space.model,
      ...(config.ELASTICSEARCH_API_KEY ? { apiKey: config.ELASTICSEARCH_API_KEY } : {}),
      ...(config.ELASTICSEARCH_USERNAME ? { username: config.ELASTICSEARCH_USERNAME } : {}),
      ...(config.ELASTICSEARCH_PASSWORD ? { password: config.ELASTICSEARCH_PASSWORD } : {}),
    });
  }
  return createLanceDbImageIndex({
    dir: path.join(config.KABOODLE_DATA_DIR, 'search'),
    dimensions: space.dimensions,
    model: space.model,
    tableName: embeddedTableName(`${config.SEARCH_INDEX_NAME}_images`, space),
  });
}
