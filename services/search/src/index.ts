import type { OperationSpec } from '@kaboodle/platform';
import { photoSearchOperations } from './photo-search.api.ts';
import { searchOperations as textSearchOperations } from './search.api.ts';

export * from './module.ts';
export type * from './processing-client.ts';
export { photoSearchOperations };
/** The search service's HTTP operations: text search and find by photo. */
export const searchOperations: readonly OperationSpec[] = [...textSearchOperations, ...photoSearchOperations];
