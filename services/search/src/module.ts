// The search service as a module: owns the search index (hybrid keyword + vector). Query
// embeddings come from the processing service: in-process when both run here, gRPC otherwise.
import { checkGrpcHealth } from '@kaboodle/platform';
import type { EventBus, HealthCheck, Logger, ServiceModule, TokenVerifier } from '@kaboodle/platform';
import type { CatalogueModuleHandle, ProcessingModuleHandle } from './processing-client.ts';
import type { SearchConfig } from './search-config.ts';

export interface SearchModuleDeps {
  bus: EventBus;
  verifier: TokenVerifier;
  logger: Logger;
  processing: ProcessingModuleHandle;
  /** Undefined when split without CATALOGUE_GRPC_ADDRESS: rebuilds are then unavailable. */
  catalogue: CatalogueModuleHandle | undefined;
  config: SearchConfig & { KABOODLE_DATA_DIR: string };
}

export function createSearchModule({ processing }: SearchModuleDeps): ServiceModule {
  const checks: HealthCheck[] = [];
  if (processing.kind === 'grpc') {
    // Split mode: search is not ready while the processing service (query embeddings) is unreachable.
    checks.push({
      name: 'search.processing-grpc',
      check: () => checkGrpcHealth(processing.address, { timeoutMs: 1500 }),
    });
  }
  return { name: 'search', checks };
}
