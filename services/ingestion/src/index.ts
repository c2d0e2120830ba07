export * from './module.ts';
