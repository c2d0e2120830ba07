export * from './errors.ts';
export * from './ports/index.ts';
export type * from './module.ts';
export * from './auth/index.ts';
