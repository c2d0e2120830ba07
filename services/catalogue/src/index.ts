import type { OperationSpec } from '@kaboodle/platform';
import { activityOperations } from './activity.api.ts';
import { documentOperations } from './documents.api.ts';
import { insightsOperations } from './insights.api.ts';
import { inventoryOperations } from './inventory.api.ts';
import { kaboodleOperations } from './kaboodle.api.ts';

export * from './module.ts';
export {
  activityOperations,
  documentOperations,
  insightsOperations,
  inventoryOperations,
  kaboodleOperations,
};
export type { LibrarySearch, LibrarySearchHandle, LibraryHit } from './library-search.port.ts';
/** The catalogue's HTTP operations. */
export const catalogueOperations: readonly OperationSpec[] = [
  ...documentOperations,
  ...inventoryOperations,
  ...activityOperations,
  ...kaboodleOperations,
  ...insightsOperations,
];

// Also public: what the server composes and the contract tests exercise (no deep imports).
export { catalogueConfig } from './catalogue-config.ts';
export { createDocumentRepository } from './document.repository.ts';
export { createInventoryRepository } from './inventory.repository.ts';
export { connectLibrarySearch } from './library-search.grpc.ts';
