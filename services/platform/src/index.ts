// The platform kit's public surface. One export line per area; see README.md for usage.
export * from './errors.ts';
export * from './ports/index.ts';
export type * from './module.ts';
export * from './auth/index.ts';
export * from './config/index.ts';
export * from './log/index.ts';
export * from './telemetry/index.ts';
export * from './http/index.ts';
export * from './grpc/index.ts';
export * from './adapters/open-database.ts';
export * from './adapters/open-blob-store.ts';
export * from './outbox/index.ts';
