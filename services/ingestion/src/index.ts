import type { OperationSpec } from '@kaboodle/platform';
import { fileOperations } from './ingestion.api.ts';
import { sampleOperations } from './samples/samples.api.ts';

export * from './module.ts';
/** Every ingestion operation, for the merged OpenAPI document. */
export const ingestionOperations: readonly OperationSpec[] = [...fileOperations, ...sampleOperations];

// Also public: what the server composes and the contract tests exercise (no deep imports).
export { ingestionConfig } from './ingestion-config.ts';
