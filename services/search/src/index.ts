export * from './module.ts';
export type * from './processing-client.ts';
