// Read access for other services (the search index's rebuilds and lookups): the same three calls in
// process (module methods, `--target=all`) and over gRPC (catalogue.grpc.ts), as catalogue.proto messages.
import { InputError, NotFoundError, runAll, sql } from '@kaboodle/platform';
import type { Queryable } from '@kaboodle/platform';
import {
  create,
  EntityType,
  GetDocumentResponseSchema,
  GetInventoryItemResponseSchema,
  ListForIndexResponseSchema,
} from '@kaboodle/proto';
import type {
  GetDocumentRequest,
  GetDocumentResponse,
  GetInventoryItemRequest,
  GetInventoryItemResponse,
  ListForIndexRequest,
  ListForIndexResponse,
  MessageInitShape,
} from '@kaboodle/proto';
import type {
  GetDocumentRequestSchema,
  GetInventoryItemRequestSchema,
  ListForIndexRequestSchema,
} from '@kaboodle/proto';
import { documentProto, inventoryProto, kaboodleProto } from './catalogue-model.ts';
import type { DocumentRepository } from './document.repository.ts';
import { catalogueSql as q0 } from './db-schema.ts';
import type { InventoryRepository } from './inventory.repository.ts';
import type { KaboodleRepository } from './kaboodle.repository.ts';

export type ListForIndexInit = MessageInitShape<typeof ListForIndexRequestSchema> | ListForIndexRequest;
export type GetDocumentInit = MessageInitShape<typeof GetDocumentRequestSchema> | GetDocumentRequest;
export type GetInventoryItemInit =
  MessageInitShape<typeof GetInventoryItemRequestSchema> | GetInventoryItemRequest;

export const LIST_BATCH = 200;

type IndexKind = 'document' | 'inventory_item' | 'kaboodle';

export interface CatalogueReader {
  /**
   * Every entity of the requested types (kaboodles only when asked for), oldest change first;
   * resumable with after_version.
   */
  listForIndex(req: ListForIndexInit, signal?: AbortSignal): AsyncIterable<ListForIndexResponse>;
  /** NotFoundError when missing or not the owner's. */
  getDocument(req: GetDocumentInit): Promise<GetDocumentResponse>;
  getInventoryItem(req: GetInventoryItemInit): Promise<GetInventoryItemResponse>;
}

function ownerAndId(req: { ownerId?: string; id?: string }): { ownerId: string; id: string } {
  const ownerId = req.ownerId ?? '';
  if (!ownerId) throw new InputError('owner_id is required');
  return { ownerId, id: req.id ?? '' };
}

export function createCatalogueReader(deps: {
  db: Queryable;
  documents: DocumentRepository;
  inventory: InventoryRepository;
  kaboodles: Pick<KaboodleRepository, 'forIndex'>;
}): CatalogueReader {
  const { db, documents, inventory, kaboodles } = deps;
  return {
    async *listForIndex(req, signal) {
      // Checked before the first row: an empty owner must never mean "everyone" by accident.
      if (!req.ownerId && !req.allOwners)
        throw new InputError('owner_id is required (or all_owners, for a full index rebuild)');
      if (req.ownerId && req.allOwners) throw new InputError('owner_id and all_owners exclude each other');
      const types = new Set(req.entityTypes ?? []);
      const wantDocs = types.size === 0 || types.has(EntityType.DOCUMENT);
      const wantItems = types.size === 0 || types.has(EntityType.INVENTORY_ITEM);
      // Kaboodles share the entities' version sequence, so one ordered stream stays resumable.
      const wantKaboodles = types.has(EntityType.KABOODLE);
      if (!wantDocs && !wantItems && !wantKaboodles) return;
      let after = BigInt(req.afterVersion ?? 0n);
      for (;;) {
        if (signal?.aborted) return;
        // versions are int8: compared as text cast back, so no bigint loses precision on the way
        const afterVersion = sql<number>`${after.toString()}::bigint`;
        const changed = (table: 'documents' | 'inventory_items' | 'kaboodles', kind: IndexKind) => {
          const query = q0
            .selectFrom(table)
            .select([sql<IndexKind>`${sql.lit(kind)}`.as('kind'), 'id', 'version'])
            .where('version', '>', afterVersion);
          return req.ownerId ? query.where('owner_id', '=', req.ownerId) : query;
        };
        const parts = [
          ...(wantDocs ? [changed('documents', 'document')] : []),
          ...(wantItems ? [changed('inventory_items', 'inventory_item')] : []),
          ...(wantKaboodles ? [changed('kaboodles', 'kaboodle')] : []),
        ];
        const union = parts.slice(1).reduce((all, part) => all.unionAll(part), parts[0]!);
        const rows = await runAll(
          db,
          q0.selectFrom(union.as('e')).selectAll().orderBy('version').limit(LIST_BATCH),
        );
        if (rows.length === 0) return;
        const docIds = rows.filter((r) => r.kind === 'document').map((r) => r.id);
        const itemIds = rows.filter((r) => r.kind === 'inventory_item').map((r) => r.id);
        const kaboodleIds = rows.filter((r) => r.kind === 'kaboodle').map((r) => r.id);
        const [docs, items, found] = await Promise.all([
          documents.findMany(docIds),
          inventory.findMany(itemIds),
          kaboodles.forIndex(kaboodleIds),
        ]);
        const docById = new Map(docs.map((d) => [d.id, d]));
        const itemById = new Map(items.map((i) => [i.id, i]));
        const kaboodleById = new Map(found.map((k) => [k.row.id, k]));
        for (const r of rows) {
          // an entity changed between the two reads comes back later with its newer version
          const doc = r.kind === 'document' ? docById.get(r.id) : undefined;
          const item = r.kind === 'inventory_item' ? itemById.get(r.id) : undefined;
          const kaboodle = r.kind === 'kaboodle' ? kaboodleById.get(r.id) : undefined;
          if (doc && doc.version === r.version) {
            yield create(ListForIndexResponseSchema, {
              entity: { case: 'document', value: documentProto(doc) },
            });
          } else if (item && item.version === r.version) {
            yield create(ListForIndexResponseSchema, {
              entity: { case: 'inventoryItem', value: inventoryProto(item) },
            });
          } else if (kaboodle && kaboodle.row.version === r.version) {
            yield create(ListForIndexResponseSchema, {
              entity: { case: 'kaboodle', value: kaboodleProto(kaboodle) },
            });
          }
        }
        after = BigInt(rows.at(-1)!.version);
        if (rows.length < LIST_BATCH) return;
      }
    },

    async getDocument(req) {
      const { ownerId, id } = ownerAndId(req);
      const doc = await documents.findForOwner(ownerId, id);
      if (!doc) throw new NotFoundError('Document not found');
      return create(GetDocumentResponseSchema, { document: documentProto(doc) });
    },

    async getInventoryItem(req) {
      const { ownerId, id } = ownerAndId(req);
      const item = await inventory.findForOwner(ownerId, id);
      if (!item) throw new NotFoundError('Inventory item not found');
      return create(GetInventoryItemResponseSchema, { inventoryItem: inventoryProto(item) });
    },
  };
}
