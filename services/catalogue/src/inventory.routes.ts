// /api/inventory*: the handlers of the operations declared in inventory.api.ts. Every route is the
// signed-in owner's only; another user's id answers 404 exactly like a missing one, and a selection
// holding one foreign id changes nothing. Fixed paths (search, export, import, bulk) are bound
// before /{id}, so they are never read as ids.
import { NotFoundError, contentDisposition, createApiRouter } from '@kaboodle/platform';
import type { ApiRouter, BlobStore, Logger, TokenVerifier } from '@kaboodle/platform';
import { inventoryJson } from './catalogue-model.ts';
import type { InventoryFields, Tag } from './catalogue-model.ts';
import type { CatalogueService } from './catalogue.service.ts';
import { IMAGE_TYPES } from './content-types.ts';
import { sendBlob } from './documents.routes.ts';
import { streamInventoryExport } from './inventory-export.ts';
import { planImport } from './inventory-import.ts';
import type { InventoryFilter, InventoryRepository, InventorySort } from './inventory.repository.ts';
import type { InventoryService } from './inventory.service.ts';
import { createThumbnailer } from './inventory-thumbnails.ts';
import {
  bulkInventory,
  deleteInventoryItem,
  exportInventory,
  getInventoryImage,
  getInventoryItem,
  importInventory,
  ITEM_NOT_FOUND,
  listInventory,
  NO_IMAGE,
  searchInventory,
  updateInventoryItem,
} from './inventory.api.ts';
import { normaliseTag } from './request-input.ts';

export { ITEM_NOT_FOUND, NO_IMAGE } from './inventory.api.ts';

/** Rows listed in an import report's preview, and problems listed at most. */
const PREVIEW_ROWS = 20;
const MAX_REPORTED_ERRORS = 200;

export interface InventoryRouterDeps {
  inventory: InventoryRepository;
  service: CatalogueService;
  items: InventoryService;
  blobs: BlobStore;
  verifier: TokenVerifier;
  logger: Logger;
  exportMaxRows: number;
}

interface FilterInput {
  query?: string | undefined;
  q?: string | undefined;
  category?: string | undefined;
  sort?: string | undefined;
  order?: 'asc' | 'desc' | undefined;
  has_image?: boolean | undefined;
}

const filterOf = (q: FilterInput, ids?: string[]): InventoryFilter => ({
  query: q.query ?? q.q,
  category: q.category,
  sort: q.sort as InventorySort | undefined,
  order: q.order,
  hasImage: q.has_image,
  ids,
});

/** Tags as the catalogue keeps them (normalised, unique, relevancy 1 unless given). */
function normaliseTags(tags: (string | { tag: string; relevancy?: number | undefined })[]): Tag[] {
  const out = new Map<string, Tag>();
  for (const t of tags) {
    const raw = typeof t === 'string' ? t : t.tag;
    const tag = normaliseTag(raw);
    if (!tag) continue;
    const relevancy = typeof t === 'string' ? 1 : (t.relevancy ?? 1);
    if (!out.has(tag)) out.set(tag, { tag, relevancy: Math.round(relevancy * 1000) / 1000 });
  }
  return [...out.values()];
}

export function createInventoryRouter(deps: InventoryRouterDeps): ApiRouter {
  const { inventory, service, items, blobs } = deps;
  const api = createApiRouter({ verifier: deps.verifier });
  const thumbnails = createThumbnailer({ blobs, logger: deps.logger });

  const listed = async (owner: string, query: FilterInput & { page: number; limit: number }) => {
    const { rows, total } = await inventory.list(owner, filterOf(query), {
      page: query.page,
      limit: query.limit,
    });
    return { items: rows.map((r) => inventoryJson(r)), total };
  };

  api.handle(listInventory, async ({ query, user, res, reply }) => {
    const { items: body, total } = await listed(user.id, query);
    res.set('X-Total-Count', String(total));
    reply(200, body);
  });

  api.handle(searchInventory, async ({ query, user, res, reply }) => {
    const { items: body, total } = await listed(user.id, query);
    res.set('X-Total-Count', String(total));
    reply(200, body);
  });

  api.handle(exportInventory, async ({ query, user, res }) => {
    await streamInventoryExport(res, {
      inventory,
      owner: user.id,
      filter: filterOf(query, query.ids),
      format: query.format,
      bom: query.bom === '1' || query.bom === 'true',
      maxRows: deps.exportMaxRows,
    });
  });

  api.handle(importInventory, async ({ body, user, reply }) => {
    const plan = planImport(body.csv, body.mapping);
    const errors = plan.rows.flatMap((r) =>
      r.errors.map((e) => ({ line: r.line, message: `Line ${r.line}: ${e}` })),
    );
    const valid = plan.rows.filter((r) => r.errors.length === 0).length;
    const report = {
      columns: plan.columns,
      mapping: plan.mapping,
      rows: plan.rows.length,
      valid,
      errors: errors.slice(0, MAX_REPORTED_ERRORS),
      preview: plan.rows
        .slice(0, PREVIEW_ROWS)
        .map((r) => ({ line: r.line, fields: r.fields, errors: r.errors })),
      imported: 0,
      ids: [] as string[],
    };
    if (errors.length > 0) {
      const lines = new Set(errors.map((e) => e.line)).size;
      const message = `${lines} row${lines === 1 ? ' has' : 's have'} problems; nothing was imported. Fix them and try again.`;
      reply(body.dry_run ? 200 : 422, { ...report, message });
      return;
    }
    if (plan.rows.length === 0) {
      reply(body.dry_run ? 200 : 422, { ...report, message: 'The CSV has no rows to import' });
      return;
    }
    if (body.dry_run) {
      reply(200, { ...report, message: `${valid} item${valid === 1 ? '' : 's'} ready to import` });
      return;
    }
    const ids = await items.importItems(user.id, plan.rows, body.file_name ?? '');
    reply(201, {
      ...report,
      imported: ids.length,
      ids,
      message: `Imported ${ids.length} item${ids.length === 1 ? '' : 's'}`,
    });
  });

  api.handle(bulkInventory, async ({ body, user, reply }) => {
    const done =
      body.action === 'delete'
        ? await items.deleteMany(user.id, body.ids)
        : await items.categoriseMany(user.id, body.ids, body.category);
    if (!done) throw new NotFoundError(ITEM_NOT_FOUND);
    if (body.action === 'delete') {
      for (const id of done) void thumbnails.forget({ owner_id: user.id, id }).catch(() => undefined);
    }
    reply(200, { action: body.action, ids: done, count: done.length });
  });

  api.handle(getInventoryItem, async ({ params, user, reply }) => {
    const item = await inventory.findForOwner(user.id, params.id);
    if (!item) throw new NotFoundError(ITEM_NOT_FOUND);
    reply(200, inventoryJson(item, true));
  });

  api.handle(updateInventoryItem, async ({ params, body, user, reply }) => {
    const owner = user.id;
    if (!(await inventory.findForOwner(owner, params.id))) throw new NotFoundError(ITEM_NOT_FOUND);
    const { hashtags, ...rest } = body;
    const patch: Partial<InventoryFields> = { ...rest };
    if (hashtags !== undefined) patch.hashtags = normaliseTags(hashtags);
    const saved = await service.updateInventoryItem(owner, params.id, patch);
    if (!saved) throw new NotFoundError(ITEM_NOT_FOUND);
    reply(200, inventoryJson(saved, true));
  });

  api.handle(deleteInventoryItem, async ({ params, user, res }) => {
    if (!(await items.deleteItem(user.id, params.id))) throw new NotFoundError(ITEM_NOT_FOUND);
    void thumbnails.forget({ owner_id: user.id, id: params.id }).catch(() => undefined);
    res.status(204).end();
  });

  api.handle(getInventoryImage, async ({ params, query, user, req, res }) => {
    const item = await inventory.findForOwner(user.id, params.id);
    if (!item) throw new NotFoundError(ITEM_NOT_FOUND);
    if (!IMAGE_TYPES.has(item.content_type) || !item.blob_key) throw new NotFoundError(NO_IMAGE);
    if (query.w === undefined) {
      await sendBlob(blobs, res, item.blob_key, {
        contentType: item.content_type,
        disposition: contentDisposition('inline', item.file_name),
        sandbox: false,
      });
      return;
    }
    const version = item.sha256.slice(0, 16);
    const etag = `"${version}-${query.w}"`;
    const cache = query.v === version ? 'private, max-age=31536000, immutable' : 'private, no-cache';
    res.set({ ETag: etag, 'Cache-Control': cache, 'X-Content-Type-Options': 'nosniff' });
    if (req.headers['if-none-match'] === etag) {
      res.status(304).end();
      return;
    }
    const thumb = await thumbnails.thumbnail(item, query.w);
    res
      .status(200)
      .set({ 'Content-Type': thumb.contentType, 'Content-Length': String(thumb.bytes.length) })
      .end(thumb.bytes);
  });

  return api;
}
