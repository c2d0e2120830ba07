// Short names for the generated API types (kaboodle-api.gen.ts, from the OpenAPI document): one
// schema, one operation's query, JSON body or JSON answer. The frontends type their calls with these
// instead of keeping copies of the server's shapes.
import type { components, operations } from './kaboodle-api.gen.ts';

type Schemas = components['schemas'];
type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;

/** A named schema of the document: ApiSchema<'Document'>, ApiSchema<'FileStatus'>… */
export type ApiSchema<N extends keyof Schemas> = Schemas[N];
export type OperationId = keyof operations;
/** An operation's query parameters. */
export type ApiQuery<O extends OperationId> = NonNullable<operations[O]['parameters']['query']>;
/** An operation's JSON request body. */
export type ApiBody<O extends OperationId> = operations[O] extends { requestBody?: infer R }
  ? Json<NonNullable<R>>
  : never;
/** An operation's JSON answer for a status (200 unless given). */
export type ApiReply<
  O extends OperationId,
  S extends keyof operations[O]['responses'] = 200 & keyof operations[O]['responses'],
> = Json<operations[O]['responses'][S]>;
