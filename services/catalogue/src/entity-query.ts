// What the repositories share: id checks, numeric normalisation (numeric comes back as a string),
// and the sort expressions and keyset condition for listing and keyset paging.
import { sql } from '@kaboodle/platform';
import type { RawBuilder } from '@kaboodle/platform';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids come from URLs: anything that is not a UUID names nothing (and never reaches SQL as a uuid). */
export const isEntityId = (id: unknown): id is string => typeof id === 'string' && UUID.test(id);

export const toNumber = (v: unknown): number => (typeof v === 'number' ? v : Number(v));
export const toNumberOrNull = (v: unknown): number | null =>
  v === null || v === undefined ? null : toNumber(v);

export type Order = 'asc' | 'desc';

export interface SortSpec {
  /** SQL expression ordered by (case-insensitive text, missing year as 0, as the spec says). */
  expr: string;
  /** Type the keyset value is cast back to. */
  cast: string;
}

/** Keyset condition "after (key, id)" for the given direction (the expression is one of the sort constants). */
export function keysetAfter(sort: SortSpec, order: Order, key: string, id: string): RawBuilder<boolean> {
  const op = order === 'asc' ? '>' : '<';
  return sql<boolean>`(${sql.raw(sort.expr)}, id) ${sql.raw(op)} (${key}::${sql.raw(sort.cast)}, ${id}::uuid)`;
}

export interface Page {
  page: number;
  limit: number;
}
