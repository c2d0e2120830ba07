export * from './limits.ts';
export * from './worker-pool.ts';
