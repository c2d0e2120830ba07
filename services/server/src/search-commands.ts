// `kaboodle search reindex [--if-needed]`: the search service's identity, its Elasticsearch, the
// processing service for the embedding space and the catalogue to read from, as the search pods use.
import { grpcClientTls } from '@kaboodle/platform';
import type { ChannelCredentials, GrpcTlsFiles, Logger } from '@kaboodle/platform';
import { openSearchIndex } from '@kaboodle/search';
import { connectCatalogue, connectProcessing } from '@kaboodle/search';
import { runReindexJob } from '@kaboodle/search';
import type { ElasticsearchSearchIndex } from '@kaboodle/search';
import type { SearchConfig } from '@kaboodle/search';

interface ReindexConfig extends SearchConfig {
  KABOODLE_DATA_DIR: string;
  PROCESSING_GRPC_ADDRESS?: string | undefined;
  GRPC_TLS_CERT_FILE?: string | undefined;
  GRPC_TLS_KEY_FILE?: string | undefined;
  GRPC_TLS_CA_FILE?: string | undefined;
}

export async function reindexCommand(
  config: ReindexConfig,
  options: { ifNeeded: boolean; logger: Logger; print: (line: string) => void },
): Promise<number> {
  const problems = [
    ...(config.ELASTICSEARCH_URL
      ? []
      : ['ELASTICSEARCH_URL: is required (the embedded index rebuilds itself when search starts)']),
    ...(config.PROCESSING_GRPC_ADDRESS ? [] : ['PROCESSING_GRPC_ADDRESS: is required (the embedding space)']),
    ...(config.CATALOGUE_GRPC_ADDRESS ? [] : ['CATALOGUE_GRPC_ADDRESS: is required (what to index)']),
  ];
  if (problems.length > 0) {
    for (const p of problems) console.error(`kaboodle: ${p}`);
    return 2;
  }
  const tls: GrpcTlsFiles | undefined =
    config.GRPC_TLS_CERT_FILE && config.GRPC_TLS_KEY_FILE && config.GRPC_TLS_CA_FILE
      ? {
          certFile: config.GRPC_TLS_CERT_FILE,
          keyFile: config.GRPC_TLS_KEY_FILE,
          caFile: config.GRPC_TLS_CA_FILE,
        }
      : undefined;
  const credentials: { credentials?: ChannelCredentials } = tls ? { credentials: grpcClientTls(tls) } : {};
  const processing = connectProcessing(
    { kind: 'grpc', address: config.PROCESSING_GRPC_ADDRESS!, ...credentials },
    options.logger,
  );
  const catalogue = connectCatalogue(
    { kind: 'grpc', address: config.CATALOGUE_GRPC_ADDRESS!, ...credentials },
    options.logger,
  )!;
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), 300_000);
  try {
    const space = await processing.space(stop.signal);
    const index = openSearchIndex({ config, space, logger: options.logger }) as ElasticsearchSearchIndex;
    await index.open();
    try {
      const outcome = await runReindexJob({
        index,
        catalogue,
        dimensions: space.dimensions,
        ifNeeded: options.ifNeeded,
        logger: options.logger,
      });
      options.print(
        outcome === 'up-to-date'
          ? `the search index fits ${space.model || 'the embedding model'} (${space.dimensions} dimensions): nothing to do`
          : outcome === 'reindexed'
            ? `the search index was rebuilt into ${index.describe().index} and swapped in`
            : `another process rebuilt the search index (${index.describe().index})`,
      );
      return 0;
    } finally {
      await index.close();
    }
  } catch (err) {
    console.error(`kaboodle: search reindex: ${(err as Error).message}`);
    return 1;
  } finally {
    clearTimeout(timer);
    processing.close();
    catalogue.close();
  }
}
