export * from './event-bus.ts';
export * from './blob-store.ts';
export * from './database.ts';
