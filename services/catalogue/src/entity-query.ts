// What the document and inventory repositories share: id checks, row normalisation (numeric comes
// back as a string), and the sort expressions and keyset condition for listing and keyset paging.
import { sql } from '@kaboodle/platform';
import type { RawBuilder } from '@kaboodle/platform';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids come from URLs: anything that is not a UUID names nothing (and never reaches SQL as a uuid). */
export const isEntityId = (id: unknown): id is string => typeof id === 'string' && UUID.test(id);

export const toNumber = (v: unknown): number => (typeof v === 'number' ? v : Number(v));
export const toNumberOrNull = (v: unknown): number | null =>
  v === null || v === undefined ? null : toNumber(v);

/** jsonb comes back parsed from both adapters; tolerate text just in case a driver hands it over raw. */
export function json<T>(v: unknown, fallback: T): T {
  if (v === null || v === undefined) return fallback;
  if (typeof v === 'string') {
    try {
      return JSON.parse(v) as T;
    } catch {
      return fallback;
    }
  }
  return v as T;
}

/** A parameter list that hands out `$n` placeholders. */
export class Params {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

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
