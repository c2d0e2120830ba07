// What the document and inventory repositories share: id checks, row normalisation (pg and PGlite
// return bigint and numeric as strings), and the WHERE/ORDER BY builders for listing and keyset paging.

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

/** Keyset condition "after (key, id)" for the given direction. */
export function keysetAfter(p: Params, sort: SortSpec, order: Order, key: string, id: string): string {
  const op = order === 'asc' ? '>' : '<';
  return `(${sort.expr}, id) ${op} (${p.add(key)}::${sort.cast}, ${p.add(id)}::uuid)`;
}

export const orderBy = (sort: SortSpec, order: Order): string =>
  `ORDER BY ${sort.expr} ${order.toUpperCase()}, id ${order.toUpperCase()}`;

export interface Page {
  page: number;
  limit: number;
}
