// The search service's HTTP operations alone (declarations, no engines): the package's "./api"
// entry, so the web target can publish them without loading the index engines (LanceDB).
import type { OperationSpec } from '@kaboodle/platform';
import { photoSearchOperations } from './photo-search.api.ts';
import { searchOperations as textSearchOperations } from './search.api.ts';

export { photoSearchOperations };
/** The search service's HTTP operations: text search and find by photo. */
export const searchOperations: readonly OperationSpec[] = [...textSearchOperations, ...photoSearchOperations];
