import type { OperationSpec } from '@kaboodle/platform';
import { activityOperations } from './activity.api.ts';
import { documentOperations } from './documents.api.ts';
import { insightsOperations } from './insights.api.ts';
import { kaboodleOperations } from './kaboodle.api.ts';

export * from './module.ts';
export { activityOperations, documentOperations, insightsOperations, kaboodleOperations };
export type { LibrarySearch, LibrarySearchHandle, LibraryHit } from './library-search.port.ts';
/** The catalogue's HTTP operations (the inventory's join when they are declared). */
export const catalogueOperations: readonly OperationSpec[] = [
  ...documentOperations,
  ...activityOperations,
  ...kaboodleOperations,
  ...insightsOperations,
];
