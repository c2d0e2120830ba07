export * from './module.ts';
export { documentOperations } from './documents.api.ts';
export { activityOperations } from './activity.api.ts';
