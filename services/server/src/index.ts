// @kaboodle/server: the one entrypoint's public surface, for the tests that start Kaboodle in-process
// and read its merged API document (production runs src/main.ts, which imports nothing from here).
export {
  EngineUnavailableError,
  openServiceDatabase,
  parseKaboodleConfig,
  planTargets,
  SERVICES,
  startKaboodle,
  VERSION,
} from './kaboodle.ts';
export type { Kaboodle, KaboodleConfig, KaboodleOptions } from './kaboodle.ts';
export { ALL_OPERATIONS, API_DESCRIPTION, mergedDocument } from './api-operations.ts';
