// /api/inventory*: list and search (arrays + X-Total-Count), one item, corrections of its AI fields,
// and its photo. The owner's only; another user's id answers 404 like a missing one.
import express from 'express';
import type { Request, Response, Router } from 'express';
import { getUser, NotFoundError, requireUser } from '@kaboodle/platform';
import type { BlobStore, TokenVerifier } from '@kaboodle/platform';
import { inventoryJson } from './catalogue-model.ts';
import type { CatalogueService } from './catalogue.service.ts';
import { contentDisposition, IMAGE_TYPES } from './content-disposition.ts';
import { sendBlob } from './documents.routes.ts';
import type { InventoryRepository } from './inventory.repository.ts';
import { parseCategory, parseInventoryPatch, parsePage, parseQuery } from './request-input.ts';

export const ITEM_NOT_FOUND = 'Inventory item not found';
export const NO_IMAGE = 'Image not available';

export interface InventoryRouterDeps {
  inventory: InventoryRepository;
  service: CatalogueService;
  blobs: BlobStore;
  verifier: TokenVerifier;
}

export function createInventoryRouter(deps: InventoryRouterDeps): Router {
  const { inventory, service, blobs } = deps;
  const router = express.Router();
  const auth = requireUser(deps.verifier);

  async function listed(req: Request, res: Response): Promise<void> {
    const q = req.query as Record<string, unknown>;
    // spec §7: the search sends only the parameters that are set, so neither is required
    const filter = { query: parseQuery(q, false), category: parseCategory(q) };
    const { rows, total } = await inventory.list(getUser(req).id, filter, parsePage(q));
    res.set('X-Total-Count', String(total)).json(rows.map((r) => inventoryJson(r)));
  }
  router.get('/api/inventory', auth, listed);
  router.get('/api/inventory/search', auth, listed);

  router.get('/api/inventory/:id', auth, async (req, res) => {
    const item = await inventory.findForOwner(getUser(req).id, req.params.id as string);
    if (!item) throw new NotFoundError(ITEM_NOT_FOUND);
    res.json(inventoryJson(item, true));
  });

  router.patch('/api/inventory/:id', auth, express.json(), async (req, res) => {
    const owner = getUser(req).id;
    if (!(await inventory.findForOwner(owner, req.params.id as string)))
      throw new NotFoundError(ITEM_NOT_FOUND);
    const saved = await service.updateInventoryItem(
      owner,
      req.params.id as string,
      parseInventoryPatch(req.body),
    );
    if (!saved) throw new NotFoundError(ITEM_NOT_FOUND);
    res.json(inventoryJson(saved, true));
  });

  router.get('/api/inventory/:id/image', auth, async (req, res) => {
    const item = await inventory.findForOwner(getUser(req).id, req.params.id as string);
    if (!item) throw new NotFoundError(ITEM_NOT_FOUND);
    if (!IMAGE_TYPES.has(item.content_type)) throw new NotFoundError(NO_IMAGE);
    await sendBlob(blobs, res, item.blob_key, {
      contentType: item.content_type,
      disposition: contentDisposition('inline', item.file_name),
      sandbox: false,
    });
  });

  return router;
}
