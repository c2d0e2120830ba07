// The processing service as a module: stateless workers that turn a stored file into a document or
// an inventory item. The AI engine lives in extract/ (and enrich/, embed/, vision/ as they land);
// its gRPC API (Embed, Analyze) and the file.uploaded consumer are wired here.
import type { BlobStore, EventBus, Logger, ServiceModule } from '@kaboodle/platform';

export interface ProcessingModuleDeps {
  bus: EventBus;
  blobs: BlobStore;
  logger: Logger;
}

export function createProcessingModule(_deps: ProcessingModuleDeps): ServiceModule {
  return { name: 'processing', grpc: [] };
}
