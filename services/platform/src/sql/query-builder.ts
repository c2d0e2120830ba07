// Typed SQL on the Database port: Kysely builds the statement (table and column names and the row
// types come from the types generated from the migrations), the port runs it. Kysely only compiles
// here (its DummyDriver never connects), so one statement runs the same way on pg and PGlite, inside
// or outside a transaction, with the adapters' serialization, after-commit hooks and error wrapping
// unchanged. See docs/adr/0006-typed-sql-with-kysely.md.
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
} from 'kysely';
import type { ColumnType, Compilable, CompiledQuery, RawBuilder } from 'kysely';
import type { Queryable } from '../ports/database.ts';

/** A compile-only Kysely for one service's schema (its generated `DB` interface). */
export function createQueryBuilder<DB>(): Kysely<DB> {
  return new Kysely<DB>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}

// Compiles raw statements (`sql<Row>\`…\``): the dialect is all a RawBuilder needs to compile.
const rawCompiler = createQueryBuilder<unknown>();

/**
 * A built statement (Kysely's builders), or a raw one typed by its rows (`sql<Row>\`…\``), for SQL
 * kept by hand where it is measured or clearer (see the ADR).
 */
export type Statement<O> = Compilable<O> | RawBuilder<O>;

function compile<O>(query: Statement<O>): CompiledQuery<O> {
  return 'isRawBuilder' in query ? query.compile(rawCompiler) : query.compile();
}

/** Run a built statement on q (the database or a transaction); its rows, typed by the statement. */
export async function runAll<O>(q: Queryable, query: Statement<O>): Promise<O[]> {
  const compiled = compile(query);
  const { rows } = await q.query<O>(compiled.sql, [...compiled.parameters]);
  return rows;
}

/** The first row of a built statement, or null. */
export async function runFirst<O>(q: Queryable, query: Statement<O>): Promise<O | null> {
  const rows = await runAll(q, query);
  return rows[0] ?? null;
}

/** How many rows a built statement changed (UPDATE and DELETE without RETURNING). */
export async function runCount(q: Queryable, query: Statement<unknown>): Promise<number> {
  const compiled = compile(query);
  return (await q.query(compiled.sql, [...compiled.parameters])).rowCount;
}

declare const jsonbParam: unique symbol;
/** A value made by `jsonb()`: the only thing a Jsonb column accepts on insert and update. */
export interface JsonbParam<T> {
  readonly [jsonbParam]: T;
}

/**
 * A jsonb column holding T (named in the generated types): read as T, written only through jsonb(),
 * because pg would send a bare JS array as a Postgres array literal, not as JSON.
 */
export type Jsonb<T> = ColumnType<T, JsonbParam<T>, JsonbParam<T>>;

/** A jsonb parameter: the value as JSON text, cast to jsonb. */
export function jsonb<T>(value: T): RawBuilder<JsonbParam<T>> {
  return sql<JsonbParam<T>>`${JSON.stringify(value)}::jsonb`;
}
