export * from './module.ts';
export { ingestionOperations } from './ingestion.api.ts';
