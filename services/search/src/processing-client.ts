import type { ServiceModule } from '@kaboodle/platform';

/** How search reaches the processing service: the module itself in one process, gRPC when split. */
export type ProcessingModuleHandle =
  { kind: 'in-process'; module: () => ServiceModule } | { kind: 'grpc'; address: string };

/** How search reaches the catalogue (index rebuilds): in-process, gRPC when split, or not at all. */
export type CatalogueModuleHandle =
  { kind: 'in-process'; module: () => ServiceModule } | { kind: 'grpc'; address: string };
