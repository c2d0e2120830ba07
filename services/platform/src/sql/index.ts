// Typed SQL over the Database port: the compile-only query builder and the row-type generator.
export * from './query-builder.ts';
export * from './generate-db-types.ts';
export { sql } from 'kysely';
export type { Insertable, RawBuilder, Selectable, Updateable } from 'kysely';
