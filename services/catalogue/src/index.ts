import type { OperationSpec } from '@kaboodle/platform';
import { activityOperations } from './activity.api.ts';
import { documentOperations } from './documents.api.ts';

export * from './module.ts';
export { activityOperations, documentOperations };
/** The catalogue's HTTP operations (the inventory's join when they are declared). */
export const catalogueOperations: readonly OperationSpec[] = [...documentOperations, ...activityOperations];
