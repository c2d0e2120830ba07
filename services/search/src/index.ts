export * from './module.ts';
export type * from './processing-client.ts';
export { searchOperations } from './search.api.ts';
